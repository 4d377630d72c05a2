import TFLiteModel

/// The BASIC-kernel LSTM (``LSTMBasic``) in its 8-bit form, TOCO's quantized LSTM cell:
/// uint8 input, activations and weights, int32 bias, int16 state in Q4.11 (scale 2^-11),
/// int16 gate pre-activations in Q3.12. LiteRT runs it with its optimized cell whichever
/// resolver is chosen; this is that arithmetic, bit for bit (spec/sequence-ops.md,
/// "Quantized BASIC kernel"). Per batch row:
///
/// 1. `acc[o] = bias[o] + Σ_k (W[o, k] - z_W)·([x, h][k] - 128)` in wrapping `Int32`;
/// 2. `a[o] = sat16(rescale(acc[o]))` with the multiplier `4096·s_bias` (``GateRescale``);
/// 3. per unit, in 16-bit fixed point (``LSTMInt16Math``, gemmlowp's arithmetic):
///    `i, f, o = σ(a)`, `g = tanh(a)` (Q3.12 in, Q0.15 out),
///    `c' = sat16(RDBPOT(i·g, 4) + f·c)` (Q4.11), `m = o·tanh(sat16(2·c'))` (the state
///    read with three integer bits), `h' = 128 + clamp(RDBPOT(m, 8), -128, 127)`.
///
/// The kernel hard-codes the activations' quantization (scale 1/128, zero point 128) and
/// the state's, so tensors declaring anything else are refused rather than misread.
struct LSTMBasicU8: PreparedKernel {
    let input: Int, previousActivation: Int, weights: Int, bias: Int, previousState: Int
    let activation: Int, state: Int, concat: Int, preactivation: Int
    let nBatch: Int, nInput: Int, depth: Int
    let weightZeroPoint: Int32
    let rescale: GateRescale
    let product: U8WeightsProduct
    /// Scratch: the centered `[x, h]` row as `Int16`, then `4·depth` `Int32` sums at `sumsOffset`.
    let scratch: Int, sumsOffset: Int
    /// σ and tanh of every Q3.12 code (``LSTMInt16Tables``, shared by the process).
    let logistic: [Int16], tanh: [Int16]

    static func prepare(_ context: inout PrepareContext, _ o: LSTMBasicOperands) throws(KernelError)
        -> any PreparedKernel
    {
        let outputs = [try context.output(0), try context.output(1), try context.output(2), try context.output(3)]
        let found = ([o.x, o.h, o.weights, o.bias, o.c] + outputs).map(\.type.name).joined(separator: ", ")
        let expected: [ElementType] = [.uint8, .uint8, .uint8, .int32, .int16, .uint8, .int16, .uint8, .int16]
        guard ([o.x, o.h, o.weights, o.bias, o.c] + outputs).map(\.type) == expected else {
            throw .types(
                "the 8-bit BASIC LSTM kernel takes uint8 input, previous activation and weights, int32 bias and int16 previous state, and gives uint8 activation, int16 state, uint8 concatenation and int16 gate outputs; found \(found)"
            )
        }
        for (t, role) in [(o.x, "input"), (o.h, "previous activation"), (outputs[0], "activation output")] {
            try requireQuantization(t, role, log2Scale: -7, zeroPoint: 128)
        }
        // Four integer bits: TFLite's only supported state format (StateIntegerBits = 4).
        for (t, role) in [(o.c, "previous state"), (outputs[1], "state output")] {
            try requireQuantization(t, role, log2Scale: -11, zeroPoint: 0)
        }
        let (_, weightZeroPoint) = try QuantizedConvParams.perTensor(o.weights, "weights", qmin: 0, qmax: 255)
        guard let q = o.bias.quantization, q.scales.count == 1, q.scales[0].isFinite, q.scales[0] > 0 else {
            throw .invalid("the bias needs one positive scale (its pre-activations are rescaled by 4096·scale)")
        }
        let rescale = try GateRescale(biasScale: q.scales[0])
        let level = context.kernelLevel
        let rowBytes = try ConvCheck.cacheLines([try ConvCheck.product([o.total, 2], "LSTM")], "LSTM")
        let sumsBytes = try ConvCheck.product([o.gates, 4], "LSTM")
        let scratch = context.requestScratch(bytes: try ConvCheck.cacheLines([rowBytes, sumsBytes], "LSTM"))
        return LSTMBasicU8(
            input: o.x.index, previousActivation: o.h.index, weights: o.weights.index, bias: o.bias.index,
            previousState: o.c.index, activation: o.activation, state: o.state, concat: o.concat,
            preactivation: o.preactivation, nBatch: o.nBatch, nInput: o.nInput, depth: o.depth,
            weightZeroPoint: weightZeroPoint, rescale: rescale, product: U8WeightsProduct(level), scratch: scratch,
            sumsOffset: rowBytes, logistic: LSTMInt16Tables.logisticQ3, tanh: LSTMInt16Tables.tanhQ3)
    }

