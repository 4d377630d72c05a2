import TFLiteModel

extension KernelRegistry {
    /// Operators that repeat, reorder or regroup elements.
    static var movementKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.tile, TileKernel.prepare),
            (.broadcastTo, BroadcastToKernel.prepare),
            (.reverseV2, ReverseV2Kernel.prepare),
            (.spaceToBatchND, SpaceBatchKernels.spaceToBatch),
            (.batchToSpaceND, SpaceBatchKernels.batchToSpace),
            (.matrixDiag, MatrixDiagKernel.prepare),
            (.matrixSetDiag, MatrixSetDiagKernel.prepare),
            (.reverseSequence, ReverseSequenceKernel.prepare),
        ]
    }
}
