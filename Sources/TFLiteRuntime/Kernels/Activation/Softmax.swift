import TFLiteModel

/// SOFTMAX and LOG_SOFTMAX over the last dimension of a tensor of any rank ≥ 1:
/// - SOFTMAX: `y = e^((x - max) * beta) / Σ e^((x - max) * beta)`;
/// - LOG_SOFTMAX: `y = x - max - log Σ e^(x - max)`;
/// where max and Σ run over one row of the last dimension.
///
/// Prepare validates the operator and picks the kernel for the element type; float32
/// kernels are in `+F32`, 8-bit SOFTMAX in `+Q8`, 8-bit LOG_SOFTMAX in `LogSoftmax+Q8`.
enum Softmax {
    static func prepare(logarithmic: Bool) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 1, outputs: 1)
            let input = try context.input(0)
            let output = try context.output(0)
            guard input.type == output.type else { throw context.unsupportedTypes() }
            guard input.rank >= 1 else { throw .invalid("input must have rank 1 or more, found a scalar") }
            let beta: Float
            switch (logarithmic, context.op.options) {
            case (false, .softmax(let b)): beta = b
            case (false, .none): beta = 0 // SoftmaxOptions absent: TFLite's zeroed default.
            case (true, .none), (true, .empty): beta = 1
            default: throw .invalid("unexpected options \(context.op.options)")
            }
            guard beta.isFinite else { throw .invalid("beta \(beta) is not finite") }
            try context.setOutputShape(0, input.shape)
            let depth = input.shape[input.rank - 1]
            let rows = depth == 0 ? 0 : input.elementCount / depth
            switch input.type {
            case .float32:
                if logarithmic {
                    return LogSoftmaxF32(
                        input: input.index, output: output.index, rows: rows, depth: depth,
                        math: FloatVectorMath(context.kernelLevel))
                }
                return SoftmaxF32(
                    input: input.index, output: output.index, rows: rows, depth: depth, beta: beta,
                    math: FloatVectorMath(context.kernelLevel))
            case .uint8 where logarithmic:
                return try logQuantized(UInt8.self, input: input, output: output, rows: rows, depth: depth)
            case .int8 where logarithmic:
                return try logQuantized(Int8.self, input: input, output: output, rows: rows, depth: depth)
            case .uint8:
                return try quantized(UInt8.self, input: input, output: output, beta: beta, rows: rows, depth: depth)
            case .int8:
                return try quantized(Int8.self, input: input, output: output, beta: beta, rows: rows, depth: depth)
            default:
                throw context.unsupportedTypes()
            }
        }
    }
}
