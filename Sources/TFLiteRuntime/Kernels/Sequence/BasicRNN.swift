import TFLiteModel

/// RNN: one step of a fully connected RNN cell (spec/recurrent-ops.md):
/// `y = act(bias + W·x + R·h)`, and the hidden state `h` becomes `y`.
///
/// Inputs: 0 input `[batch, inputSize]` (float32), 1 weights `[units, inputSize]`,
/// 2 recurrent weights `[units, units]` (both float32, or both int8 for the hybrid
/// kernel), 3 bias `[units]` (float32), 4 hidden state `[batch, units]` (float32, a
/// variable tensor, updated in place). Output `[batch, units]` (float32).
enum BasicRNN {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 5, outputs: 1)
        let options: RNNOptions
        switch context.op.options {
        case .rnn(let o): options = o
        case .none: options = RNNOptions(activation: .none) // LiteRT's zeroed parameters
        default: throw .invalid("expected RNNOptions, found \(context.op.options)")
        }
        let input = try context.input(0)
        guard input.rank == 2 else { throw .invalid("input must have rank 2, found shape \(input.shape)") }
        let (batch, inputSize) = (input.shape[0], input.shape[1])
        let cell = try RecurrentCellOperands(
            context, weights: 1, recurrent: 2, bias: 3, state: 4, auxWeights: nil, batch: batch, inputSize: inputSize,
            auxSize: nil, role: "")
        let output = try context.output(0)
        try RecurrentCheck.floats(context, [input, output])
        try RecurrentCheck.dense([input])
        try RecurrentCheck.stateIsOwnTensor(context, states: [cell.state.index])
        try context.setOutputShape(0, [batch, cell.units])
        context.declareWork([batch, cell.units, try RecurrentCheck.sum([inputSize, cell.units], "RNN")])
        let activation = try RecurrentActivation(options.activation)
        return BasicRNNKernel(
            cell: try cell.makeCell(
                &context, rows: batch, activation: activation, asymmetric: options.asymmetricQuantizeInputs, role: ""),
            input: input.index, state: cell.state.index, output: output.index, batch: batch,
            inputSize: inputSize, units: cell.units)
    }
}

struct BasicRNNKernel: PreparedKernel {
    let cell: any RecurrentCell
    let input: Int, state: Int, output: Int
    let batch: Int, inputSize: Int, units: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        cell.step(
            context,
            RecurrentStep(
                rows: batch, x: UnsafePointer(context.pointer(input, as: Float.self)), xStride: inputSize, aux: nil,
                auxStride: 0, h: context.pointer(state, as: Float.self),
                y: context.pointer(output, as: Float.self), yStride: units, zeroTestPerRow: false))
    }
}
