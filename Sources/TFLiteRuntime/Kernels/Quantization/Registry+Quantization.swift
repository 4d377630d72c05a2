import TFLiteModel

extension KernelRegistry {
    static var quantizationKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.dequantize, Dequantize.prepare),
            (.cast, Cast.prepare),
            (.densify, Densify.prepare),
        ]
    }
}
