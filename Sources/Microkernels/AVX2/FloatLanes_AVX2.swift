#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

// `e^x`, `ln x`, `sin x`, `cos x` and `1/√x` eight lanes at a time with AVX2 and FMA
// intrinsics: the methods and constants of ``FloatMath`` (exp, log, sin/cos), written
// out because LLVM's widening of those loops turns their selects into packed boolean
// masks and costs two to three times as many instructions. On Zen 3 and its kind the
// multiply-adds and `vblendvps` share two pipes, so selections are made with masks and
// logic operations (which run on any pipe) wherever that is possible. Float comparisons
// are `SIMD8<Float>`'s (`__m256` is that type; one `vcmpps` each, where
// `_mm256_cmp_ps` is a macro Swift cannot import) and are false for NaN, so NaN lanes
// flow through the arithmetic and stay NaN.
// Every function takes its tail (`count mod 8` elements) through the same lanes on a
// copy, so an element's result depends only on its value, not on where a thread's chunk
// starts.

/// `y[i] = lanes(x[i])` over `count` elements; `y` may be `x`.
@inline(__always)
func forEachLanes(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ count: Int, _ lanes: (__m256) -> __m256
) {
    var i = 0
    while i + 8 <= count {
        UnsafeMutableRawPointer(y + i).storeBytes(of: lanes(_mm256_loadu_ps(x + i)), as: __m256.self)
        i += 8
    }
    let rest = count - i
    guard rest > 0 else { return }
    var tail = (Float(1), Float(1), Float(1), Float(1), Float(1), Float(1), Float(1), Float(1))
    withUnsafeMutableBytes(of: &tail) { buffer in
        guard let base = buffer.baseAddress else { return }
        let lane = base.assumingMemoryBound(to: Float.self)
        for k in 0 ..< rest { lane[k] = x[i + k] }
        base.storeBytes(of: lanes(_mm256_loadu_ps(lane)), as: __m256.self)
        for k in 0 ..< rest { y[i + k] = lane[k] }
    }
}

@inline(__always) private func splat(_ v: Float) -> __m256 { _mm256_set1_ps(v) }
@inline(__always) private func splatBits(_ v: Int32) -> __m256i { _mm256_set1_epi32(v) }
@inline(__always) private func bits(_ v: __m256) -> __m256i { _mm256_castps_si256(v) }
@inline(__always) private func float(_ v: __m256i) -> __m256 { _mm256_castsi256_ps(v) }

/// All-ones lanes where `a < b` (false for NaN).
@inline(__always) private func less(_ a: __m256, _ b: __m256) -> __m256 {
    unsafeBitCast(a .< b, to: __m256.self)
}

/// All-ones lanes where `a == b` (false for NaN).
@inline(__always) private func equal(_ a: __m256, _ b: __m256) -> __m256 {
    unsafeBitCast(a .== b, to: __m256.self)
}

/// All-ones lanes where `a` is NaN.
@inline(__always) private func isNaN(_ a: __m256) -> __m256 {
    unsafeBitCast(a .!= a, to: __m256.self)
}

/// `mask ? value : other` lane by lane with logic operations (`mask` all-ones or zero).
@inline(__always) private func select(_ mask: __m256, _ value: __m256, _ other: __m256) -> __m256 {
    _mm256_or_ps(_mm256_and_ps(mask, value), _mm256_andnot_ps(mask, other))
}

/// ``FloatMath/exp(_:)`` in lanes: the same clamps, reduction and polynomial.
@inline(__always)
private func exp8(_ x: __m256) -> __m256 {
    let low: Float = -87.336_544, high: Float = 88.722_839
    // `max_ps`/`min_ps` return their second operand when one is NaN: NaN passes through.
    let c = _mm256_min_ps(splat(high), _mm256_max_ps(splat(low), x))
    // Positive `c` builds `2^(n-1)` (one less in the rounding constant) and doubles the result.
    let positive = less(_mm256_setzero_ps(), c)
    let magic = _mm256_sub_ps(splat(12_582_912 + 127), _mm256_and_ps(positive, splat(1)))
    let shifted = _mm256_fmadd_ps(c, splat(1.442_695_04), magic)
    let n = _mm256_sub_ps(shifted, magic)
    var t = _mm256_fmadd_ps(n, splat(-0.693_145_752), c)
    t = _mm256_fmadd_ps(n, splat(-1.428_606_77e-6), t)
    let s = float(_mm256_slli_epi32(bits(shifted), 23))
    var p = splat(0x1.106368p-7)
    p = _mm256_fmadd_ps(p, t, splat(0x1.5729d2p-5))
    p = _mm256_fmadd_ps(p, t, splat(0x1.5557acp-3))
    p = _mm256_fmadd_ps(p, t, splat(0x1.fffdfcp-2))
    p = _mm256_fmadd_ps(p, t, splat(1))
    var e = _mm256_fmadd_ps(_mm256_mul_ps(t, s), p, s)
    e = _mm256_add_ps(e, _mm256_and_ps(positive, e))
    e = _mm256_andnot_ps(less(x, splat(low)), e)
    // +∞ above `high`: `max(∞ or 0, e)`, `e ≥ 0`; `max_ps` returns its second operand, a NaN `e`.
    return _mm256_max_ps(_mm256_and_ps(less(splat(high), x), splat(.infinity)), e)
}

