import TFLiteModel

extension Softmax {
    /// uint8/int8 LOG_SOFTMAX as TFLite's reference kernel (gemmlowp fixed point, β = 1).
    ///
    /// Prepare (TFLite's `PreprocessLogSoftmaxScalingExp`):
    /// `M, e = QuantizeMultiplier(min(s_x·2^26, 2^31 − 1))` puts a code difference in Q5.26;
    /// `R, e_R = QuantizeMultiplier(2^(31−e) / M)` maps a Q5.26 value back to codes; and
    /// `diffMin = −⌊31·2^26 / 2^e⌋`.
    /// Per row, with `d = x − max(row)` and `D(d) = MBQM(d, M, e)`:
    /// - `Σ = Σ_{d ≥ diffMin} RDBPOT(exp(D(d)), 12)` in Q12 (wrapping, as TFLite's);
    /// - `L = ln Σ` in Q5 (``FixedPoint/logQ12ToQ5(_:)``);
    /// - `cut = max(diffMin − 1, MBQM(L + Int32.min, R, e_R))`, the smallest difference
    ///   whose `D(d) − L` still fits an `Int32`;
    /// - `y = clamp(RDBPOT(D(d) − L, 22) + highest)` for `d > cut`, the lowest code otherwise.
    /// The output is `ln softmax` on scale 1/16 from the highest code, which TFLite requires
    /// the file to declare (scale exactly 16/256, zero point 127 for int8 and 255 for
    /// uint8), as do we. The input zero point cancels in `d`. TFLite aborts when
    /// `s_x·2^26 ≤ 1` or when `2^(31−e)/M` rounds to 1 or more (input scales of about 2^-26
    /// and below): those are prepare errors here.
    static func logQuantized<T: QuantizedByte>(
        _: T.Type, input: TensorState, output: TensorState, rows: Int, depth: Int
    ) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        guard qy.scale == 0.0625, qy.zeroPoint == T.highest else {
            throw .invalid(
                "a quantized LOG_SOFTMAX output must have scale 16/256 and zero point \(T.highest), found \(qy.scale) and \(qy.zeroPoint)"
            )
        }
        let real = Swift.min(Double(qx.scale) * Double(1 << 26), Double(Int32.max))
        guard real > 1 else {
            throw .invalid("input scale \(qx.scale) is too small for the fixed-point LOG_SOFTMAX (2^-26 or below)")
        }
        let (mantissa, shift) = FixedPoint.quantizeMultiplier(real)
        let reverse = Double(Int64(1) << (31 - shift)) / Double(mantissa)
        guard reverse < 1 else {
            throw .invalid("input scale \(qx.scale) is too small for the fixed-point LOG_SOFTMAX (reverse scaling ≥ 1)")
        }
        let (reverseMantissa, reverseExponent) = FixedPoint.quantizeMultiplier(reverse)
        let diffMin = -Int32((31.0 * Double(1 << 26) / Double(Int64(1) << shift)).rounded(.down))
        // `d = −k` is one of 0, −1, …, −255: `D(d)` and its exponential are tabulated here.
        let scaled = (0 ... 255).map { (k: Int32) in FixedPoint.multiplyByQuantizedMultiplier(-k, mantissa, shift) }
        let terms = (0 ... 255).map { (k: Int) in
            -Int32(k) >= diffMin
                ? FixedPoint.roundingDivideByPOT(FixedPoint.expOnNegativeValuesQ5(scaled[k]), 12) : 0
        }
        return LogSoftmaxQ8(
            signed: T.isSigned, input: input.index, output: output.index, rows: rows, depth: depth,
            diffMin: diffMin, reverseMantissa: reverseMantissa, reverseExponent: reverseExponent, scaled: scaled,
            terms: terms)
    }
}

struct LogSoftmaxQ8: Quantized8Kernel {
    let signed: Bool
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int
    let diffMin: Int32
    let reverseMantissa: Int32
    let reverseExponent: Int
    /// `D(−k)`, the difference `−k` in Q5.26, at `k`.
    let scaled: [Int32]
    /// `RDBPOT(exp(D(−k)), 12)` (0 below `diffMin`), the Q12 terms of the sum, at `k`.
    let terms: [Int32]

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let (depth, diffMin, reverseMantissa, reverseExponent) = (
            self.depth, self.diffMin, self.reverseMantissa, self.reverseExponent
        )
        scaled.withUnsafeBufferPointer { scaled in
            terms.withUnsafeBufferPointer { terms in
                let scaled = scaled.baseAddress.unsafelyUnwrapped, terms = terms.baseAddress.unsafelyUnwrapped
                context.parallel.forEachChunk(rows, minimumChunk: Swift.max(1, 1024 / Swift.max(depth, 1))) { range in
                    for r in range {
                        let xr = x + r * depth, yr = y + r * depth
                        var m = T.lowest
                        for c in 0 ..< depth { m = Swift.max(m, xr[c].code) }
                        var sum: Int32 = 0
                        for c in 0 ..< depth { sum = sum &+ terms[Int(m - xr[c].code)] }
                        let logSum = FixedPoint.logQ12ToQ5(sum)
                        let cut = Swift.max(
                            diffMin - 1,
                            FixedPoint.multiplyByQuantizedMultiplier(
                                logSum &+ Int32.min, reverseMantissa, reverseExponent))
                        // `d > cut` for `d = −k` is `k < −cut`.
                        let kLimit = -Int(cut)
                        for c in 0 ..< depth {
                            let k = Int(m - xr[c].code)
                            let v = FixedPoint.roundingDivideByPOT(scaled[k] &- logSum, 22) &+ T.highest
                            yr[c] = T.clamping(k < kLimit ? v : T.lowest)
                        }
                    }
                }
            }
        }
    }
}
