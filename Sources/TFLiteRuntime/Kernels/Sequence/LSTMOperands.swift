import TFLiteModel

/// Where one LSTM direction's tensors sit among an operator's inputs. The four-element
/// arrays are in gate order: input (i), forget (f), cell (c), output (o); peepholes
/// have no cell entry.
struct LSTMSlots {
    var inputWeights: [Int]
    var recurrentWeights: [Int]
    /// i, f, o.
    var peepholes: [Int]
    var biases: [Int]
    var projectionWeights: Int
    var projectionBias: Int
    var outputState: Int
    var cellState: Int
    /// Absent in BIDIRECTIONAL_SEQUENCE_LSTM.
    var layerNorm: [Int]?
    /// BIDIRECTIONAL_SEQUENCE_LSTM only: weights for the auxiliary input.
    var auxWeights: [Int]?

    /// LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM (20 or 24 inputs).
    static let full = LSTMSlots(
        inputWeights: [1, 2, 3, 4], recurrentWeights: [5, 6, 7, 8], peepholes: [9, 10, 11],
        biases: [12, 13, 14, 15], projectionWeights: 16, projectionBias: 17, outputState: 18, cellState: 19,
        layerNorm: [20, 21, 22, 23], auxWeights: nil)
    /// BIDIRECTIONAL_SEQUENCE_LSTM's forward direction (48 inputs).
    static let forward = LSTMSlots(
        inputWeights: [1, 2, 3, 4], recurrentWeights: [5, 6, 7, 8], peepholes: [9, 10, 11],
        biases: [12, 13, 14, 15], projectionWeights: 16, projectionBias: 17, outputState: 35, cellState: 36,
        layerNorm: nil, auxWeights: [40, 41, 42, 43])
    /// BIDIRECTIONAL_SEQUENCE_LSTM's backward direction.
    static let backward = LSTMSlots(
        inputWeights: [18, 19, 20, 21], recurrentWeights: [22, 23, 24, 25], peepholes: [26, 27, 28],
        biases: [29, 30, 31, 32], projectionWeights: 33, projectionBias: 34, outputState: 37, cellState: 38,
        layerNorm: nil, auxWeights: [44, 45, 46, 47])
}

/// One LSTM direction's operands, validated against each other (TFLite's rules):
/// `W_x·[nCell, nInput]`, `W_h·[nCell, nOutput]` (or a diagonal `[nCell]` when allowed),
/// peepholes and biases `[nCell]`, projection `[nOutput, nCell]` with an optional
/// `[nOutput]` bias, layer-norm coefficients `[nCell]`, states of `nBatch·nOutput` and
/// `nBatch·nCell` elements. The input gate's tensors (weights, peephole, bias, layer
/// norm) are all present or all absent (CIFG, where `i = 1 - f`); so are the peepholes
/// and the layer norm.
struct LSTMOperands {
    /// Indexed by gate (i, f, c, o); the input gate's entry is nil with CIFG.
    var inputWeights: [TensorState?]
    var recurrentWeights: [TensorState?]
    /// Indexed by gate; the cell gate's entry is always nil.
    var peepholes: [TensorState?]
    var biases: [TensorState?]
    var layerNorm: [TensorState?]
    var auxWeights: [TensorState?]
    var projectionWeights: TensorState?
    var projectionBias: TensorState?
    var outputState: TensorState
    var cellState: TensorState
    let nBatch: Int, nInput: Int, nCell: Int, nOutput: Int, nAux: Int
    /// Recurrent weights are diagonal `[nCell]` vectors.
    let diagonalRecurrent: Bool

    var cifg: Bool { inputWeights[0] == nil }
    var peephole: Bool { peepholes[1] != nil }
    var layerNormalized: Bool { layerNorm[1] != nil }
    var projection: Bool { projectionWeights != nil }
    var hasAux: Bool { auxWeights[1] != nil }
    /// The gates computed: i (unless CIFG), f, c, o.
    var gates: [Int] { cifg ? [1, 2, 3] : [0, 1, 2, 3] }