/// ``FloatMath/log(_:)`` in lanes.
@inline(__always)
private func log8(_ x: __m256) -> __m256 {
    // Zeros, subnormals and negatives (bits below `0x00800000` as signed integers) are
    // multiplied by `2^23`; the others by 1.
    let tiny = float(_mm256_cmpgt_epi32(splatBits(0x0080_0000), bits(x)))
    let scale = _mm256_add_ps(splat(1), _mm256_and_ps(tiny, splat(0x1p23 - 1)))
    let scaled = bits(_mm256_mul_ps(x, scale))
    let k = _mm256_srai_epi32(_mm256_sub_epi32(scaled, splatBits(0x3F35_04F3)), 23)
    let m = float(_mm256_sub_epi32(scaled, _mm256_slli_epi32(k, 23)))
    let f = _mm256_sub_ps(m, splat(1))
    let exponent = _mm256_sub_ps(_mm256_cvtepi32_ps(k), _mm256_and_ps(tiny, splat(23)))
    var p = splat(0x1.645e3ep-4)
    p = _mm256_fmadd_ps(p, f, splat(-0x1.2432b0p-3))
    p = _mm256_fmadd_ps(p, f, splat(0x1.317464p-3))
    p = _mm256_fmadd_ps(p, f, splat(-0x1.53824ap-3))
    p = _mm256_fmadd_ps(p, f, splat(0x1.98d7f2p-3))
    p = _mm256_fmadd_ps(p, f, splat(-0x1.000382p-2))
    p = _mm256_fmadd_ps(p, f, splat(0x1.5556d8p-2))
    let ff = _mm256_mul_ps(f, f)
    var r = _mm256_fmadd_ps(_mm256_mul_ps(ff, f), p, _mm256_fnmadd_ps(splat(0.5), ff, f))
    r = _mm256_fmadd_ps(exponent, splat(-0x1.bd0106p-13), r)
    r = _mm256_fmadd_ps(exponent, splat(0x1.63p-1), r)
    // ±0 → -∞, +∞ → +∞; negatives and NaN → all-ones bits, a NaN.
    r = select(equal(x, _mm256_setzero_ps()), splat(-.infinity), r)
    r = select(equal(x, splat(.infinity)), splat(.infinity), r)
    return _mm256_or_ps(r, _mm256_or_ps(less(x, _mm256_setzero_ps()), isNaN(x)))
}

/// ``FloatMath/sin(_:)`` (`offset` 0) or ``FloatMath/cos(_:)`` (`offset` 1) in lanes: the
/// same reduction and polynomials; lanes beyond the reduction limit keep `x`.
@inline(__always)
private func sinCos8(_ x: __m256, offset: Int32) -> __m256 {
    let magic: Float = 12_582_912
    let shifted = _mm256_fmadd_ps(x, splat(0x1.45f306p-1), splat(magic))
    let n = _mm256_sub_ps(shifted, splat(magic))
    var r = _mm256_fmadd_ps(n, splat(-0x1.922p0), x)
    r = _mm256_fmadd_ps(n, splat(0x1.2aep-18), r)
    r = _mm256_fmadd_ps(n, splat(0x1.de9740p-31), r)
    let q = _mm256_add_epi32(bits(shifted), splatBits(offset))
    let u = _mm256_mul_ps(r, r)
    var s = splat(-0x1.9943e2p-13)
    s = _mm256_fmadd_ps(s, u, splat(0x1.11073ap-7))
    s = _mm256_fmadd_ps(s, u, splat(-0x1.555546p-3))
    var c = splat(0x1.9a025ap-16)
    c = _mm256_fmadd_ps(c, u, splat(-0x1.6c0c8cp-10))
    c = _mm256_fmadd_ps(c, u, splat(0x1.55554ap-5))
    let sine = _mm256_fmadd_ps(_mm256_mul_ps(r, u), s, r)
    let cosine = _mm256_fmadd_ps(_mm256_mul_ps(u, u), c, _mm256_fnmadd_ps(splat(0.5), u, splat(1)))
    // Odd quadrants (bit 0) take the cosine; bit 1, moved to the sign bit, flips the sign.
    let odd = float(_mm256_cmpeq_epi32(_mm256_and_si256(q, splatBits(1)), splatBits(1)))
    let y = select(odd, cosine, sine)
    let signed = _mm256_xor_ps(y, float(_mm256_slli_epi32(_mm256_srli_epi32(q, 1), 31)))
    let limit = FloatMath<FusedMultiplyAdd>.sinCosReductionLimit
    // |x| beyond the limit (and ±∞; NaN lanes are NaN either way) keep x.
    let magnitude = _mm256_andnot_ps(splat(-0.0), x)
    return select(less(splat(limit), magnitude), x, signed)
}

