/// The fixed-point natural logarithm that TFLite's 8-bit reference LOG_SOFTMAX uses, on
/// raw `Int32` values (formats as in `FixedPoint+Exp.swift`).
extension FixedPoint {
    /// `x · 2^exponent` for `exponent ≥ 0`, saturating to `Int32.min`/`Int32.max`
    /// (exponent 0 returns `x`; at 31 every nonzero `x` saturates). Negative exponents
    /// occur only for inputs the reference leaves undefined (a wrapped, negative sum) and
    /// are treated as 0.
    @inline(__always)
    static func saturatingMultiplyByPOT(_ x: Int32, _ exponent: Int32) -> Int32 {
        guard exponent > 0 else { return x }
        let threshold = Int32(truncatingIfNeeded: (Int64(1) << Int64(31 - Swift.min(exponent, 31))) - 1)
        if x > threshold { return .max }
        if x < -threshold { return .min }
        return x &<< exponent
    }

    /// `a + b` clamped to the `Int32` range.
    @inline(__always)
    static func saturatingAdd(_ a: Int32, _ b: Int32) -> Int32 {
        Int32(clamping: Int64(a) + Int64(b))
    }

    /// `a − b` clamped to the `Int32` range.
    @inline(__always)
    static func saturatingSubtract(_ a: Int32, _ b: Int32) -> Int32 {
        Int32(clamping: Int64(a) - Int64(b))
    }

    /// `ln x` in Q5 for a Q12 value `x ≥ 1` (TFLite's `log_x_for_x_greater_than_or_equal_to_1`
    /// with 5 output integer bits, accumulating in Q6).
    ///
    /// `x = 2^z · r` is split two ways, from the leading zeros of `x` and of `x·√½`, and the
    /// pair whose mantissa `r` is smaller wins (its exponent, adjusted by ±¼, is the larger).
    /// Then `ln x = z·ln 2 + ln r` with `r` within a factor `2^±¼` of `⁴√½`, where
    /// `ln r` is a rational approximation in `q = 2(r − ⁴√½)`, `p = (r + ⁴√½)/2`:
    /// `(q·r + αn·q³) / (1 + p·(αi + q + αd·q²) + αf·q)`, the division by
    /// ``oneOverOnePlusX(_:)``. Constants in Q0: `ln 2`, `⁴√½`, `√½`, `αn = 11/240·⁴√2`,
    /// `αd = ⁴√2/20`, `αi = 2/⁴√2 − ⁴√2`, `αf = ⁴√2/4`.
    static func logQ12ToQ5(_ x: Int32) -> Int32 {
        let inputIntegerBits: Int32 = 12
        let accumulatorIntegerBits: Int32 = 6
        let ln2: Int32 = 1_488_522_236
        let fourthRootHalf: Int32 = 1_805_811_301
        let sqrtHalf: Int32 = 1_518_500_250
        let alphaN: Int32 = 117_049_297
        let alphaD: Int32 = 127_690_142
        let alphaI: Int32 = 1_057_819_769
        let alphaF: Int32 = 638_450_708
        let quarter = roundingDivideByPOT(1 << 29, Int(accumulatorIntegerBits)) // ¼ in Q6

        let headroomA = Int32(UInt32(bitPattern: x).leadingZeroBitCount) // leading zeros, sign bit included
        let mantissaA = saturatingMultiplyByPOT(
            saturatingRoundingDoublingHighMul(saturatingMultiplyByPOT(x, headroomA - 1), sqrtHalf), 1)
        let exponentA = saturatingAdd(
            saturatingMultiplyByPOT(inputIntegerBits - headroomA, 31 - accumulatorIntegerBits), quarter)
        let xOverSqrt2 = saturatingRoundingDoublingHighMul(x, sqrtHalf)
        let headroomB = Int32(UInt32(bitPattern: xOverSqrt2).leadingZeroBitCount) - 1
        let mantissaB = saturatingMultiplyByPOT(x, headroomB)
        let exponentB = saturatingSubtract(
            saturatingMultiplyByPOT(inputIntegerBits - headroomB, 31 - accumulatorIntegerBits), quarter)
        let r = Swift.min(mantissaA, mantissaB)
        let z = Swift.max(exponentA, exponentB)

        let p = roundingHalfSum(r, fourthRootHalf)
        var q = r &- fourthRootHalf
        q = q &+ q
        let q2 = saturatingRoundingDoublingHighMul(q, q)
        let numerator =
            saturatingRoundingDoublingHighMul(q, r)
            &+ saturatingRoundingDoublingHighMul(saturatingRoundingDoublingHighMul(q, q2), alphaN)
        let denominatorMinusOne =
            saturatingRoundingDoublingHighMul(p, alphaI &+ q &+ saturatingRoundingDoublingHighMul(alphaD, q2))
            &+ saturatingRoundingDoublingHighMul(alphaF, q)
        let reciprocal = oneOverOnePlusX(denominatorMinusOne)
        let lnQ6 =
            saturatingRoundingDoublingHighMul(z, ln2)
            &+ saturatingRoundingDoublingHighMul(
                roundingDivideByPOT(numerator, Int(accumulatorIntegerBits)), reciprocal)
        return saturatingMultiplyByPOT(lnQ6, 1)
    }
}