    /// Reads and checks the operands of one direction. `nInput` and `nBatch` come from
    /// the operator's input; `nAux` is the auxiliary input's width (0: none);
    /// `allowDiagonal` accepts rank-1 recurrent weights (UNIDIRECTIONAL_SEQUENCE_LSTM).
    static func make(
        _ context: PrepareContext, _ slots: LSTMSlots, nBatch: Int, nInput: Int, nAux: Int = 0,
        allowDiagonal: Bool = false
    ) throws(KernelError) -> LSTMOperands {
        func optional(_ slot: Int) -> TensorState? { context.optionalInput(slot) }
        func required(_ slot: Int, _ role: String) throws(KernelError) -> TensorState {
            guard let t = context.optionalInput(slot) else { throw .invalid("the \(role) (input \(slot)) is missing") }
            return t
        }
        let names = ["input", "forget", "cell", "output"]
        var inputWeights: [TensorState?] = [optional(slots.inputWeights[0])]
        var recurrentWeights: [TensorState?] = [optional(slots.recurrentWeights[0])]
        var biases: [TensorState?] = [optional(slots.biases[0])]
        for g in 1 ..< 4 {
            inputWeights.append(try required(slots.inputWeights[g], "input-to-\(names[g]) weights"))
            recurrentWeights.append(try required(slots.recurrentWeights[g], "recurrent-to-\(names[g]) weights"))
            biases.append(try required(slots.biases[g], "\(names[g]) gate bias"))
        }
        let peepholes: [TensorState?] = [
            optional(slots.peepholes[0]), optional(slots.peepholes[1]), nil, optional(slots.peepholes[2]),
        ]
        var layerNorm: [TensorState?] = [nil, nil, nil, nil]
        if let ln = slots.layerNorm, context.inputCount > ln[3] {
            layerNorm = ln.map { optional($0) }
        }
        var auxWeights: [TensorState?] = [nil, nil, nil, nil]
        if let aux = slots.auxWeights { auxWeights = aux.map { optional($0) } }

        guard let outputWeights = inputWeights[3], let recurrentOutput = recurrentWeights[3] else {
            throw .invalid("the output gate's weights are missing")
        }
        guard outputWeights.rank == 2, outputWeights.shape[1] == nInput, outputWeights.shape[0] > 0 else {
            throw .invalid(
                "input-to-output weights have shape \(outputWeights.shape); [cells, \(nInput)] expected")
        }
        let nCell = outputWeights.shape[0]
        let diagonal = allowDiagonal && recurrentOutput.rank == 1
        let nOutput = diagonal ? nCell : (recurrentOutput.rank == 2 ? recurrentOutput.shape[1] : 0)
        guard nOutput > 0 else {
            throw .invalid(
                "recurrent-to-output weights have shape \(recurrentOutput.shape); [\(nCell), outputs] expected")
        }
        let cifg = inputWeights[0] == nil
        guard (inputWeights[0] == nil) == (recurrentWeights[0] == nil) else {
            throw .invalid("the input gate's input and recurrent weights must both be present or both absent (CIFG)")
        }
        guard (biases[0] == nil) == cifg else {
            throw .invalid(
                cifg
                    ? "a CIFG LSTM (no input gate weights) must not have an input gate bias"
                    : "the input gate bias is missing")
        }
        for g in 0 ..< 4 {
            if let w = inputWeights[g] {
                try expectShape(w, [nCell, nInput], "input-to-\(names[g]) weights")
            }
            if let w = recurrentWeights[g] {
                try expectShape(w, diagonal ? [nCell] : [nCell, nOutput], "recurrent-to-\(names[g]) weights")
            }
            if let b = biases[g] { try expectShape(b, [nCell], "\(names[g]) gate bias") }
            if nAux > 0, let w = auxWeights[g] {
                try expectShape(w, [nCell, nAux], "aux-input-to-\(names[g]) weights")
            }
        }
        let peepholeCount = peepholes.compactMap { $0 }.count
        let peephole = peepholes[1] != nil
        if peephole {
            guard peepholes[3] != nil, cifg == (peepholes[0] == nil) else {
                throw .invalid("the peephole (cell-to-gate) weights must be all present or all absent")
            }
        } else if peepholeCount > 0 {
            throw .invalid("the peephole (cell-to-gate) weights must be all present or all absent")
        }
        for g in [0, 1, 3] { if let p = peepholes[g] { try expectShape(p, [nCell], "cell-to-\(names[g]) weights") } }
        if layerNorm[1] != nil {
            guard layerNorm[2] != nil, layerNorm[3] != nil, (layerNorm[0] == nil) == cifg else {
                throw .invalid(
                    "the layer norm coefficients must be present for every computed gate (the input gate's only without CIFG)"
                )
            }
            for g in 0 ..< 4 {
                if let c = layerNorm[g] { try expectShape(c, [nCell], "\(names[g]) layer norm coefficients") }
            }
        } else if layerNorm.contains(where: { $0 != nil }) {
            throw .invalid("the forget gate's layer norm coefficients are missing")
        }
        let projectionWeights = optional(slots.projectionWeights)
        let projectionBias = optional(slots.projectionBias)
        if let p = projectionWeights { try expectShape(p, [nOutput, nCell], "projection weights") }
        if let b = projectionBias {
            guard projectionWeights != nil else { throw .invalid("a projection bias needs projection weights") }
            try expectShape(b, [nOutput], "projection bias")
        }
        if projectionWeights == nil, nOutput != nCell {
            throw .invalid(
                "without projection weights the output size (\(nOutput)) must equal the cell count (\(nCell))")
        }
        let auxCount = auxWeights.compactMap { $0 }.count
        if nAux > 0 {
            guard auxWeights[1] != nil, auxWeights[2] != nil, auxWeights[3] != nil, (auxWeights[0] == nil) == cifg
            else { throw .invalid("the aux input's weights must be present for every computed gate") }
        } else if auxCount > 0 {
            throw .invalid("aux input weights are given without an aux input")
        }

        let outputState = try required(slots.outputState, "output state")
        let cellState = try required(slots.cellState, "cell state")
        guard outputState.isVariable, cellState.isVariable else {
            throw .invalid(
                "the output and cell states (inputs \(slots.outputState), \(slots.cellState)) must be variable tensors")
        }
        let outputCount = try ConvCheck.product([nBatch, nOutput], "LSTM state")
        let cellCount = try ConvCheck.product([nBatch, nCell], "LSTM state")
        guard outputState.elementCount == outputCount else {
            throw .invalid("the output state has shape \(outputState.shape); \(nBatch) x \(nOutput) elements expected")
        }
        guard cellState.elementCount == cellCount else {
            throw .invalid("the cell state has shape \(cellState.shape); \(nBatch) x \(nCell) elements expected")
        }
        for w in inputWeights + recurrentWeights + auxWeights + [projectionWeights] {
            if let w, !w.isConstant { throw .invalid("LSTM weights must be constant (tensor \(w.index) is computed)") }
        }
        return LSTMOperands(
            inputWeights: inputWeights, recurrentWeights: recurrentWeights, peepholes: peepholes, biases: biases,
            layerNorm: layerNorm, auxWeights: auxWeights, projectionWeights: projectionWeights,
            projectionBias: projectionBias, outputState: outputState, cellState: cellState, nBatch: nBatch,
            nInput: nInput, nCell: nCell, nOutput: nOutput, nAux: nAux, diagonalRecurrent: diagonal)
    }

    static func expectShape(_ t: TensorState, _ shape: [Int], _ role: String) throws(KernelError) {
        guard t.shape == shape else { throw .invalid("\(role): shape \(t.shape), expected \(shape)") }
    }

    /// Every present tensor of this direction, for type checks.
    var weightTensors: [TensorState] {
        (inputWeights + recurrentWeights + auxWeights + [projectionWeights]).compactMap { $0 }
    }
}
