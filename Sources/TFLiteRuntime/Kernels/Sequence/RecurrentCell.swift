import TFLiteModel

/// One step of a fully connected RNN cell over `rows` batch rows (spec/recurrent-ops.md):
///
///     y[b] = act(bias + W·x[b] + W_aux·a[b] + R·h[b]),   then h[b] = y[b]
///
/// `x`, `a` (the auxiliary input, BIDIRECTIONAL_SEQUENCE_RNN only) and `y` rows lie
/// their strides apart in their tensors; the hidden state `h` is `[rows, units]`,
/// contiguous, and read in full before any of it is overwritten.
struct RecurrentStep {
    var rows: Int
    var x: UnsafePointer<Float>
    var xStride: Int
    var aux: UnsafePointer<Float>?
    var auxStride: Int
    var h: UnsafeMutablePointer<Float>
    var y: UnsafeMutablePointer<Float>
    var yStride: Int
    /// LiteRT's hybrid kernels skip the product of an input that is all zeros; over which
    /// rows it looks: each row alone (a batch-major sequence, one row per call) or all of
    /// them together (RNN and time-major sequences). Only the hybrid cell reads it.
    var zeroTestPerRow: Bool
}

/// A prepared RNN cell: float (``RecurrentCellF32``) or hybrid (``RecurrentCellHybrid``).
/// The sequence kernels call it once per time step; the loops are inside `step`.
protocol RecurrentCell: Sendable {
    func step(_ context: EvalContext, _ s: RecurrentStep)
}

/// The validated tensors of one RNN cell: input weights `[units, inputSize]`, recurrent
/// weights `[units, units]`, bias `[units]`, the hidden state (a variable tensor,
/// `[batch, units]`), and optionally auxiliary input weights `[units, auxSize]`.
struct RecurrentCellOperands {
    let weights: TensorState
    let recurrent: TensorState
    let bias: TensorState
    let state: TensorState
    let auxWeights: TensorState?
    var units: Int { weights.shape[0] }

    /// `role` prefixes the tensors' names in errors ("forward ", "backward " or "").
    init(
        _ context: PrepareContext, weights w: Int, recurrent r: Int, bias b: Int, state s: Int, auxWeights aw: Int?,
        batch: Int, inputSize: Int, auxSize: Int?, role: String
    ) throws(KernelError) {
        weights = try context.input(w)
        recurrent = try context.input(r)
        bias = try context.input(b)
        state = try context.input(s)
        auxWeights = try aw.map { i throws(KernelError) in try context.input(i) }
        guard weights.rank == 2 else {
            throw .invalid("\(role)input weights must have rank 2, found shape \(weights.shape)")
        }
        let units = weights.shape[0]
        guard weights.shape[1] == inputSize else {
            throw .invalid("\(role)input weights \(weights.shape) do not match the input size \(inputSize)")
        }
        guard recurrent.shape == [units, units] else {
            throw .invalid("\(role)recurrent weights must be [\(units), \(units)], found \(recurrent.shape)")
        }
        guard bias.shape == [units] else { throw .invalid("\(role)bias must be [\(units)], found \(bias.shape)") }
        guard state.isVariable else {
            throw .invalid("\(role)hidden state (tensor \(state.index)) must be a variable tensor")
        }
        guard state.shape == [batch, units] else {
            throw .invalid("\(role)hidden state must be [\(batch), \(units)], found \(state.shape)")
        }
        if let aux = auxWeights, let auxSize {
            guard aux.shape == [units, auxSize] else {
                throw .invalid("\(role)aux input weights must be [\(units), \(auxSize)], found \(aux.shape)")
            }
        }
        let weightTypes = [weights.type, recurrent.type] + (auxWeights.map { [$0.type] } ?? [])
        guard weightTypes.allSatisfy({ $0 == weights.type }), weights.type == .float32 || weights.type == .int8,
            bias.type == .float32, state.type == .float32
        else { throw context.unsupportedTypes() }
        try RecurrentCheck.dense([weights, recurrent, bias, auxWeights])
    }

    var isHybrid: Bool { weights.type == .int8 }

    /// The cell for `rows` batch rows per step, float or hybrid.
    func makeCell(
        _ context: inout PrepareContext, rows: Int, activation: RecurrentActivation, asymmetric: Bool, role: String
    ) throws(KernelError) -> any RecurrentCell {
        if isHybrid {
            return try RecurrentCellHybrid(
                &context, self, rows: rows, activation: activation, asymmetric: asymmetric, role: role)
        }
        return try RecurrentCellF32(context, self, rows: rows, activation: activation, role: role)
    }
}

enum RecurrentCheck {
    /// The hidden states are written in place while the other operands are read, so none
    /// may be another operand or an output of the operator.
    static func stateIsOwnTensor(_ context: PrepareContext, states: [Int]) throws(KernelError) {
        for s in states {
            let users = context.op.inputs.filter { $0 == s }.count + context.op.outputs.filter { $0 == s }.count
            guard users == 1 else {
                throw .invalid("the hidden state (tensor \(s)) is also another operand or an output of the operator")
            }
        }
    }

    /// Every constant among `tensors` holds its whole shape (a sparse constant holds only
    /// its stored values, and only DENSIFY reads those).
    static func dense(_ tensors: [TensorState?]) throws(KernelError) {
        for case let t? in tensors {
            guard let constant = t.constant, let bytes = t.byteCount else { continue }
            guard constant.bytes.count >= bytes else {
                throw .invalid("tensor \(t.index) ('\(t.name)') is a sparse or short constant; densify it first")
            }
        }
    }

    /// `a + b + ...` with overflow checks (sizes from the file).
    static func sum(_ values: [Int], _ what: String) throws(KernelError) -> Int {
        var total = 0
        for v in values {
            let (t, overflow) = total.addingReportingOverflow(v)
            guard v >= 0, !overflow else { throw .invalid("\(what): size \(values) overflows") }
            total = t
        }
        return total
    }

    /// Float input and outputs.
    static func floats(_ context: PrepareContext, _ tensors: [TensorState]) throws(KernelError) {
        guard tensors.allSatisfy({ $0.type == .float32 }) else { throw context.unsupportedTypes() }
    }
}
