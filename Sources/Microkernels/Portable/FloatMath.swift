/// How a level evaluates `a·b + c`: with one rounding where the level has a fused
/// multiply-add instruction (`avx2` and up), with two where it has none (the x86-64
/// baseline, whose `fmaf` would be a library call per element).
public protocol MultiplyAdd {
    static func mulAdd(_ a: Float, _ b: Float, _ c: Float) -> Float
}

/// `a·b + c` rounded twice: the baseline's form.
public enum SeparateMultiplyAdd: MultiplyAdd {
    @inlinable @inline(__always)
    public static func mulAdd(_ a: Float, _ b: Float, _ c: Float) -> Float { a * b + c }
}

/// `a·b + c` rounded once (`llvm.fma`): only for code compiled for a level with FMA.
public enum FusedMultiplyAdd: MultiplyAdd {
    @inlinable @inline(__always)
    public static func mulAdd(_ a: Float, _ b: Float, _ c: Float) -> Float { c.addingProduct(a, b) }
}

/// Float transcendental functions written for one element with adds, multiplies,
/// comparisons that select, and bit patterns only: no library call and no branch, so a
/// plain loop over them vectorizes at every level (LLVM widens the loop to the level's
/// vectors), and each level's loops (``FloatMapLoops``) specialize them with its own
/// multiply-add. Accuracy (tested against double precision): `exp` within 2e-7 relative;
/// `sigmoid`, `tanh`, `erf` and GELU's tanh form within about 4e-7 absolute; GELU within
/// 1e-6 absolute (near `x = -5`, `1 + erf(x/√2)` cancels, which multiplies erf's error by
/// `|x|/2`). All far inside the float conformance tolerance (1e-5 · max(1, max|reference|)).
///
/// The exponential reduces `x = n·ln 2 + t`, `|t| ≤ ln 2 / 2`: `n` is rounded to nearest by
/// adding `1.5·2^23` (plus the exponent bias) to `x·log2(e)`, whose low mantissa bits,
/// shifted into the exponent field, are `2^n`; `ln 2` is split into a part exact in 16 bits
/// and a correction, so `t` is computed almost exactly. Then
/// `e^t ≈ 1 + t·p(t)`, `p(t) = 1 + c2·t + c3·t² + c4·t³ + c5·t⁴`, the coefficients fitted to
/// the relative error of `e^t` on that interval (at most 1.8e-7 in float32). NaN stays NaN:
/// every clamp is written so a NaN operand fails its comparison and passes through.
public enum FloatMath<M: MultiplyAdd> {
    /// `p(t)` above.
    @inlinable @inline(__always)
    static func expPolynomial(_ t: Float) -> Float {
        var p: Float = 0x1.106368p-7
        p = M.mulAdd(p, t, 0x1.5729d2p-5)
        p = M.mulAdd(p, t, 0x1.5557acp-3)
        p = M.mulAdd(p, t, 0x1.fffdfcp-2)
        return M.mulAdd(p, t, 1)
    }

    /// `(n, t)` with `x = n·ln 2 + t` and the float whose bits, shifted left by 23, are
    /// `2^(n + bias - 127)`: `shifted = x·log2(e) + 1.5·2^23 + bias`.
    @inlinable @inline(__always)
    static func reduce(_ x: Float, bias: Float) -> (shifted: Float, t: Float) {
        let magic: Float = 12_582_912 + bias
        let shifted = M.mulAdd(x, 1.442_695_04, magic)
        let n = shifted - magic
        let t = M.mulAdd(n, -0.693_145_752, x)
        return (shifted, M.mulAdd(n, -1.428_606_77e-6, t))
    }

    /// `e^x` over the whole float range: `+∞` above `ln(Float.greatestFiniteMagnitude)`,
    /// 0 below -87.3365 (where `e^x` leaves the normal floats; libm would return a
    /// subnormal). For positive `x`, `2^n` is built as `2^(n-1)` and the result doubled, so
    /// `n = 128` (x near 88.7) needs no exponent field beyond 254; for the others `2^n` is
    /// built directly, so `n = -126` (x near -87.3) still has a normal exponent field.
    @inlinable @inline(__always)
    public static func exp(_ x: Float) -> Float {
        let low: Float = -87.336_544, high: Float = 88.722_839
        var c = x < low ? low : x
        c = c > high ? high : c
        let positive = c > 0
        let (shifted, t) = reduce(c, bias: positive ? 126 : 127)
        let s = Float(bitPattern: shifted.bitPattern &<< 23)
        var e = M.mulAdd(t * s, expPolynomial(t), s) * (positive ? 2 : 1)
        e = x < low ? 0 : e
        return x > high ? .infinity : e
    }

    /// `e^z` for `z ≤ 0` (a positive `z` is read as 0), 0 below -87.3365.
    @inlinable @inline(__always)
    public static func expNonPositive(_ z: Float) -> Float {
        let low: Float = -87.336_544
        var c = z < low ? low : z
        c = c > 0 ? 0 : c
        let (shifted, t) = reduce(c, bias: 127)
        let s = Float(bitPattern: shifted.bitPattern &<< 23)
        let e = M.mulAdd(t * s, expPolynomial(t), s)
        return z < low ? 0 : e
    }

