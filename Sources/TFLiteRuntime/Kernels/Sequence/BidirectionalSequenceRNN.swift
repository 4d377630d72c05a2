import TFLiteModel

/// BIDIRECTIONAL_SEQUENCE_RNN: a forward RNN cell over `t = 0 ..< time` and a backward one
/// over `t = time - 1 ... 0`, each with its own weights and hidden state
/// (spec/recurrent-ops.md, "Bidirectional").
///
/// Inputs: 0 input `[batch, time, inputSize]` (`[time, batch, inputSize]` when
/// `time_major`); 1-4 the forward cell's weights, recurrent weights, bias and hidden
/// state; 5-8 the backward cell's; 9 an optional aux input (`[..., auxSize]`), 10 and 11
/// optional aux weights of each cell (`[units, auxSize]`, both or neither). Outputs: the
/// forward cell's outputs, and the backward cell's, or with `merge_outputs` one output
/// holding both per step (forward units first).
///
/// The aux input is used in one of two ways, as LiteRT does:
/// - with aux weights, it is a second input of both cells (`+ W_aux·a[t]`);
/// - without them, it replaces the input of the backward cell, in time-major layout
///   only: LiteRT's batch-major loops read the input for both cells.
///
/// LiteRT's hybrid time-major kernel runs the forward and backward sweeps `time` times
/// over, the hidden states carrying on, and outputs the last sweep; that is reproduced.
/// Where LiteRT would read the aux input with the input's row length (time-major, and
/// every hybrid case) the two lengths must be equal.
enum BidirectionalSequenceRNN {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        let options: BidirectionalSequenceRNNOptions
        switch context.op.options {
        case .bidirectionalSequenceRNN(let o): options = o
        case .none: // LiteRT's zeroed parameters
            options = BidirectionalSequenceRNNOptions(timeMajor: false, activation: .none, mergeOutputs: false)
        default: throw .invalid("expected BidirectionalSequenceRNNOptions, found \(context.op.options)")
        }
        let outputs = options.mergeOutputs ? 1 : 2
        try context.expectCounts(inputs: 12, outputs: outputs)
        let input = try context.input(0)
        guard input.rank == 3 else { throw .invalid("input must have rank 3, found shape \(input.shape)") }
        let geometry = SequenceGeometry(shape: input.shape, timeMajor: options.timeMajor)
        let auxInput = context.optionalInput(9)
        let fwAux = context.inputIndex(10), bwAux = context.inputIndex(11)
        guard (fwAux == nil) == (bwAux == nil) else {
            throw .invalid("the forward and backward aux input weights must both be given or both be absent")
        }
        let crossLinked = fwAux != nil
        if crossLinked, auxInput == nil { throw .invalid("aux input weights are given without an aux input") }
        if let aux = auxInput {
            guard aux.rank == 3, aux.shape[0] == input.shape[0], aux.shape[1] == input.shape[1] else {
                throw .invalid("the aux input \(aux.shape) must be [\(input.shape[0]), \(input.shape[1]), n]")
            }
            guard aux.type == .float32 else { throw context.unsupportedTypes() }
        }
        let auxSize = crossLinked ? auxInput?.shape[2] : nil
        let fw = try RecurrentCellOperands(
            context, weights: 1, recurrent: 2, bias: 3, state: 4, auxWeights: crossLinked ? 10 : nil,
            batch: geometry.batch,
            inputSize: geometry.features, auxSize: auxSize, role: "forward ")
        let bw = try RecurrentCellOperands(
            context, weights: 5, recurrent: 6, bias: 7, state: 8, auxWeights: crossLinked ? 11 : nil,
            batch: geometry.batch,
            inputSize: geometry.features, auxSize: auxSize, role: "backward ")
        guard fw.weights.type == bw.weights.type else { throw context.unsupportedTypes() }
        let hybrid = fw.isHybrid
        // The backward cell reads the aux input instead of the input (time-major, no aux weights).
        let auxFeedsBackward = !crossLinked && auxInput != nil && options.timeMajor
        if let aux = auxInput, let auxSize, auxSize != geometry.features, options.timeMajor || hybrid {
            throw .invalid(
                "an aux input of \(auxSize) features with an input of \(geometry.features) is not supported here (LiteRT reads it with the input's row length): \(aux.shape)"
            )
        }
        if auxFeedsBackward, let aux = auxInput, aux.shape != input.shape {
            throw .invalid("the aux input \(aux.shape) feeds the backward cell, so it must have the input's shape")
        }
        let fwOutput = try context.output(0)
        var bwOutput: TensorState? = nil
        if !options.mergeOutputs { bwOutput = try context.output(1) }
        try RecurrentCheck.floats(context, [input, fwOutput] + (bwOutput.map { [$0] } ?? []))
        try RecurrentCheck.stateIsOwnTensor(context, states: [fw.state.index, bw.state.index])
        try RecurrentCheck.dense([input, auxInput])
        let merged = try RecurrentCheck.sum([fw.units, bw.units], "BIDIRECTIONAL_SEQUENCE_RNN")
        try context.setOutputShape(0, geometry.shape(features: options.mergeOutputs ? merged : fw.units))
        if !options.mergeOutputs { try context.setOutputShape(1, geometry.shape(features: bw.units)) }
        let sweeps = hybrid && options.timeMajor ? geometry.time : 1
        let depth = try RecurrentCheck.sum([geometry.features, auxSize ?? 0], "BIDIRECTIONAL_SEQUENCE_RNN")
        for cell in [fw, bw] {
            context.declareWork([
                sweeps, geometry.time, geometry.batch, cell.units,
                try RecurrentCheck.sum([depth, cell.units], "BIDIRECTIONAL_SEQUENCE_RNN"),
            ])
        }
        let activation = try RecurrentActivation(options.activation)
        let asymmetric = options.asymmetricQuantizeInputs
        return BidirectionalSequenceRNNKernel(
            forward: try fw.makeCell(
                &context, rows: geometry.batch, activation: activation, asymmetric: asymmetric, role: "forward "),
            backward: try bw.makeCell(
                &context, rows: geometry.batch, activation: activation, asymmetric: asymmetric, role: "backward "),
            input: input.index, auxInput: auxInput?.index, crossLinked: crossLinked,
            auxFeedsBackward: auxFeedsBackward, forwardState: fw.state.index, backwardState: bw.state.index,
            forwardOutput: fwOutput.index, backwardOutput: bwOutput?.index, geometry: geometry,
            auxSize: auxSize ?? 0, forwardUnits: fw.units, backwardUnits: bw.units,
            mergeOutputs: options.mergeOutputs, sweeps: sweeps)
    }
}

