import TFLiteModel

extension KernelRegistry {
    static var resizeKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
