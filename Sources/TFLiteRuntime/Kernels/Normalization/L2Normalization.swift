import TFLiteModel

/// L2_NORMALIZATION (float32) along the last axis: `y = x / max(‖x‖₂, ε)` with
/// `‖x‖₂ = √(Σ x²)` summed in order in float32 and `ε = 1e-6`, so a zero row stays zero
/// instead of dividing by zero. Only the NONE fused activation is accepted, as in TFLite.
/// int8/uint8 are in `+Quantized`.
enum L2NormalizationKernel {
    static let epsilon: Float = 1e-6

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == output.type, [.float32, .int8, .uint8].contains(input.type) else {
            throw context.unsupportedTypes()
        }
        if case .l2Norm(let activation) = context.op.options, activation != .none {
            throw .invalid("fused activation \(activation.name) is not supported (TFLite accepts only NONE)")
        }
        guard let depth = input.shape.last else { throw .invalid("the input must have rank 1 or more") }
        try context.setOutputShape(0, input.shape)
        if input.type != .float32 {
            return try quantized(
                input: input, output: output, rows: depth == 0 ? 0 : input.elementCount / depth, depth: depth)
        }
        return L2NormalizationF32(
            input: input.index, output: output.index, rows: depth == 0 ? 0 : input.elementCount / depth, depth: depth)
    }
}

struct L2NormalizationF32: PreparedKernel {
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        for r in 0 ..< rows {
            let row = x + r * depth
            var squares: Float = 0
            for c in 0 ..< depth { squares += row[c] * row[c] }
            let norm = Swift.max(squares.squareRoot(), L2NormalizationKernel.epsilon)
            for c in 0 ..< depth { y[r * depth + c] = row[c] / norm }
        }
    }
}
