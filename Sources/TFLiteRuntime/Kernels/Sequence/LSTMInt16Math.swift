/// gemmlowp's 16-bit fixed-point arithmetic, which TFLite's integer LSTM uses for its gate
/// nonlinearities (spec/sequence-ops.md). A value is an `Int16` raw code held in an
/// `Int32`; `Qk` means `k` integer bits and `15 - k` fraction bits. Additions wrap to 16
/// bits (`wrap`) unless said to saturate, as the C++ code's `int16_t` casts do.
enum LSTMInt16Math {
    @inline(__always)
    static func wrap(_ x: Int32) -> Int32 { Int32(Int16(truncatingIfNeeded: x)) }

    @inline(__always)
    static func saturate(_ x: Int32) -> Int32 { Swift.min(Swift.max(x, -32768), 32767) }

    /// `a·b / 2^15` rounded (ties toward +∞ after the ±2^14 nudge and a truncating
    /// division), `-1 · -1` saturating to the largest code.
    @inline(__always)
    static func mul(_ a: Int32, _ b: Int32) -> Int32 {
        if a == -32768 && b == -32768 { return 32767 }
        let ab = a &* b
        let nudge: Int32 = ab >= 0 ? 16384 : -16383
        return wrap((ab &+ nudge) / 32768)
    }

    /// `x / 2^e` rounded to nearest, ties away from zero.
    @inline(__always)
    static func divideByPOT(_ x: Int32, _ e: Int32) -> Int32 {
        let mask: Int32 = (1 &<< e) &- 1
        let remainder = x & mask
        let threshold = (mask >> 1) &+ (x < 0 ? 1 : 0)
        return (x >> e) &+ (remainder > threshold ? 1 : 0)
    }

    /// `x · 2^e`: a saturating left shift for `e > 0`, a rounding right shift for `e < 0`.
    @inline(__always)
    static func multiplyByPOT(_ x: Int32, _ e: Int32) -> Int32 {
        if e < 0 { return divideByPOT(x, -e) }
        if e == 0 { return x }
        let threshold: Int32 = (1 &<< (15 - e)) &- 1
        if x > threshold { return 32767 }
        if x < -threshold { return -32768 }
        return x &<< e
    }

    /// A Q0.31 constant's 16-bit form (rounded, as gemmlowp rescales its constants).
    static func constant(_ q31: Int32) -> Int32 { FixedPoint.roundingDivideByPOT(q31, 16) }

    static let expConstantTerm = constant(1_895_147_668) // e^(-1/8)
    static let oneThird = constant(715_827_883)
    /// `e^(-2^k)` for k = -2 ... 4, applied per set bit of the argument's integer part.
    static let barrel: [Int32] = [1_672_461_947, 1_302_514_674, 790_015_084, 290_630_308, 39_332_535, 720_401, 242]
        .map(constant)
    static let fortyEightOverSeventeen = constant(1_515_870_810) // Q2
    static let minusThirtyTwoOverSeventeen = constant(-1_010_580_540) // Q2

    /// `e^a` for `a ∈ [-1/4, 0)` in Q0: a Taylor expansion around -1/8.
    @inline(__always)
    static func expOnInterval(_ a: Int32) -> Int32 {
        let x = wrap(a &+ 4096) // a + 1/8
        let x2 = mul(x, x), x3 = mul(x2, x), x4 = mul(x2, x2)
        let x4Over4 = multiplyByPOT(x4, -2)
        let poly = multiplyByPOT(wrap(mul(wrap(x4Over4 &+ x3), oneThird) &+ x2), -1)
        return saturate(expConstantTerm &+ mul(expConstantTerm, wrap(x &+ poly)))
    }

    /// `e^a` for `a ≤ 0` in `Q(integerBits)`, result in Q0.
    @inline(__always)
    static func expOnNegative(_ a: Int32, integerBits k: Int32) -> Int32 {
        let fraction = 15 - k
        let quarter: Int32 = 1 &<< (fraction - 2)
        let modQuarter = wrap((a & (quarter &- 1)) &- quarter)
        var result = expOnInterval(multiplyByPOT(modQuarter, k))
        let remainder = wrap(modQuarter &- a)
        var exponent: Int32 = -2
        for multiplier in barrel {
            if k > exponent, remainder & (1 &<< (fraction &+ exponent)) != 0 {
                result = mul(result, multiplier)
            }
            exponent += 1
        }
        if k > 5 {
            let clamp = constant(-(1 &<< (36 - k)))
            if a < clamp { result = 0 }
        }
        return a == 0 ? 32767 : result
    }

    /// Newton-Raphson for `1/(1 + x)` or `(1 - x)/(1 + x)`, `x ∈ (0, 1)` in Q0.
    @inline(__always)
    static func reciprocalIteration(_ a: Int32) -> Int32 {
        let sum = a &+ 32767
        let halfDenominator = (sum &+ (sum >= 0 ? 1 : -1)) / 2
        var x = wrap(fortyEightOverSeventeen &+ mul(halfDenominator, minusThirtyTwoOverSeventeen))
        for _ in 0 ..< 3 {
            let oneMinus = wrap(8192 &- mul(halfDenominator, x))
            x = wrap(x &+ multiplyByPOT(mul(x, oneMinus), 2))
        }
        return x // Q2 ≈ 1 / halfDenominator
    }

    /// The logistic function of a `Q(integerBits)` code, in Q0 (gemmlowp `logistic`).
    @inline(__always)
    static func logistic(_ a: Int32, integerBits k: Int32) -> Int32 {
        if a == 0 { return 16384 }
        let magnitude = a > 0 ? a : wrap(-a)
        let e = expOnNegative(wrap(-magnitude), integerBits: k)
        let positive = multiplyByPOT(reciprocalIteration(e), 1) // x/2 in Q1 read as Q0
        return a > 0 ? positive : wrap(32767 &- positive)
    }

    /// `tanh` of a `Q(integerBits)` code, in Q0 (gemmlowp `tanh`).
    @inline(__always)
    static func tanh(_ a: Int32, integerBits k: Int32) -> Int32 {
        if a == 0 { return 0 }
        let negative = a < 0
        let n = negative ? a : wrap(-a)
        let e = expOnNegative(n, integerBits: k + 1)
        let t = multiplyByPOT(wrap(reciprocalIteration(e) &- 8192), 2)
        return negative ? wrap(-t) : t
    }
}