/// ``FloatMath/exp(_:)`` over `x[0 ..< count]`.
@inline(never)
public func expAVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    forEachLanes(x, y, count) { exp8($0) }
}

/// ``FloatMath/log(_:)`` over `x[0 ..< count]`.
@inline(never)
public func logAVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    forEachLanes(x, y, count) { log8($0) }
}

/// Sine or cosine over `x[0 ..< count]`, the elements beyond the reduction limit then
/// passed to the C library (``sinCosBeyondReduction(_:count:cosine:)``).
@inline(never)
public func sinCosAVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int, cosine: Bool) {
    if cosine {
        forEachLanes(x, y, count) { sinCos8($0, offset: 1) }
    } else {
        forEachLanes(x, y, count) { sinCos8($0, offset: 0) }
    }
    var largest = _mm256_setzero_si256()
    var i = 0
    while i + 8 <= count {
        largest = _mm256_max_epu32(largest, _mm256_and_si256(bits(_mm256_loadu_ps(y + i)), splatBits(0x7FFF_FFFF)))
        i += 8
    }
    var beyond = false
    withUnsafeBytes(of: largest) { lanes in
        for k in 0 ..< 8 where lanes.load(fromByteOffset: 4 * k, as: UInt32.self) > Float(1).bitPattern {
            beyond = true
        }
    }
    while i < count {
        beyond = beyond || Swift.abs(y[i]) > 1
        i += 1
    }
    if beyond { sinCosBeyondReduction(y, count: count, cosine: cosine) }
}

/// `1 / √x` from the 12-bit estimate `vrsqrtps` and one Newton–Raphson step,
/// `y₁ = y₀·(3/2 − (x/2)·y₀²)`, which squares the estimate's relative error (at most
/// `1.5·2⁻¹²`) and leaves about 3e-7 after rounding: within 4 ulp of the correctly
/// rounded `1 / √x` (tested over every 1021st positive float), far inside the float
/// tolerance, at a fraction of the cost of `vsqrtps` and `vdivps`.
///
/// The estimate reads subnormal inputs as 0, so `x` below the normal range (zeros,
/// subnormals, and negatives, which give NaN anyway) is scaled by `2^24` first and the
/// result by `2^12`. Where the scaled input is ±0 or +∞ the estimate is already exact
/// (±∞, 0) and the Newton step would make NaN, so it is kept.
@inline(never)
public func reciprocalSquareRootAVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    forEachLanes(x, y, count) { x in
        let small = float(_mm256_cmpgt_epi32(splatBits(0x0080_0000), bits(x)))
        let scaled = _mm256_mul_ps(x, _mm256_add_ps(splat(1), _mm256_and_ps(small, splat(0x1p24 - 1))))
        let factor = _mm256_add_ps(splat(1), _mm256_and_ps(small, splat(0x1p12 - 1)))
        let estimate = _mm256_rsqrt_ps(scaled)
        let halfX = _mm256_mul_ps(scaled, splat(0.5))
        let correction = _mm256_fnmadd_ps(halfX, _mm256_mul_ps(estimate, estimate), splat(1.5))
        let refined = _mm256_mul_ps(estimate, correction)
        let magnitude = _mm256_andnot_ps(splat(-0.0), scaled)
        let exact = _mm256_or_ps(equal(magnitude, _mm256_setzero_ps()), equal(scaled, splat(.infinity)))
        return _mm256_mul_ps(select(exact, estimate, refined), factor)
    }
}
#endif
