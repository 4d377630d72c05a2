import TFLiteModel

/// The BASIC-kernel LSTM (TensorFlow's BasicLSTMCell; LSTMOptions `kernel_type` = BASIC).
/// Inputs: `x [B, nIn]`, the previous activation `h [B, D]`, weights `W [4D, nIn + D]`,
/// bias `[4D]`, the previous state `c [B, D]`. Outputs: the new activation `[B, D]`, the new
/// state `[B, D]`, the concatenation `[x, h]` (`[B, nIn + D]`) and the gate pre-activations
/// `a = [x, h]·Wᵀ + bias` (`[B, 4D]`), gates in the order input, new input, forget, output:
///
///     c' = σ(a_0)·tanh(a_1) + σ(a_2)·c        h' = σ(a_3)·tanh(c')
///
/// `h'` and `c'` are also copied back into the previous-activation and previous-state
/// inputs, so the next invoke continues from them. Float32 is ``LSTMBasicF32``; uint8
/// activations with an int16 state is ``LSTMBasicU8``.
enum LSTMBasic {
    static func prepare(_ context: inout PrepareContext) throws(KernelError) -> any PreparedKernel {
        let operands = try LSTMBasicOperands(&context)
        if operands.x.type == .uint8 { return try LSTMBasicU8.prepare(&context, operands) }
        return try LSTMBasicF32.prepare(&context, operands)
    }
}

/// The BASIC kernel's operands, validated for shape whatever their types, with the
/// output shapes set.
struct LSTMBasicOperands {
    let x: TensorState, h: TensorState, weights: TensorState, bias: TensorState, c: TensorState
    /// Output tensor indices: new activation, new state, concatenation, pre-activations.
    let activation: Int, state: Int, concat: Int, preactivation: Int
    let nBatch: Int, nInput: Int, depth: Int
    /// `nIn + D`, the concatenation's width.
    let total: Int
    /// `4·D`, the number of gate pre-activations per row.
    let gates: Int

    init(_ context: inout PrepareContext) throws(KernelError) {
        try context.expectCounts(inputs: 5, outputs: 4)
        x = try context.input(0)
        h = try context.input(1)
        weights = try context.input(2)
        bias = try context.input(3)
        c = try context.input(4)
        guard x.rank == 2 else { throw .invalid("the input must be [batch, features], found shape \(x.shape)") }
        nBatch = x.shape[0]
        nInput = x.shape[1]
        guard h.rank == 2, h.shape[0] == nBatch, h.shape[1] > 0 else {
            throw .invalid("the previous activation must be [\(nBatch), depth] with depth > 0, found shape \(h.shape)")
        }
        depth = h.shape[1]
        guard c.shape == h.shape else {
            throw .invalid("the previous state must have the previous activation's shape \(h.shape), found \(c.shape)")
        }
        let (total, o1) = nInput.addingReportingOverflow(depth)
        let (gates, o2) = depth.multipliedReportingOverflow(by: 4)
        guard !o1, !o2, Shape.elementCount([nBatch, Swift.max(total, gates)]) != nil else {
            throw .invalid("sizes overflow: batch \(nBatch), features \(nInput), depth \(depth)")
        }
        self.total = total
        self.gates = gates
        guard weights.shape == [gates, total] else {
            throw .invalid(
                "the weights must be [4·depth, features + depth] = [\(gates), \(total)], found shape \(weights.shape)")
        }
        guard bias.shape == [gates] else {
            throw .invalid("the bias must be [4·depth] = [\(gates)], found shape \(bias.shape)")
        }
        guard !h.isConstant, !c.isConstant else {
            throw .invalid("the previous activation and state are written back and cannot be constants")
        }
        activation = try context.outputIndex(0)
        state = try context.outputIndex(1)
        concat = try context.outputIndex(2)
        preactivation = try context.outputIndex(3)
        let outputs = [activation, state, concat, preactivation]
        let inputs = [x.index, h.index, weights.index, bias.index, c.index]
        // The kernel reads every input after writing some outputs (the concatenation
        // first), and copies two outputs into two inputs at the end.
        guard Set(outputs).count == 4, Set(outputs).isDisjoint(with: inputs) else {
            throw .invalid("the four outputs must be distinct tensors, none of them an input")
        }
        try context.setOutputShape(0, [nBatch, depth])
        try context.setOutputShape(1, [nBatch, depth])
        try context.setOutputShape(2, [nBatch, total])
        try context.setOutputShape(3, [nBatch, gates])
        context.declareWork([nBatch, gates, total])
    }
}
