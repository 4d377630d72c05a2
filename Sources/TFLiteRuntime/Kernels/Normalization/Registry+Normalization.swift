import TFLiteModel

extension KernelRegistry {
    static var normalizationKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.l2Normalization, L2NormalizationKernel.prepare),
            (.localResponseNormalization, LocalResponseNormalizationKernel.prepare),
        ]
    }
}
