/// The float part of one LSTM step for one batch row, shared by the float and hybrid
/// kernels. `gates` holds the row's pre-activations `W_x·x + W_h·h` (plus the bias unless
/// the gates are layer-normalized), one segment of `nCell` per computed gate in the
/// order i, f, c, o (no i with CIFG). Then, as TFLite orders it:
///
///     i = σ(LN(a_i + p_i ⊙ c))        (CIFG: i = 1 - f)
///     f = σ(LN(a_f + p_f ⊙ c))
///     g = act(LN(a_c))
///     c' = clip(f ⊙ c + g ⊙ i)
///     o = σ(LN(a_o + p_o ⊙ c'))       (the output gate's peephole reads the new cell)
///     hidden = o ⊙ act(c')
///
/// where `LN(v) = normalize(v)·coef + bias` with layer norm and the identity otherwise.
struct LSTMFloatGates: Sendable {
    let nCell: Int
    let cifg: Bool
    let activation: LSTMFloatMath.Activation
    let cellClip: Float

    /// Per-step constant pointers, indexed by gate (i, f, c, o).
    struct Constants {
        var peepholes: [UnsafePointer<Float>?] = [nil, nil, nil, nil]
        /// Layer norm coefficients and the gate biases they add (nil: no layer norm).
        var layerNorm: [UnsafePointer<Float>?] = [nil, nil, nil, nil]
        var biases: [UnsafePointer<Float>?] = [nil, nil, nil, nil]
    }

    /// Segment of gate `g` in a gate row.
    @inline(__always)
    func segment(_ g: Int) -> Int { (cifg ? g - 1 : g) * nCell }

    func step(
        gates: UnsafeMutablePointer<Float>, cell: UnsafeMutablePointer<Float>, constants k: Constants,
        hidden: UnsafeMutablePointer<Float>
    ) {
        let n = nCell
        let forget = gates + segment(1), cellGate = gates + segment(2), output = gates + segment(3)
        let input: UnsafeMutablePointer<Float>? = cifg ? nil : gates
        func prepare(_ g: Int, _ a: UnsafeMutablePointer<Float>) {
            if let p = k.peepholes[g] { for j in 0 ..< n { a[j] += p[j] * cell[j] } }
            if let coef = k.layerNorm[g], let bias = k.biases[g] {
                LSTMFloatMath.layerNorm(a, count: n, coefficients: coef, bias: bias)
            }
        }
        if let input {
            prepare(0, input)
            LSTMFloatMath.sigmoid(input, count: n)
        }
        prepare(1, forget)
        LSTMFloatMath.sigmoid(forget, count: n)
        prepare(2, cellGate)
        LSTMFloatMath.apply(activation, cellGate, into: cellGate, count: n)
        if let input {
            for j in 0 ..< n { cell[j] = forget[j] * cell[j] + cellGate[j] * input[j] }
        } else {
            for j in 0 ..< n { cell[j] = forget[j] * cell[j] + cellGate[j] * (1 - forget[j]) }
        }
        LSTMFloatMath.clip(cell, count: n, cellClip)
        prepare(3, output)
        LSTMFloatMath.sigmoid(output, count: n)
        LSTMFloatMath.apply(activation, cell, into: hidden, count: n)
        for j in 0 ..< n { hidden[j] *= output[j] }
    }
}
