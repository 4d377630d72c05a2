#if arch(x86_64)
import _Builtin_intrinsics.intel

/// QUANTIZE from float32 to 8-bit codes for x86-64-v3, bit-exact with TFLite's reference
/// `q = clamp(round(x / s) + z)` (the division correctly rounded, then rounded half away
/// from zero; NaN gives `z`, as the portable kernel does), 32 values a step:
///
/// - `v = fma(x, r, z)` with `r = 1/s` rounded once (prepare). For `|v| ≤ 1024`, `v` is
///   within `2^-12` of `x/s + z`, and so of `fl(x/s) + z` (each of the reciprocal, the
///   product-add and the division rounds once, relatively by at most `2^-24`).
/// - `n = round(v)` to nearest even (`vcvtps2dq`), `d = v - n` (exact). Unless `|d|` is
///   within `2^-11` of a half, `fl(x/s) + z` lies on the same side of the same half-integer
///   as `v`, so `n` is the reference's code (`z` being an integer, rounding `x/s` and adding
///   `z` is rounding `x/s + z` away from ties). Larger `|v|` (and ±∞) saturate the same
///   way whatever the rounding; `vcvtps2dq` of `|v| ≥ 2^31` or NaN gives `-2^31`, whose
///   `d` is huge or NaN.
/// - A step with a lane near a half, huge or NaN is recomputed by ``exactCodes``, still
///   eight lanes at a time. Inputs on the half-integers of `x/s` take that path (a camera
///   image normalized as `(p - 127.5)/127.5` and quantized with `s = 1/127.5` does, for
///   every pixel); random ones almost never.
///
/// `reciprocal` must be `1/s` in Float, with `s` and `1/s` normal. The codes are stored
/// as bytes (`signed`: int8, else uint8), clamped to the type.
@inline(never)
public func quantizeF32AVX2(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutableRawPointer, count: Int, scale: Float, reciprocal: Float,
    zeroPoint: Int32, signed: Bool
) {
    if signed {
        quantizeLoop(x, y, count, scale, reciprocal, zeroPoint, signed: true)
    } else {
        quantizeLoop(x, y, count, scale, reciprocal, zeroPoint, signed: false)
    }
}

/// Float → integer rounding half away from zero (ties away), exact for `|v| < 2^22`,
/// saturating beyond, NaN to 0: the reference rounding of the portable kernels.
@inline(__always)
func halfAwayFromZero(_ v: Float) -> Int32 {
    let limit: Float = 4_194_303
    var c = v > limit ? limit : v
    c = c < -limit ? -limit : c
    c = c.isNaN ? 0 : c
    let t = c.rounded(.towardZero)
    let d = c - t
    return Int32(t) + (d >= 0.5 ? 1 : (d <= -0.5 ? -1 : 0))
}

/// `round(fl(x/s)) + z` for eight lanes, exactly, without a division:
///
/// - `q0 = x·r`, `e = x − q0·s` (exact, one FMA), `q = q0 + e·r` rounded once: with `r` the
///   correctly rounded `1/s`, `q0` is within an ulp of `x/s` and this one correction step
///   (Markstein's) gives the correctly rounded quotient `fl(x/s)`. Checked against the
///   division for every float `x` with `|x/s|` in `[2^-3, 2^9)` (about 2·10^8 inputs per
///   scale) and forty scales, the only range where the rounding can matter: below, the
///   code is `z` however `q` errs; above, every code saturates.
/// - Half away from zero on `|q|` clamped to 1024 (NaN zeroed first): `trunc(|q|)`, plus
///   one where the exact fraction `|q| - trunc(|q|)` is at least 1/2, then `q`'s sign (`vpsignd`; a NaN's is that of a
///   zero code), then `+ z`.
@inline(__always)
private func exactCodes(_ x: __m256, _ s: __m256, _ r: __m256, _ z: __m256i) -> __m256i {
    // `q0` is clamped so that `e` stays a number for infinite and huge `x` (for which
    // `q` then exceeds 1024 or is infinite: a saturated code either way).
    let q0 = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(x, r), _mm256_set1_ps(-1024)), _mm256_set1_ps(1024))
    let e = _mm256_fnmadd_ps(q0, s, x)
    let q = _mm256_fmadd_ps(e, r, q0)
    // `vmaxps(a, 0)` returns its second operand for a NaN `a`: NaN lanes become 0.
    let absolute = _mm256_max_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0), q), _mm256_setzero_ps())
    let magnitude = _mm256_min_ps(absolute, _mm256_set1_ps(1024))
    // `trunc(a + 1/2)` would round `a + 1/2` itself for `a` just below 1/2; the fraction
    // `a - trunc(a)` is exact, and compared as bits (it is not negative) with 1/2.
    let whole = _mm256_cvttps_epi32(magnitude)
    let fraction = _mm256_sub_ps(magnitude, _mm256_cvtepi32_ps(whole))
    let roundsUp = _mm256_cmpgt_epi32(_mm256_castps_si256(fraction), _mm256_set1_epi32(0x3EFF_FFFF))
    let n = _mm256_sub_epi32(whole, roundsUp)
    return _mm256_add_epi32(_mm256_sign_epi32(n, _mm256_castps_si256(q)), z)
}

