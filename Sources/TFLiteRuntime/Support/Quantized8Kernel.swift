/// A prepared kernel over uint8 or int8 codes, told apart by a stored flag rather than a
/// generic parameter: the witness of a generic kernel's `eval` is the unspecialized body,
/// which reads, converts and stores every code through witnesses. `eval` here calls the
/// specialization of `run` for the concrete type instead.
protocol Quantized8Kernel: PreparedKernel {
    /// int8 (else uint8) codes.
    var signed: Bool { get }
    /// The kernel's work for the code type `T` (`Int8` or `UInt8`).
    func run<T: Quantized8>(_ context: EvalContext, _: T.Type)
}

extension Quantized8Kernel {
    @inline(__always)
    func eval(_ context: EvalContext) throws(KernelError) {
        if signed { run(context, Int8.self) } else { run(context, UInt8.self) }
    }
}
