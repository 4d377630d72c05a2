/// The natural logarithm, sine and cosine in the branch-free, call-free form of
/// ``FloatMath`` (so their loops vectorize at every level). The polynomials are fitted by
/// `scripts/kernels/fit_log_sin_cos.py`; the measured errors below are over dense sweeps
/// of the float range against double precision (`FloatMathLogTrigTests`).
extension FloatMath {
    /// `ln x` for every float: `-∞` at ±0, NaN below 0 and for NaN, `+∞` at `+∞`.
    ///
    /// `x = 2^k·m` with `m` in `[√½, √2)` (read from the bits: the exponent of `x / √½`),
    /// subnormal `x` first scaled by `2^23` (and `k` lowered by 23). With `f = m - 1`
    /// (exact), `ln(1 + f) ≈ f - f²/2 + f³·L(f)`, `L` of degree 6 (relative error at most
    /// 3.5e-8 in exact arithmetic), and `ln x = k·ln 2 + ln(1 + f)` with `ln 2` split into
    /// `0x1.63p-1` (9 bits, so `k·` it is exact) and a float correction. Measured: within
    /// 2 ulp of the rounded result over every float tested, within 1 ulp for most.
    @inlinable @inline(__always)
    public static func log(_ x: Float) -> Float {
        let tiny = x < Float.leastNormalMagnitude
        let scaled = tiny ? x * 0x1p23 : x
        let bits = Int32(bitPattern: scaled.bitPattern)
        // The bits of √½: `k` is the exponent of `scaled / √½`, rounded down.
        let k = (bits &- 0x3F35_04F3) &>> 23
        let m = Float(bitPattern: UInt32(bitPattern: bits &- (k &<< 23)))
        let f = m - 1
        let exponent = Float(k) - (tiny ? 23 : 0)
        var p: Float = 0x1.645e3ep-4
        p = M.mulAdd(p, f, -0x1.2432b0p-3)
        p = M.mulAdd(p, f, 0x1.317464p-3)
        p = M.mulAdd(p, f, -0x1.53824ap-3)
        p = M.mulAdd(p, f, 0x1.98d7f2p-3)
        p = M.mulAdd(p, f, -0x1.000382p-2)
        p = M.mulAdd(p, f, 0x1.5556d8p-2)
        let ff = f * f
        var r = M.mulAdd(ff * f, p, M.mulAdd(-0.5, ff, f))
        r = M.mulAdd(exponent, -0x1.bd0106p-13, r)
        r = M.mulAdd(exponent, 0x1.63p-1, r)
        r = x < 0 ? .nan : r
        r = x == 0 ? -.infinity : r
        r = x == .infinity ? .infinity : r
        return x != x ? x : r
    }

    /// The largest `|x|` that ``sin(_:)`` and ``cos(_:)`` reduce themselves; beyond it (and
    /// for ±∞) they return `x` unchanged, for the caller to pass to the C library
    /// (``FloatMapLoops`` does). Up to it the quarter-turn count `n` has at most 12 bits.
    @inlinable public static var sinCosReductionLimit: Float { 6433 }

    /// `x - n·π/2` and `n mod 4` (in the low bits), `n` the nearest integer to `x·2/π`.
    /// Cody–Waite: `π/2` is split into two 12-bit parts and a float correction, so for
    /// `|n| < 2^12` the products with the two parts are exact and `x - n·p1` is exact
    /// (Sterbenz); what remains of `π/2` is below `2^-48` relatively. The absolute error of
    /// the reduced argument is at most about 6e-8.
    @inlinable @inline(__always)
    static func quarterTurns(_ x: Float) -> (r: Float, quadrant: UInt32) {
        let magic: Float = 12_582_912 // 1.5·2^23: adding it rounds to an integer
        let shifted = M.mulAdd(x, 0x1.45f306p-1, magic)
        let n = shifted - magic
        var r = M.mulAdd(n, -0x1.922p0, x)
        r = M.mulAdd(n, 0x1.2aep-18, r)
        r = M.mulAdd(n, 0x1.de9740p-31, r)
        return (r, shifted.bitPattern)
    }

    /// `sin x` (`offset` 0) or `cos x` (`offset` 1, a quarter turn more) for
    /// `|x| ≤` ``sinCosReductionLimit``: the reduced `r` in `[-π/4, π/4]` (a few ulp beyond
    /// when the rounding of `x·2/π` ties), `sin r ≈ r + r³·S(r²)` (relative error 8.3e-9)
    /// or `cos r ≈ 1 - r²/2 + r⁴·C(r²)` (absolute 5.1e-10) chosen by the quadrant, whose
    /// second bit flips the sign. Larger `|x|` and ±∞ come back unchanged; NaN stays NaN.
    @inlinable @inline(__always)
    static func sinOrCos(_ x: Float, offset: UInt32) -> Float {
        let (r, quadrant) = quarterTurns(x)
        let q = quadrant &+ offset
        let u = r * r
        var s: Float = -0x1.9943e2p-13
        s = M.mulAdd(s, u, 0x1.11073ap-7)
        s = M.mulAdd(s, u, -0x1.555546p-3)
        var c: Float = 0x1.9a025ap-16
        c = M.mulAdd(c, u, -0x1.6c0c8cp-10)
        c = M.mulAdd(c, u, 0x1.55554ap-5)
        let sine = M.mulAdd(r * u, s, r)
        let cosine = M.mulAdd(u * u, c, M.mulAdd(-0.5, u, 1))
        let y = q & 1 != 0 ? cosine : sine
        let signed = Float(bitPattern: y.bitPattern ^ ((q & 2) &<< 30))
        return Swift.abs(x) > sinCosReductionLimit ? x : signed
    }

    /// `sin x` for `|x| ≤` ``sinCosReductionLimit`` (NaN for NaN); other `x`, ±∞
    /// included, come back unchanged. Measured: within 1.2e-7 absolute of the sine of the
    /// float `x` over the whole range.
    @inlinable @inline(__always)
    public static func sin(_ x: Float) -> Float { sinOrCos(x, offset: 0) }

    /// `cos x` for `|x| ≤` ``sinCosReductionLimit`` (NaN for NaN); other `x`, ±∞
    /// included, come back unchanged. Accuracy as ``sin(_:)``.
    @inlinable @inline(__always)
    public static func cos(_ x: Float) -> Float { sinOrCos(x, offset: 1) }

    /// `1 / √x`, as RSQRT defines it (`+∞` at `+0`, `-∞` at `-0`, 0 at `+∞`), in a form
    /// whose loops vectorize: a negative `x` is first replaced by the NaN `sqrtss` returns
    /// for it (`0xFFC00000`), so the square root needs no C-library call to set `errno`.
    /// Bit for bit `1 / x.squareRoot()`.
    @inlinable @inline(__always)
    public static func reciprocalSquareRoot(_ x: Float) -> Float {
        1 / (x < 0 ? Float(bitPattern: 0xFFC0_0000) : x).squareRoot()
    }
}
