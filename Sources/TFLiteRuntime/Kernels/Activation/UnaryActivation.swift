import TFLiteModel

/// Elementwise functions of one tensor: LEAKY_RELU, LOGISTIC, TANH, HARD_SWISH, EXP,
/// SQRT and RSQRT. The output has the input's shape and type.
///
/// Prepare validates the operator and picks the kernel for the element type; float32
/// kernels are in `+F32`, uint8/int8 ones in `+Q8`, int16 LOGISTIC and TANH in `+S16`.
enum UnaryActivation {
    enum Kind: Sendable {
        case leakyRelu, logistic, tanh, hardSwish, exp, sqrt, rsqrt
    }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 1, outputs: 1)
            let input = try context.input(0)
            // TFLite's EXP gives the output the input's type at prepare; the others
            // require the file's types to agree.
            if kind == .exp { try context.deriveOutputType(0, input.type) }
            let output = try context.output(0)
            guard input.type == output.type else { throw context.unsupportedTypes() }
            let alpha = try leakyReluAlpha(kind, context.op.options)
            try context.setOutputShape(0, input.shape)
            let operands = Operands(input: input.index, output: output.index, count: input.elementCount)
            switch input.type {
            case .float32:
                return float32(kind, operands, alpha: alpha, level: context.kernelLevel)
            case .uint8:
                guard
                    let kernel = try quantized(
                        UInt8.self, kind, operands, alpha: alpha, input: input, output: output,
                        level: context.kernelLevel)
                else {
                    throw context.unsupportedTypes()
                }
                return kernel
            case .int8:
                guard
                    let kernel = try quantized(
                        Int8.self, kind, operands, alpha: alpha, input: input, output: output,
                        level: context.kernelLevel)
                else {
                    throw context.unsupportedTypes()
                }
                return kernel
            case .int16:
                guard
                    let kernel = try int16(
                        kind, operands, input: input, output: output, level: context.kernelLevel)
                else {
                    throw context.unsupportedTypes()
                }
                return kernel
            default:
                throw context.unsupportedTypes()
            }
        }
    }

    struct Operands {
        let input: Int
        let output: Int
        let count: Int
    }

    /// LEAKY_RELU's `alpha` (0 when the options table is absent, as in TFLite); 0 for
    /// the other kinds, whose options tables have no fields.
    static func leakyReluAlpha(_ kind: Kind, _ options: BuiltinOptions) throws(KernelError) -> Float {
        switch (kind, options) {
        case (.leakyRelu, .leakyRelu(let alpha)):
            guard alpha.isFinite else { throw .invalid("alpha \(alpha) is not finite") }
            return alpha
        case (_, .none), (.hardSwish, .empty), (.exp, .empty), (.sqrt, .empty), (.rsqrt, .empty),
            (.logistic, .empty), (.tanh, .empty):
            return 0
        default:
            throw .invalid("unexpected options \(options)")
        }
    }
}
