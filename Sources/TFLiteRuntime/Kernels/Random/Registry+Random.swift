import TFLiteModel

extension KernelRegistry {
    /// Random number generators (state kept between invokes).
    static var randomKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.randomUniform, RandomFloats.prepare(.uniform)),
            (.randomStandardNormal, RandomFloats.prepare(.normal)),
            (.multinomial, Multinomial.prepare),
        ]
    }
}
