/// `1/√x` as a quantized multiplier, the fixed-point Newton iteration TFLite's 8-bit
/// L2_NORMALIZATION uses (`GetInvSqrtQuantizedMultiplierExp`).
extension FixedPoint {
    /// For `x > 1`: `(mantissa, shift)` with `mantissa · 2^(−31 − shift) ≈ 1/√x`,
    /// `shift ≤ 0` (a right shift of `−shift`). `x ≤ 1` (including sums that wrapped
    /// negative) gives `(Int32.max, 0)`, as TFLite treats 0 and 1 alike.
    ///
    /// `x` is first scaled by `4^k` into `[2^27, 2^29)` (the exponent tracks `k`), then
    /// `y ← 1.5·y − (x/2)·y³` runs five times from `y = 1` in Q3 (3 integer bits; each
    /// product an `SRDHM`, each rescale to Q3 a saturating left shift), and the result is
    /// multiplied by `√2/2` in Q0.
    static func inverseSqrtMultiplier(_ x: Int32) -> (mantissa: Int32, shift: Int) {
        guard x > 1 else { return (.max, 0) }
        var input = x
        var exponent = 11
        while input >= 1 << 29 {
            input /= 4
            exponent += 1
        }
        let pairs = (input.leadingZeroBitCount - 1) / 2 - 1
        exponent -= pairs
        input <<= Int32(2 * pairs)
        let half = roundingDivideByPOT(input >> 1, 1)
        let halfThree: Int32 = (1 << 28) + (1 << 27)
        var y: Int32 = 1 << 28
        for _ in 0 ..< 5 {
            let cube = saturatingShiftLeft(
                saturatingRoundingDoublingHighMul(saturatingRoundingDoublingHighMul(y, y), y), 6)
            let next = saturatingRoundingDoublingHighMul(halfThree, y) &- saturatingRoundingDoublingHighMul(half, cube)
            y = saturatingShiftLeft(next, 3)
        }
        var mantissa = saturatingRoundingDoublingHighMul(y, 1_518_500_250)
        if exponent < 0 {
            mantissa <<= Int32(-exponent)
            exponent = 0
        }
        return (mantissa, -exponent)
    }
}
