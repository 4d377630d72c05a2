import TFLiteModel

extension KernelRegistry {
    static var poolingKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.averagePool2D, Pool2D.prepare(.average)),
            (.maxPool2D, Pool2D.prepare(.max)),
            (.l2Pool2D, L2Pool2D.prepare),
        ]
    }
}
