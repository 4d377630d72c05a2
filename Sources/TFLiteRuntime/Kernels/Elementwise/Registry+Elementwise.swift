import TFLiteModel

extension KernelRegistry {
    static var elementwiseKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
