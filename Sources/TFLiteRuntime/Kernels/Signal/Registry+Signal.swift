import TFLiteModel

extension KernelRegistry {
    /// Spectral operators (complex64 tensors).
    static var signalKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.rfft2D, RFFT2DKernel.prepare),
            (.complexAbs, ComplexAbsKernel.prepare),
            (.real, ComplexPart.prepare(imaginary: false)),
            (.imag, ComplexPart.prepare(imaginary: true)),
        ]
    }
}
