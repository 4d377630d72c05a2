import TFLiteModel

// Kernel families. Each array is defined next to its kernels.
extension KernelRegistry {
    static var builtinGroups: [[(BuiltinOperator, KernelPrepare)]] {
        [
            convolutionKernels,
            poolingKernels,
            elementwiseKernels,
            activationKernels,
            shapeKernels,
            reductionKernels,
            resizeKernels,
            quantizationKernels,
            mathKernels,
            comparisonKernels,
            indexKernels,
            generateKernels,
            recurrentKernels,
            movementKernels,
            normalizationKernels,
            signalKernels,
            variableKernels,
            controlFlowKernels,
            bitwiseKernels,
            randomKernels,
            windowKernels,
            stableHLOKernels,
            lstmKernels,
            detectionBuiltinKernels,
            segmentKernels,
            embeddingKernels,
            textKernels,
            lookupKernels,
        ]
    }

    static var customGroups: [[(String, KernelPrepare)]] {
        [detectionKernels, mediaPipeKernels, smartReplyKernels]
    }
}
