import TFLiteModel

/// UNIDIRECTIONAL_SEQUENCE_RNN: the RNN cell run over a sequence (spec/recurrent-ops.md):
/// for `t = 0 ..< time`, `y[t] = act(bias + W·x[t] + R·h)` and `h = y[t]`, for every batch
/// row. The hidden state carries over from the previous invoke.
///
/// Inputs as RNN's, with input 0 `[batch, time, inputSize]`, or `[time, batch, inputSize]`
/// when `time_major`; the output has the same layout with `units` features.
///
/// Batch rows are independent, so each step computes all of them, wherever they lie in
/// the tensor. LiteRT computes a batch-major sequence one row at a time; the only
/// difference that makes is which rows the hybrid kernel's test for an all-zero input
/// covers (``RecurrentStep/zeroTestPerRow``).
enum UnidirectionalSequenceRNN {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 5, outputs: 1)
        let options: SequenceRNNOptions
        switch context.op.options {
        case .sequenceRNN(let o): options = o
        case .none: options = SequenceRNNOptions(timeMajor: false, activation: .none) // LiteRT's zeroed parameters
        default: throw .invalid("expected SequenceRNNOptions, found \(context.op.options)")
        }
        let input = try context.input(0)
        guard input.rank == 3 else { throw .invalid("input must have rank 3, found shape \(input.shape)") }
        let geometry = SequenceGeometry(shape: input.shape, timeMajor: options.timeMajor)
        let cell = try RecurrentCellOperands(
            context, weights: 1, recurrent: 2, bias: 3, state: 4, auxWeights: nil, batch: geometry.batch,
            inputSize: geometry.features, auxSize: nil, role: "")
        let output = try context.output(0)
        try RecurrentCheck.floats(context, [input, output])
        try RecurrentCheck.dense([input])
        try RecurrentCheck.stateIsOwnTensor(context, states: [cell.state.index])
        try context.setOutputShape(0, geometry.shape(features: cell.units))
        context.declareWork([
            geometry.time, geometry.batch, cell.units,
            try RecurrentCheck.sum([geometry.features, cell.units], "UNIDIRECTIONAL_SEQUENCE_RNN"),
        ])
        let activation = try RecurrentActivation(options.activation)
        return UnidirectionalSequenceRNNKernel(
            cell: try cell.makeCell(
                &context, rows: geometry.batch, activation: activation,
                asymmetric: options.asymmetricQuantizeInputs, role: ""),
            input: input.index, state: cell.state.index, output: output.index, geometry: geometry,
            units: cell.units)
    }
}

/// Where row `b` of time step `t` lies in a `[batch, time, features]` or
/// `[time, batch, features]` tensor.
struct SequenceGeometry: Sendable {
    let batch: Int, time: Int, features: Int
    let timeMajor: Bool

    init(shape: [Int], timeMajor: Bool) {
        (batch, time) = timeMajor ? (shape[1], shape[0]) : (shape[0], shape[1])
        features = shape[2]
        self.timeMajor = timeMajor
    }

    func shape(features f: Int) -> [Int] { timeMajor ? [time, batch, f] : [batch, time, f] }

    /// Offset of step `t`'s first row, and the distance between consecutive rows, in a
    /// tensor of this layout with rows of `width` values.
    @inline(__always)
    func rows(step t: Int, width: Int) -> (offset: Int, stride: Int) {
        timeMajor ? (t * batch * width, width) : (t * width, time * width)
    }
}

struct UnidirectionalSequenceRNNKernel: PreparedKernel {
    let cell: any RecurrentCell
    let input: Int, state: Int, output: Int
    let geometry: SequenceGeometry
    let units: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let h = context.pointer(state, as: Float.self)
        for t in 0 ..< geometry.time {
            let inRows = geometry.rows(step: t, width: geometry.features)
            let outRows = geometry.rows(step: t, width: units)
            cell.step(
                context,
                RecurrentStep(
                    rows: geometry.batch, x: x + inRows.offset, xStride: inRows.stride, aux: nil, auxStride: 0, h: h,
                    y: y + outRows.offset, yStride: outRows.stride, zeroTestPerRow: !geometry.timeMajor))
        }
    }
}
