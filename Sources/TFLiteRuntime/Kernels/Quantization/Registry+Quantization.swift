import TFLiteModel

extension KernelRegistry {
    static var quantizationKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.quantize, Quantize.prepare),
            (.dequantize, Dequantize.prepare),
            (.cast, Cast.prepare),
            (.densify, Densify.prepare),
            (.fakeQuant, FakeQuantKernel.prepare),
        ]
    }
}