    /// `e^z - 1` for `-18 ≤ z ≤ 0` (clamped to that range), accurate relative to the result
    /// near 0: `2^n·(1 + t·p(t)) - 1 = (2^n - 1) + 2^n·t·p(t)`, where `2^n - 1` is exact for
    /// `n ≥ -24` and `t·p(t)` carries the small values without cancellation.
    @inlinable @inline(__always)
    public static func expm1NonPositive(_ z: Float) -> Float {
        var c = z < -18 ? -18 : z
        c = c > 0 ? 0 : c
        let (shifted, t) = reduce(c, bias: 127)
        let s = Float(bitPattern: shifted.bitPattern &<< 23)
        return M.mulAdd(t * s, expPolynomial(t), s - 1)
    }

    /// `1 / (1 + e^-x)`, from `e = e^-|x|` so nothing overflows: `1 / (1 + e)` for
    /// `x > 0`, `e / (1 + e)` otherwise.
    @inlinable @inline(__always)
    public static func sigmoid(_ x: Float) -> Float {
        let e = expNonPositive(-Swift.abs(x))
        let numerator: Float = x > 0 ? 1 : e
        return numerator / (1 + e)
    }

    /// `tanh(x) ≈ x·P(x²)/Q(x²)` on `|x| ≤ 9` (degree 4 over degree 4 in `x²`, fitted to the
    /// absolute error by `scripts/kernels/fit_tanh_rational.py`: at most 6.4e-8 in exact
    /// arithmetic, 3.3e-7 measured over every float in [0, 9.5] with FMAs, 3.9e-7 without),
    /// the input clamped to ±9 and the result to ±1, where float tanh rounds to ±1 anyway. An odd function of `x`, accurate
    /// relative to tiny inputs (`P(0) = Q(0) = 1`). Eight multiply-adds and one division:
    /// about half the work of an exponential-based form.
    @inlinable @inline(__always)
    public static func tanh(_ x: Float) -> Float {
        // A NaN fails every comparison below and passes through.
        var c = x < -9 ? -9 : x
        c = c > 9 ? 9 : c
        let u = c * c
        var p: Float = 1.439_900_643e-8
        p = M.mulAdd(p, u, 2.137_867_887e-5)
        p = M.mulAdd(p, u, 3.542_868_188e-3)
        p = M.mulAdd(p, u, 1.342_095_882e-1)
        p = M.mulAdd(p, u, 1)
        var q: Float = 8.209_008_229e-7
        q = M.mulAdd(q, u, 3.362_628_922e-4)
        q = M.mulAdd(q, u, 2.605_725_825e-2)
        q = M.mulAdd(q, u, 4.675_428_271e-1)
        q = M.mulAdd(q, u, 1)
        var r = c * p / q
        r = r > 1 ? 1 : r
        return r < -1 ? -1 : r
    }

    /// `erf(x) ≈ x·P(x²)/Q(x²)` on `|x| < 3.92` (degree 5 over degree 5 in `x²`, fitted
    /// here; at most 3.2e-7 from erf in float32), exactly `±1` beyond, where erf rounds to
    /// ±1 (so GELU of a large negative input is exactly 0).
    @inlinable @inline(__always)
    public static func erf(_ x: Float) -> Float {
        let bound: Float = 3.92
        let magnitude = Swift.abs(x)
        let a = magnitude > bound ? bound : magnitude
        let u = a * a
        var p: Float = 2.090_952_4e-6
        p = M.mulAdd(p, u, 2.865_260_1e-4)
        p = M.mulAdd(p, u, 3.729_311_5e-3)
        p = M.mulAdd(p, u, 5.264_107_0e-2)
        p = M.mulAdd(p, u, 0.189_234_36)
        p = M.mulAdd(p, u, 1.128_379_1)
        var q: Float = 3.860_168_8e-5
        q = M.mulAdd(q, u, 1.158_397_8e-3)
        q = M.mulAdd(q, u, 1.489_303_4e-2)
        q = M.mulAdd(q, u, 0.113_668_36)
        q = M.mulAdd(q, u, 0.501_036_84)
        q = M.mulAdd(q, u, 1)
        var r = a * p / q
        r = r > 1 ? 1 : r
        r = magnitude >= bound ? 1 : r
        return Float(bitPattern: r.bitPattern | (x.bitPattern & 0x8000_0000))
    }

    /// GELU, `0.5·x·(1 + erf(x/√2))`.
    @inlinable @inline(__always)
    public static func gelu(_ x: Float) -> Float {
        let half = 0.5 * x
        return M.mulAdd(half, erf(x * 0.707_106_78), half)
    }

    /// GELU's tanh form, `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
    @inlinable @inline(__always)
    public static func geluTanh(_ x: Float) -> Float {
        let inner = x * M.mulAdd(0.044_715 * x, x, 1) * 0.797_884_56
        let half = 0.5 * x
        return M.mulAdd(half, tanh(inner), half)
    }

    /// ELU with `α = 1`: `x` for `x > 0`, `e^x - 1` otherwise.
    @inlinable @inline(__always)
    public static func elu(_ x: Float) -> Float {
        x > 0 ? x : expm1NonPositive(x)
    }
}
