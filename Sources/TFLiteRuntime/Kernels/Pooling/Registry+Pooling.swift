import TFLiteModel

extension KernelRegistry {
    static var poolingKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
