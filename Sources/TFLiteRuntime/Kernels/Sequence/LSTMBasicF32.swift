import TFLiteModel

/// The BASIC-kernel LSTM (TensorFlow's BasicLSTMCell), float32. Inputs: `x [B, nIn]`,
/// the previous activation `h [B, D]`, weights `W [4D, nIn + D]`, bias `[4D]`, the
/// previous state `c [B, D]`. Outputs: the new activation, the new state, and the two
/// intermediates TFLite also writes, `concat = [x, h]` and `a = concat·Wᵀ + bias`. The
/// gates are in the order input, new input, forget, output:
///
///     c' = σ(a_0)·tanh(a_1) + σ(a_2)·c        h' = σ(a_3)·tanh(c')
///
/// and `h'`, `c'` are also copied back into the previous-activation and previous-state
/// inputs, so the next invoke continues from them.
struct LSTMBasicF32: PreparedKernel {
    let input: Int, previousActivation: Int, weights: Int, bias: Int, previousState: Int
    let activation: Int, state: Int, concat: Int, preactivation: Int
    let nBatch: Int, nInput: Int, depth: Int

    static func prepare(_ context: inout PrepareContext, options: LSTMOptions) throws(KernelError)
        -> any PreparedKernel
    {
        try context.expectCounts(inputs: 5, outputs: 4)
        let x = try context.input(0), h = try context.input(1), w = try context.input(2)
        let b = try context.input(3), c = try context.input(4)
        guard x.rank == 2, h.rank == 2, c.rank == 2, x.shape[0] == h.shape[0], c.shape == h.shape else {
            throw .invalid(
                "input \(x.shape), previous activation \(h.shape) and previous state \(c.shape) must be [batch, ·] with matching batch and [batch, depth] states"
            )
        }
        let nBatch = x.shape[0], nInput = x.shape[1], depth = h.shape[1]
        let (total, o1) = nInput.addingReportingOverflow(depth)
        let (gates, o2) = depth.multipliedReportingOverflow(by: 4)
        guard !o1, !o2, depth > 0 else { throw .invalid("sizes overflow") }
        guard w.shape == [gates, total], b.shape == [gates] else {
            throw .invalid("weights \(w.shape) and bias \(b.shape) must be [\(gates), \(total)] and [\(gates)]")
        }
        guard !h.isConstant, !c.isConstant else {
            throw .invalid("the previous activation and state are written back and cannot be constants")
        }
        if x.type == .uint8 {
            throw .types("the 8-bit BASIC LSTM kernel (uint8 activations, int16 state) is not supported")
        }
        let all =
            [x, h, w, b, c] + [
                try context.output(0), try context.output(1), try context.output(2), try context.output(3),
            ]
        guard all.allSatisfy({ $0.type == .float32 }) else { throw context.unsupportedTypes() }
        try context.setOutputShape(0, [nBatch, depth])
        try context.setOutputShape(1, [nBatch, depth])
        try context.setOutputShape(2, [nBatch, total])
        try context.setOutputShape(3, [nBatch, gates])
        try ConvCheck.blasSizes([nBatch, gates, total], "LSTM")
        context.declareWork([nBatch, gates, total])
        return LSTMBasicF32(
            input: x.index, previousActivation: h.index, weights: w.index, bias: b.index, previousState: c.index,
            activation: try context.outputIndex(0), state: try context.outputIndex(1),
            concat: try context.outputIndex(2), preactivation: try context.outputIndex(3), nBatch: nBatch,
            nInput: nInput, depth: depth)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let total = nInput + depth, gates = 4 * depth
        let x = context.pointer(input, as: Float.self), h = context.pointer(previousActivation, as: Float.self)
        let c = context.pointer(previousState, as: Float.self)
        let concat = context.pointer(self.concat, as: Float.self)
        let a = context.pointer(preactivation, as: Float.self)
        let newH = context.pointer(activation, as: Float.self), newC = context.pointer(state, as: Float.self)
        let b = context.pointer(bias, as: Float.self)
        for r in 0 ..< nBatch {
            (concat + r * total).update(from: x + r * nInput, count: nInput)
            (concat + r * total + nInput).update(from: h + r * depth, count: depth)
        }
        TiledGEMM.run(
            context.parallel, m: nBatch, n: gates, k: total, a: concat, lda: total,
            b: context.pointer(weights, as: Float.self), ldb: total, transposeB: true, c: a, ldc: gates)
        for r in 0 ..< nBatch {
            let row = a + r * gates
            for j in 0 ..< gates { row[j] += b[j] }
            let i = row, g = row + depth, f = row + 2 * depth, o = row + 3 * depth
            let cr = c + r * depth, nc = newC + r * depth, nh = newH + r * depth
            for j in 0 ..< depth {
                let state = LSTMFloatMath.sigmoid(i[j]) * LSTMFloatMath.tanh(g[j]) + LSTMFloatMath.sigmoid(f[j]) * cr[j]
                nc[j] = state
                nh[j] = LSTMFloatMath.sigmoid(o[j]) * LSTMFloatMath.tanh(state)
            }
        }
        h.update(from: newH, count: nBatch * depth)
        c.update(from: newC, count: nBatch * depth)
    }
}