@inline(__always)
private func quantizeLoop(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutableRawPointer, _ count: Int, _ scale: Float, _ reciprocal: Float,
    _ zeroPoint: Int32, signed: Bool
) {
    let r = _mm256_set1_ps(reciprocal), s = _mm256_set1_ps(scale), z = _mm256_set1_ps(Float(zeroPoint))
    let zi = _mm256_set1_epi32(zeroPoint)
    let nearHalf = _mm256_set1_epi32(Int32(bitPattern: Float(0.5 - 1.0 / 2048).bitPattern))
    let magnitude = _mm256_set1_epi32(0x7FFF_FFFF)
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)
    let lowest: Int32 = signed ? -128 : 0, highest: Int32 = signed ? 127 : 255
    @inline(__always) func exact(_ v: Float) -> Int32 {
        Swift.min(Swift.max(halfAwayFromZero(v / scale) &+ zeroPoint, lowest), highest)
    }
    @inline(__always) func load(_ p: UnsafePointer<Float>) -> __m256 {
        UnsafeRawPointer(p).loadUnaligned(as: __m256.self)
    }
    /// The rounded `v` of eight lanes and the lanes whose rounding needs ``exactCodes``.
    @inline(__always) func lanes(_ p: UnsafePointer<Float>) -> (__m256i, __m256i) {
        let v = _mm256_fmadd_ps(load(p), r, z)
        let n = _mm256_cvtps_epi32(v)
        let d = _mm256_and_si256(_mm256_castps_si256(_mm256_sub_ps(v, _mm256_cvtepi32_ps(n))), magnitude)
        return (n, _mm256_cmpgt_epi32(d, nearHalf))
    }
    var i = 0
    while i + 32 <= count {
        let p = x + i
        var (n0, f0) = lanes(p), (n1, f1) = lanes(p + 8)
        var (n2, f2) = lanes(p + 16), (n3, f3) = lanes(p + 24)
        let flagged = _mm256_or_si256(_mm256_or_si256(f0, f1), _mm256_or_si256(f2, f3))
        if _mm256_testz_si256(flagged, flagged) == 0 {
            n0 = exactCodes(load(p), s, r, zi)
            n1 = exactCodes(load(p + 8), s, r, zi)
            n2 = exactCodes(load(p + 16), s, r, zi)
            n3 = exactCodes(load(p + 24), s, r, zi)
        }
        // Both paths' lanes hold codes with z added; the packs saturate to the type.
        let w01 = _mm256_packs_epi32(n0, n1), w23 = _mm256_packs_epi32(n2, n3)
        let bytes = signed ? _mm256_packs_epi16(w01, w23) : _mm256_packus_epi16(w01, w23)
        (y + i).storeBytes(of: _mm256_permutevar8x32_epi32(bytes, order), as: __m256i.self)
        i += 32
    }
    while i < count {
        y.storeBytes(of: UInt8(truncatingIfNeeded: exact(x[i])), toByteOffset: i, as: UInt8.self)
        i += 1
    }
}

/// DEQUANTIZE from 8-bit codes for x86-64-v3: `y = s · Float(q - z)`, eight lanes a step.
/// TFLite's reference forms `s · (q - z)` in Double and rounds it to Float; that product of
/// a 24-bit and a 9-bit integer is exact in Double, so rounding it once equals the Float
/// multiplication of `s` by the exact `Float(q - z)`: the same bits.
@inline(never)
public func dequantizeQ8AVX2(
    _ x: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>, count: Int, scale: Float, zeroPoint: Int32,
    signed: Bool
) {
    let s = _mm256_set1_ps(scale), z = _mm256_set1_epi32(zeroPoint)
    @inline(__always) func run(_ signed: Bool) {
        var i = 0
        while i + 8 <= count {
            let bytes = _mm_loadl_epi64((x + i).assumingMemoryBound(to: __m128i.self))
            let codes = signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes)
            let v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(codes, z)), s)
            UnsafeMutableRawPointer(y + i).storeBytes(of: v, as: __m256.self)
            i += 8
        }
        while i < count {
            let code =
                signed
                ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self))
            y[i] = scale * Float(code &- zeroPoint)
            i += 1
        }
    }
    if signed { run(true) } else { run(false) }
}
#endif