    /// TFLite's kernel reads these tensors as if quantized with scale `2^log2Scale` and
    /// zero point `zeroPoint` (its converter always wrote them so); the scale may be off by
    /// the 0.1% (in the exponent) that TFLite's power-of-two test allows.
    static func requireQuantization(_ t: TensorState, _ role: String, log2Scale: Int, zeroPoint: Int64)
        throws(KernelError)
    {
        guard let q = t.quantization, q.scales.count == 1, q.zeroPoints == [zeroPoint],
            Double(q.scales[0]).log2Rounded == log2Scale
        else {
            let found = t.quantization.map { "scales \($0.scales), zero points \($0.zeroPoints)" } ?? "none"
            throw .invalid(
                "the \(role) must be quantized with scale 2^\(log2Scale) and zero point \(zeroPoint), which the 8-bit BASIC LSTM kernel assumes; found \(found)"
            )
        }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        logistic.withUnsafeBufferPointer { sigma in
            tanh.withUnsafeBufferPointer { tanh in run(context, sigma: sigma, tanh: tanh) }
        }
        let h = context.pointer(previousActivation, as: UInt8.self), c = context.pointer(previousState, as: Int16.self)
        h.update(from: context.pointer(activation, as: UInt8.self), count: nBatch * depth)
        c.update(from: context.pointer(state, as: Int16.self), count: nBatch * depth)
    }

    /// Every row's step, into the four outputs.
    private func run(_ context: EvalContext, sigma: UnsafeBufferPointer<Int16>, tanh: UnsafeBufferPointer<Int16>) {
        guard let sigma = sigma.baseAddress, let tanh = tanh.baseAddress else { return }
        let total = nInput + depth, gates = 4 * depth
        let x = context.pointer(input, as: UInt8.self), h = context.pointer(previousActivation, as: UInt8.self)
        let c = context.pointer(previousState, as: Int16.self)
        let w = context.pointer(weights, as: UInt8.self), b = context.pointer(bias, as: Int32.self)
        let concat = context.pointer(self.concat, as: UInt8.self)
        let a = context.pointer(preactivation, as: Int16.self)
        let newH = context.pointer(activation, as: UInt8.self), newC = context.pointer(state, as: Int16.self)
        let row = context.scratch(scratch, as: Int16.self)
        let sums = (UnsafeMutableRawPointer(row) + sumsOffset).assumingMemoryBound(to: Int32.self)
        for r in 0 ..< nBatch {
            let joined = concat + r * total
            joined.update(from: x + r * nInput, count: nInput)
            (joined + nInput).update(from: h + r * depth, count: depth)
            var rowSum: Int32 = 0
            for k in 0 ..< total {
                row[k] = Int16(joined[k]) &- 128
                rowSum = rowSum &+ Int32(row[k])
            }
            product.run(n: gates, k: total, w: w, x: row, acc: sums)
            // Σ (w - z_W)·xc = Σ w·xc - z_W·Σ xc, all modulo 2^32 as TFLite's sum.
            let offset = weightZeroPoint &* rowSum
            let ar = a + r * gates
            for o in 0 ..< gates {
                ar[o] = Int16(LSTMInt16Math.saturate(rescale.apply(b[o] &+ sums[o] &- offset)))
            }
            let cr = c + r * depth, nc = newC + r * depth, nh = newH + r * depth
            for j in 0 ..< depth {
                let i = Int32(sigma[Int(UInt16(bitPattern: ar[j]))])
                let g = Int32(tanh[Int(UInt16(bitPattern: ar[depth + j]))])
                let f = Int32(sigma[Int(UInt16(bitPattern: ar[2 * depth + j]))])
                let o = Int32(sigma[Int(UInt16(bitPattern: ar[3 * depth + j]))])
                (nc[j], nh[j]) = Self.unit(i: i, g: g, f: f, o: o, c: Int32(cr[j]), tanh: tanh)
            }
        }
    }

