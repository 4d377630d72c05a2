import TFLiteModel

/// The BASIC-kernel LSTM (``LSTMBasic``) in float32: the concatenation `[x, h]`, one GEMM
/// with the weights for the pre-activations `a`, then per unit
///
///     c' = σ(a_0)·tanh(a_1) + σ(a_2)·c        h' = σ(a_3)·tanh(c')
///
/// with ``LSTMFloatMath``'s σ and tanh.
struct LSTMBasicF32: PreparedKernel {
    let input: Int, previousActivation: Int, weights: Int, bias: Int, previousState: Int
    let activation: Int, state: Int, concat: Int, preactivation: Int
    let nBatch: Int, nInput: Int, depth: Int

    static func prepare(_ context: inout PrepareContext, _ o: LSTMBasicOperands) throws(KernelError)
        -> any PreparedKernel
    {
        let all =
            [o.x, o.h, o.weights, o.bias, o.c] + [
                try context.output(0), try context.output(1), try context.output(2), try context.output(3),
            ]
        guard all.allSatisfy({ $0.type == .float32 }) else { throw context.unsupportedTypes() }
        try ConvCheck.blasSizes([o.nBatch, o.gates, o.total], "LSTM")
        return LSTMBasicF32(
            input: o.x.index, previousActivation: o.h.index, weights: o.weights.index, bias: o.bias.index,
            previousState: o.c.index, activation: o.activation, state: o.state, concat: o.concat,
            preactivation: o.preactivation, nBatch: o.nBatch, nInput: o.nInput, depth: o.depth)
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
