import TFLiteModel

extension KernelRegistry {
    static var shapeKernels: [(BuiltinOperator, KernelPrepare)] {
        [
        ]
    }
}