struct BidirectionalSequenceRNNKernel: PreparedKernel {
    let forward: any RecurrentCell, backward: any RecurrentCell
    let input: Int, auxInput: Int?
    /// The aux input is a second input of both cells (aux weights given).
    let crossLinked: Bool
    /// The aux input is the backward cell's input.
    let auxFeedsBackward: Bool
    let forwardState: Int, backwardState: Int
    let forwardOutput: Int, backwardOutput: Int?
    let geometry: SequenceGeometry
    let auxSize: Int, forwardUnits: Int, backwardUnits: Int
    let mergeOutputs: Bool
    /// How many times the two sweeps run (LiteRT's hybrid time-major kernel: `time`).
    let sweeps: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let a = auxInput.map { UnsafePointer(context.pointer($0, as: Float.self)) }
        let backwardInput = auxFeedsBackward ? (a ?? x) : x
        let crossAux = crossLinked ? a : nil
        let fwOut = context.pointer(forwardOutput, as: Float.self)
        let bwOut = backwardOutput.map { context.pointer($0, as: Float.self) } ?? (fwOut + forwardUnits)
        let width = mergeOutputs ? forwardUnits + backwardUnits : forwardUnits
        let backwardWidth = mergeOutputs ? width : backwardUnits
        let fwState = context.pointer(forwardState, as: Float.self)
        let bwState = context.pointer(backwardState, as: Float.self)
        let g = geometry
        @inline(__always) func run(
            _ cell: any RecurrentCell, _ t: Int, x: UnsafePointer<Float>, h: UnsafeMutablePointer<Float>,
            y: UnsafeMutablePointer<Float>, yWidth: Int
        ) {
            let inRows = g.rows(step: t, width: g.features)
            let auxRows = g.rows(step: t, width: auxSize)
            let outRows = g.rows(step: t, width: yWidth)
            cell.step(
                context,
                RecurrentStep(
                    rows: g.batch, x: x + inRows.offset, xStride: inRows.stride,
                    aux: crossAux.map { $0 + auxRows.offset }, auxStride: auxRows.stride, h: h,
                    y: y + outRows.offset, yStride: outRows.stride, zeroTestPerRow: !g.timeMajor))
        }
        for _ in 0 ..< sweeps {
            for t in 0 ..< g.time { run(forward, t, x: x, h: fwState, y: fwOut, yWidth: width) }
            for t in stride(from: g.time - 1, through: 0, by: -1) {
                run(backward, t, x: backwardInput, h: bwState, y: bwOut, yWidth: backwardWidth)
            }
        }
    }
}
