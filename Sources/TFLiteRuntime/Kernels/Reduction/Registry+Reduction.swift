import TFLiteModel

extension KernelRegistry {
    static var reductionKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