    /// One unit's new state (Q4.11) and activation code from its gate values (Q0.15) and
    /// old state (Q4.11), in gemmlowp's 16-bit arithmetic.
    @inline(__always)
    static func unit(i: Int32, g: Int32, f: Int32, o: Int32, c: Int32, tanh: UnsafePointer<Int16>) -> (Int16, UInt8) {
        typealias M = LSTMInt16Math
        // i·g in Q0.15 brought to Q4.11 (a rounding shift by 4, ties away from zero); f·c
        // (Q0 times Q4) is already Q4.11. Their sum saturates.
        let state = M.saturate(M.divideByPOT(M.mul(i, g), 4) &+ M.mul(f, c))
        // TFLite feeds the state to the Q3.12 tanh: doubled, saturating beyond ±8.
        let t = Int32(tanh[Int(UInt16(truncatingIfNeeded: M.multiplyByPOT(state, 1)))])
        let scaled = M.divideByPOT(M.mul(o, t), 8)
        return (Int16(state), UInt8(128 + Swift.min(Swift.max(scaled, -128), 127)))
    }
}

/// The rescaling of the BASIC kernel's gate sums to Q3.12: the real multiplier
/// `4096·s_bias` as a Q31 mantissa `M` and exponent `e` (TFLite's `QuantizeMultiplier`),
/// applied the way LiteRT's GEMM library (ruy) applies it, which is not TFLite's reference
/// `MultiplyByQuantizedMultiplier`: with `l = max(e, 0)`, `r = max(-e, 0)`,
///
///     y = floor((SRDHM(acc·2^l, M) + 2^(r-1)) / 2^r)        (y = SRDHM(acc·2^l, M) when r = 0)
///
/// the left shift wrapping in `Int32`, `SRDHM` gemmlowp's rounding high multiply, and the
/// final shift rounding ties toward +∞ (TFLite's `RoundingDivideByPOT` rounds them away
/// from zero: -2.5 gives -2 here, -3 there). The sum is formed in `Int64`, so a result
/// near `Int32.max` does not wrap (ruy returns `2^(31-r)` for it too).
struct GateRescale: Sendable {
    let mantissa: Int64, left: Int32, right: Int32

    init(biasScale: Float) throws(KernelError) {
        // LiteRT forms 4096·scale in single precision (exact) and splits it in double.
        let (m, e) = FixedPoint.quantizeMultiplier(Double(4096 * biasScale))
        guard e <= 7 else {
            throw .invalid("the gate rescaling multiplier 4096·\(biasScale) is too large (more than 2^7)")
        }
        mantissa = Int64(m)
        left = Int32(Swift.max(e, 0))
        right = Int32(Swift.max(-e, 0))
    }

    @inline(__always)
    func apply(_ acc: Int32) -> Int32 {
        // (s·M + 2^30) >> 31 equals SRDHM(s, M) for every s when M ≥ 0.
        let high = (Int64(acc &<< left) &* mantissa &+ (1 << 30)) >> 31
        guard right > 0 else { return Int32(truncatingIfNeeded: high) }
        return Int32(truncatingIfNeeded: (high &+ (Int64(1) &<< (right &- 1))) >> Int64(right))
    }
}
