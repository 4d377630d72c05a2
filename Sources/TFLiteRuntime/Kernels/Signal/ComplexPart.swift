import TFLiteModel

/// REAL and IMAG: the real or imaginary part of each complex element, complex64 → float32
/// and complex128 → float64. A complex element is its real part followed by its imaginary
/// part, so either output is every other scalar of the input.
enum ComplexPart {
    static func prepare(imaginary: Bool) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 1, outputs: 1)
            let input = try context.input(0)
            let output = try context.output(0)
            let wide: Bool
            switch (input.type, output.type) {
            case (.complex64, .float32): wide = false
            case (.complex128, .float64): wide = true
            default: throw context.unsupportedTypes()
            }
            try context.setOutputShape(0, input.shape)
            return ComplexPartKernel(
                input: input.index, output: output.index, count: input.elementCount, offset: imaginary ? 1 : 0,
                wide: wide)
        }
    }
}

struct ComplexPartKernel: PreparedKernel {
    let input: Int, output: Int, count: Int
    /// 0 for the real part, 1 for the imaginary part.
    let offset: Int
    /// complex128 → float64 (else complex64 → float32).
    let wide: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        if wide {
            copy(context, Double.self)
        } else {
            copy(context, Float.self)
        }
    }

    @inline(__always)
    private func copy<T>(_ context: EvalContext, _: T.Type) {
        let z = UnsafePointer(context.pointer(input, as: T.self)) + offset
        let y = context.pointer(output, as: T.self)
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
            for i in range { y[i] = z[2 * i] }
        }
    }
}
