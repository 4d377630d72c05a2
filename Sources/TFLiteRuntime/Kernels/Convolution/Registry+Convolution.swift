import TFLiteModel

extension KernelRegistry {
    static var convolutionKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
