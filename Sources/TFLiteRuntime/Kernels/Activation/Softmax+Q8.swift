import Microkernels
import TFLiteModel

extension Softmax {
    /// uint8/int8 SOFTMAX as TFLite's reference kernel (the gemmlowp fixed-point path;
    /// its optimized kernel uses a float table instead, and can differ by an LSB).
    ///
    /// Prepare: `M, shift = QuantizeMultiplier(min(β·s_x·2^26, 2^31 − 1))` (shift ≥ 0
    /// required) and `diffMin = −⌊31·2^26 / 2^shift⌋`.
    /// Per row: `d = x − max(row)`; elements with `d < diffMin` give the type's lowest
    /// code; the others `e = exp(SRDHM(d·2^shift, M))` (Q5.26 in, Q0 out), summed as Q12;
    /// `y = RDBPOT(SRDHM(1/Σ, e), bitsOverUnit + 23) + lowest`, clamped, where `1/Σ` is
    /// TFLite's `GetReciprocal`. The output's declared quantization is not used (the
    /// result is on scale 1/256 from the lowest code); TFLite checks it for int8 only
    /// (zero point −128, scale 1/256 within 0.1%), and so do we.
    static func quantized<T: QuantizedByte>(
        _: T.Type, input: TensorState, output: TensorState, beta: Float,
        rows: Int, depth: Int
    ) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        if T.self == Int8.self {
            let qy = try QuantizedOperand(output, role: "output")
            guard qy.zeroPoint == -128, abs(qy.scale - 1 / Float(256)) <= 0.001 / Float(256) else {
                throw .invalid(
                    "an int8 SOFTMAX output must have zero point -128 and scale 1/256, found \(qy.zeroPoint) and \(qy.scale)"
                )
            }
        }
        guard beta >= 0 else { throw .invalid("beta \(beta) is negative; quantized SOFTMAX needs beta ≥ 0") }
        let real = Swift.min(Double(beta) * Double(qx.scale) * Double(1 << 26), Double(Int32.max))
        let (mantissa, shift) = FixedPoint.quantizeMultiplier(real)
        guard shift >= 0 else {
            throw .invalid(
                "beta · input scale = \(Double(beta) * Double(qx.scale)) is too small for the fixed-point SOFTMAX (below 2^-27)"
            )
        }
        let diffMin = -Int32((31.0 * Double(1 << 26) / Double(Int64(1) << shift)).rounded(.down))
        // `d` is one of the 256 differences 0, −1, …, −255: its exponential is computed here
        // once, where eval computed it twice per element.
        // The entries below `diffMin` are 0, which adds 0 to the sum and, through
        // `SRDHM(·, 0) = 0`, gives the lowest code: what those elements got when skipped.
        let exps = (0 ... 255).map { (k: Int32) -> Int32 in
            -k >= diffMin
                ? FixedPoint.expOnNegativeValuesQ5(
                    FixedPoint.saturatingRoundingDoublingHighMul(-k << Int32(shift), mantissa))
                : 0
        }
        return SoftmaxQ8(
            signed: T.isSigned, input: input.index, output: output.index, rows: rows, depth: depth, exps: exps,
            terms: exps.map { FixedPoint.roundingDivideByPOT($0, 12) })
    }
}

struct SoftmaxQ8: Quantized8Kernel {
    let signed: Bool
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int
    /// `e^(β·s·d)` in Q0 for each row difference `d = −k` (0 for `d < diffMin`), at `k`.
    let exps: [Int32]
    /// `exps` in Q12, as they are summed.
    let terms: [Int32]

    /// Each row's maximum and sum, its reciprocal, then its outputs (``SoftmaxRowQ8``:
    /// codes as bytes, one unsigned 64-bit product per output).
    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafeRawPointer(context.pointer(input, as: T.self)).assumingMemoryBound(to: UInt8.self)
        let y = UnsafeMutableRawPointer(context.pointer(output, as: T.self)).assumingMemoryBound(to: UInt8.self)
        let depth = self.depth
        let flip: UInt8 = signed ? 0x80 : 0
        exps.withUnsafeBufferPointer { exps in
            terms.withUnsafeBufferPointer { terms in
                let e = exps.baseAddress.unsafelyUnwrapped, t = terms.baseAddress.unsafelyUnwrapped
                context.parallel.forEachChunk(rows, minimumChunk: Swift.max(1, 1024 / Swift.max(depth, 1))) { range in
                    for r in range {
                        let xr = x + r * depth, yr = y + r * depth
                        let (m, sum) = softmaxRowQ8MaxAndSum(xr, count: depth, flip: flip, terms: t)
                        let (scale, bitsOverUnit) = FixedPoint.reciprocal(sum, integerBits: 12)
                        // At least 23 (the row maximum adds 2^19). It passes 31 only for sums of
                        // 2^28 and more (rows of 512+ near-equal values), where TFLite aborts;
                        // we shift by 31, which rounds those tiny outputs to 0 or 1.
                        let exponent = Swift.min(bitsOverUnit + 31 - 8, 31)
                        guard scale >= 0 else {
                            // Only a wrapped (negative) sum gets here: the reference's signed steps.
                            for c in 0 ..< depth {
                                let v = FixedPoint.roundingDivideByPOT(
                                    FixedPoint.saturatingRoundingDoublingHighMul(scale, e[Int(m &- (xr[c] ^ flip))]),
                                    exponent)
                                yr[c] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(v, 0), 255)) ^ flip
                            }
                            continue
                        }
                        softmaxRowQ8Output(
                            xr, yr, count: depth, flip: flip, max: m, scale: scale, exponent: exponent, exps: e)
                    }
                }
            }
        }
    }
}
