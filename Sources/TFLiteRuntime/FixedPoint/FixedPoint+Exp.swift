/// The Q-format exponential and reciprocal that TFLite's 8-bit reference SOFTMAX uses
/// (gemmlowp's fixed-point library), on raw `Int32` values.
///
/// A value in format Qm has `m` integer bits and `31 - m` fractional bits. Products of
/// a Qm and a Qn value are `SRDHM` of the raws (a Q(m+n) result); sums wrap like the
/// C++ `int32_t` arithmetic; changing format divides by a power of two with rounding
/// (`RDBPOT`) or multiplies by one saturating.
extension FixedPoint {
    /// `x · 2^shift`, saturating to `Int32.min`/`Int32.max` (0 < shift < 31).
    @inline(__always)
    static func saturatingShiftLeft(_ x: Int32, _ shift: Int) -> Int32 {
        let threshold = (Int32(1) << Int32(31 - shift)) - 1
        if x > threshold { return .max }
        if x < -threshold { return .min }
        return x << Int32(shift)
    }

    /// `(a + b) / 2` rounded half away from zero, in 64 bits.
    @inline(__always)
    static func roundingHalfSum(_ a: Int32, _ b: Int32) -> Int32 {
        let sum = Int64(a) + Int64(b)
        return Int32(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : -1)) / 2)
    }

    /// `e^a` for a Q0 value `a ∈ [-1/4, 0)`: a fourth-order Taylor expansion around -1/8,
    /// `e^-1/8 · (1 + x + x²/2 + x³/6 + x⁴/24)` with `x = a + 1/8`.
    @inline(__always)
    static func expOnNegativeQuarter(_ a: Int32) -> Int32 {
        let expMinusOneEighth: Int32 = 1_895_147_668 // e^-1/8 in Q0
        let oneThird: Int32 = 715_827_883 // 1/3 in Q0
        let x = a &+ (1 << 28)
        let x2 = saturatingRoundingDoublingHighMul(x, x)
        let x3 = saturatingRoundingDoublingHighMul(x2, x)
        let x4 = saturatingRoundingDoublingHighMul(x2, x2)
        let x4Over4 = roundingDivideByPOT(x4, 2)
        let poly = roundingDivideByPOT(saturatingRoundingDoublingHighMul(x4Over4 &+ x3, oneThird) &+ x2, 1)
        return expMinusOneEighth &+ saturatingRoundingDoublingHighMul(expMinusOneEighth, x &+ poly)
    }

    /// `e^a` in Q0 for a Q5 value `a ≤ 0` (`Int32.max` for `a = 0`): the part of `a` modulo
    /// 1/4 goes through ``expOnNegativeQuarter(_:)``, then each set bit of the rest
    /// multiplies by the Q0 constant `e^-(2^k)`, k = -2 ... 4.
    static func expOnNegativeValuesQ5(_ a: Int32) -> Int32 {
        let fractionalBits = 26
        let oneQuarter = Int32(1) << Int32(fractionalBits - 2)
        let reduced = (a & (oneQuarter - 1)) &- oneQuarter
        var result = expOnNegativeQuarter(saturatingShiftLeft(reduced, 5))
        let remainder = reduced &- a
        // Unrolled (no array in the hot path): bit k of the remainder, k = -2 ... 4.
        @inline(__always) func step(_ k: Int32, _ m: Int32) {
            if remainder & (Int32(1) << (Int32(fractionalBits) + k)) != 0 {
                result = saturatingRoundingDoublingHighMul(result, m)
            }
        }
        step(-2, 1_672_461_947) // e^-1/4
        step(-1, 1_302_514_674) // e^-1/2
        step(0, 790_015_084) // e^-1
        step(1, 290_630_308) // e^-2
        step(2, 39_332_535) // e^-4
        step(3, 720_401) // e^-8
        step(4, 242) // e^-16
        return a == 0 ? .max : result
    }

    /// `1 / (1 + a)` in Q0 for a Q0 value `a ∈ [0, 1)`: three Newton–Raphson steps on the
    /// half denominator, starting from `48/17 − 32/17 · d` (in Q2).
    static func oneOverOnePlusX(_ a: Int32) -> Int32 {
        let half = roundingHalfSum(a, .max)
        let oneQ2: Int32 = 1 << 29
        var x = 1_515_870_810 &+ saturatingRoundingDoublingHighMul(half, -1_010_580_540)
        for _ in 0 ..< 3 {
            let hx = saturatingRoundingDoublingHighMul(half, x)
            x = x &+ saturatingShiftLeft(saturatingRoundingDoublingHighMul(x, oneQ2 &- hx), 2)
        }
        return saturatingShiftLeft(x, 1)
    }

    /// TFLite's `GetReciprocal`: for a positive value `x` with `integerBits` integer bits,
    /// the Q0 reciprocal of `x` normalized to `[1, 2)` and the number of bits `x` has
    /// above 1 (so `1/x ≈ scale · 2^-bitsOverUnit`).
    static func reciprocal(_ x: Int32, integerBits: Int) -> (scale: Int32, bitsOverUnit: Int) {
        let headroomPlusOne = UInt32(truncatingIfNeeded: x).leadingZeroBitCount
        let shifted = (UInt32(truncatingIfNeeded: x) << UInt32(headroomPlusOne)) &- (1 << 31)
        return (oneOverOnePlusX(Int32(bitPattern: shifted)), integerBits - headroomPlusOne)
    }
}
