import TFLiteModel

/// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM and MINIMUM: `y = f(a, b)` with
/// NumPy broadcasting (see ``Broadcast``), then the fused activation's clamp where the
/// operator has one (ADD, SUB, MUL, DIV).
///
/// Prepare checks the operand and output types agree, computes the output shape and
/// the merged broadcast strides, and picks the kernel for the element type:
/// float32 (`+F32`), int32 (`+S32`, the shape arithmetic of converted models) or
/// uint8/int8 (`+Q8`, bit-exact with TFLite's reference kernels).
enum BinaryElementwise {
    enum Kind: Sendable {
        case add, sub, mul, div, squaredDifference, maximum, minimum
    }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 2, outputs: 1)
            let a = try context.input(0)
            let b = try context.input(1)
            guard a.type == b.type else { throw context.unsupportedTypes() }
            // TFLite's ADD, SUB, DIV, SQUARED_DIFFERENCE, MAXIMUM and MINIMUM give the
            // output the operands' type at prepare; MUL keeps the file's and must agree.
            if kind != .mul { try context.deriveOutputType(0, a.type) }
            let output = try context.output(0)
            guard a.type == output.type else { throw context.unsupportedTypes() }
            let activation = try fusedActivation(kind, context.op.options)
            let broadcast = try Broadcast(a.shape, b.shape)
            try context.setOutputShape(0, broadcast.outputShape)
            let operands = Operands(a: a.index, b: b.index, output: output.index, broadcast: broadcast)
            switch a.type {
            case .float32:
                return try float32(kind, operands, activation: activation, level: context.kernelLevel)
            case .int32:
                guard let kernel = try int32(kind, operands, activation: activation) else {
                    throw context.unsupportedTypes()
                }
                return kernel
            case .uint8:
                guard
                    let kernel = try quantized(
                        UInt8.self, kind, operands, activation: activation, a: a, b: b, output: output,
                        level: context.kernelLevel)
                else {
                    throw context.unsupportedTypes()
                }
                return kernel
            case .int8:
                guard
                    let kernel = try quantized(
                        Int8.self, kind, operands, activation: activation, a: a, b: b, output: output,
                        level: context.kernelLevel)
                else {
                    throw context.unsupportedTypes()
                }
                return kernel
            default:
                throw context.unsupportedTypes()
            }
        }
    }

    /// Tensor indices and broadcast geometry shared by every element type.
    struct Operands {
        let a: Int
        let b: Int
        let output: Int
        let broadcast: Broadcast
    }

    /// The fused activation from the operator's options; `.none` for operators without
    /// one or when the options table is absent.
    static func fusedActivation(_ kind: Kind, _ options: BuiltinOptions) throws(KernelError) -> FusedActivation {
        switch (kind, options) {
        case (_, .none): return .none
        case (.add, .add(let activation, _)), (.sub, .sub(let activation, _)),
            (.mul, .mul(let activation)), (.div, .div(let activation)):
            return activation
        case (.squaredDifference, .empty), (.maximum, .empty), (.minimum, .empty):
            return .none
        default:
            throw .invalid("unexpected options \(options)")
        }
    }
}
