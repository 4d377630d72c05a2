#if arch(x86_64)
import _Builtin_intrinsics.intel

/// QUANTIZE from float32 to 8-bit codes for x86-64-v3, bit-exact with TFLite's reference
/// `q = clamp(round(x / s) + z)` (the division correctly rounded, then rounded half away
/// from zero; NaN gives `z`, as the portable kernel does):
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
/// - A block of eight with a lane near a half, huge or NaN is recomputed one element at a
///   time with the division and ``halfAwayFromZero(_:)``; inputs that are exact
///   multiples of `s/2` take that path, random ones almost never.
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

@inline(__always)
private func quantizeLoop(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutableRawPointer, _ count: Int, _ scale: Float, _ reciprocal: Float,
    _ zeroPoint: Int32, signed: Bool
) {
    let r = _mm256_set1_ps(reciprocal), z = _mm256_set1_ps(Float(zeroPoint))
    let nearHalf = _mm256_set1_epi32(Int32(bitPattern: Float(0.5 - 1.0 / 2048).bitPattern))
    let magnitude = _mm256_set1_epi32(0x7FFF_FFFF)
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)
    let lowest: Int32 = signed ? -128 : 0, highest: Int32 = signed ? 127 : 255
    @inline(__always) func exact(_ v: Float) -> Int32 {
        Swift.min(Swift.max(halfAwayFromZero(v / scale) &+ zeroPoint, lowest), highest)
    }
    /// Eight codes as `Int32` lanes, or nil when a lane needs the exact path.
    @inline(__always) func lanes(_ p: UnsafePointer<Float>) -> __m256i? {
        let v = _mm256_fmadd_ps(UnsafeRawPointer(p).loadUnaligned(as: __m256.self), r, z)
        let n = _mm256_cvtps_epi32(v)
        let d = _mm256_and_si256(_mm256_castps_si256(_mm256_sub_ps(v, _mm256_cvtepi32_ps(n))), magnitude)
        return _mm256_testz_si256(_mm256_cmpgt_epi32(d, nearHalf), _mm256_cmpgt_epi32(d, nearHalf)) != 0 ? n : nil
    }
    @inline(never) func slow(_ p: UnsafePointer<Float>) -> __m256i {
        var codes = SIMD8<Int32>()
        for l in 0 ..< 8 { codes[l] = exact(p[l]) }
        return unsafeBitCast(codes, to: __m256i.self)
    }
    var i = 0
    while i + 32 <= count {
        let p = x + i
        let n0 = lanes(p) ?? slow(p), n1 = lanes(p + 8) ?? slow(p + 8)
        let n2 = lanes(p + 16) ?? slow(p + 16), n3 = lanes(p + 24) ?? slow(p + 24)
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
