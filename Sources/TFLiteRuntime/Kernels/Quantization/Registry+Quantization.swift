import TFLiteModel

extension KernelRegistry {
    static var quantizationKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
