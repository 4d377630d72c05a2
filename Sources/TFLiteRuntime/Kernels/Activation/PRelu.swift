import TFLiteModel

/// PRELU: `y = x >= 0 ? x : x * alpha`, with the alpha tensor broadcast against the
/// input (NumPy rules, see ``Broadcast``); the output has the broadcast shape.
enum PRelu {
    static func prepare(_ context: inout PrepareContext) throws(KernelError) -> any PreparedKernel {
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let alpha = try context.input(1)
        // TFLite's PRELU gives the output the input's type at prepare.
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        guard input.type == alpha.type, input.type == output.type else { throw context.unsupportedTypes() }
        switch context.op.options {
        case .none, .empty: break
        default: throw .invalid("unexpected options \(context.op.options)")
        }
        let broadcast = try Broadcast(input.shape, alpha.shape)
        try context.setOutputShape(0, broadcast.outputShape)
        switch input.type {
        case .float32:
            return BroadcastBinaryKernel<PReluF32>(
                a: input.index, b: alpha.index, output: output.index,
                broadcast: broadcast, clamp: nil)
        case .uint8:
            return try quantized(UInt8.self, input: input, alpha: alpha, output: output, broadcast: broadcast)
        case .int8:
            return try quantized(Int8.self, input: input, alpha: alpha, output: output, broadcast: broadcast)
        default:
            throw context.unsupportedTypes()
        }
    }
}
