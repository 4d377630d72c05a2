/// Quantized HARD_SWISH, `x · relu6(x + 3) / 6`, evaluated in TFLite's int16 fixed point.
///
/// With `d = x − z_x` scaled by 2^7 (a "high-resolution" input on scale `s_x/128`):
/// - `p = SRDHM16(d·2^7, M_out)` puts it on the output scale before the final shift;
/// - the "reluish" factor `r` maps `d·2^7` to `relu6(x + 3)/6` in Q0.15: multiplied by
///   `M_relu` (`(s_x/128) / (3/32768)`) with its exponent applied as saturating left
///   shifts (split around the multiply) or a rounding right shift, then `(r + 2^15) >> 1`;
/// - `y = RDBPOT16(DHM16(r, p), −e_out) + z_y`, clamped to the type.
/// Both multipliers come from `QuantizeMultiplier` on the Float ratios, reduced to 16
/// bits as `(M + 2^15) >> 16` (saturating at Int16.max). All intermediates wrap to
/// 16 bits exactly as the C++ `int16_t` variables do.
struct HardSwishQ8: QuantizedUnaryOp {
    let zeroX: Int32, zeroY: Int32
    let outputMantissa: Int16, outputExponent: Int
    let reluishMantissa: Int16, reluishExponent: Int
    let lower: Int32, upper: Int32

    init(input: QuantizedOperand, output: QuantizedOperand, lower: Int32, upper: Int32) throws(KernelError) {
        let hiresScale = (1 / Float(128)) * input.scale
        let out = FixedPoint.quantizeMultiplier(Double(hiresScale / output.scale))
        guard out.exponent <= 0 else {
            throw .invalid("HARD_SWISH output scale \(output.scale) is too small for input scale \(input.scale)")
        }
        let reluish = FixedPoint.quantizeMultiplier(Double(hiresScale / (3 / Float(32768))))
        // TFLite shifts an int by `exponent - 1`; beyond 30 that is undefined there.
        guard reluish.exponent <= 30 else {
            throw .invalid("HARD_SWISH input scale \(input.scale) is too large")
        }
        zeroX = input.zeroPoint; zeroY = output.zeroPoint
        outputMantissa = Self.downscale(out.mantissa); outputExponent = out.exponent
        reluishMantissa = Self.downscale(reluish.mantissa); reluishExponent = reluish.exponent
        self.lower = lower; self.upper = upper
    }

    /// A Q31 mantissa rounded to Q15, saturating.
    static func downscale(_ m: Int32) -> Int16 {
        if m >= Int32.max - (1 << 15) { return Int16.max }
        return Int16(truncatingIfNeeded: (m + (1 << 15)) >> 16)
    }

    /// gemmlowp's 16-bit `SaturatingRoundingDoublingHighMul`.
    @inline(__always)
    static func roundingHighMul(_ a: Int16, _ b: Int16) -> Int16 {
        if a == .min && b == .min { return .max }
        let ab = Int32(a) * Int32(b)
        let nudge: Int32 = ab >= 0 ? (1 << 14) : (1 - (1 << 14))
        return Int16(truncatingIfNeeded: (ab + nudge) / (1 << 15))
    }

    /// TFLite's truncating 16-bit doubling high multiply.
    @inline(__always)
    static func truncatingHighMul(_ a: Int16, _ b: Int16) -> Int16 {
        if a == .min && b == .min { return .max }
        return Int16(truncatingIfNeeded: (Int32(a) * Int32(b)) / (1 << 15))
    }

    /// gemmlowp's `RoundingDivideByPOT` on `int16_t` (mask and threshold are 16-bit too).
    @inline(__always)
    static func roundingDivide(_ x: Int16, _ exponent: Int) -> Int16 {
        let mask = Int32(Int16(truncatingIfNeeded: (Int64(1) << exponent) - 1))
        let v = Int32(x)
        let remainder = Int32(Int16(truncatingIfNeeded: v & mask))
        let threshold = Int32(Int16(truncatingIfNeeded: (mask >> 1) + (v < 0 ? 1 : 0)))
        return Int16(truncatingIfNeeded: (v >> Int32(exponent)) + (remainder > threshold ? 1 : 0))
    }

    @inline(__always)
    static func saturatingLeftShift(_ x: Int16, _ amount: Int) -> Int16 {
        let r = Int64(x) * (Int64(1) << amount)
        return Int16(Swift.min(Swift.max(r, Int64(Int16.min)), Int64(Int16.max)))
    }

    @inline(__always)
    func apply(_ x: Int32) -> Int32 {
        let hires = Int16(truncatingIfNeeded: (x - zeroX) * (1 << 7))
        let preshift = Self.roundingHighMul(hires, outputMantissa)
        var reluish = hires
        if reluishExponent > 0 { reluish = Self.saturatingLeftShift(reluish, reluishExponent - 1) }
        reluish = Self.roundingHighMul(reluish, reluishMantissa)
        if reluishExponent > 0 { reluish = Self.saturatingLeftShift(reluish, 1) }
        if reluishExponent < 0 { reluish = Self.roundingDivide(reluish, -reluishExponent) }
        reluish = Int16(truncatingIfNeeded: (Int32(reluish) + (1 << 15)) >> 1)
        let product = Self.truncatingHighMul(reluish, preshift)
        var y = Self.roundingDivide(product, -outputExponent)
        y = Int16(truncatingIfNeeded: Int32(y) + zeroY)
        return Swift.min(Swift.max(Int32(y), lower), upper)
    }
}
