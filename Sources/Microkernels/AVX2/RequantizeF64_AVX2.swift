#if arch(x86_64)
import _Builtin_intrinsics.intel

/// Rows of `Int32` sums to 8-bit codes the way LiteRT's reference FULLY_CONNECTED does,
/// four lanes of `Double` at a time: `code = clamp(round(Double(acc + bias) · scale[c]) +
/// zp, lower, upper)` with ties rounded away from zero.
///
/// The product is clamped to `[lower - zp, upper - zp]` before it is rounded: the bounds
/// are integers, so clamping first gives the same code, and it keeps every value small
/// enough for the rounding below. Rounding half away from zero without an immediate
/// operand (which Swift cannot pass to `vroundpd`): `t = trunc(v)` by the truncating
/// conversion, `f = v - t` (exact), then `t + 1` where `f ≥ 1/2` and `t - 1` where
/// `f ≤ -1/2`, the tests read from the sign bits of `f - 1/2` and `-1/2 - f` (an exact
/// zero difference is `+0`, so a tie counts as reached). Codes are written as bytes
/// (the low byte of each `Int32`, which is the code for int8 and uint8 alike).
public func requantizeF64AVX2(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int,
    bias: UnsafePointer<Int32>?, scale: UnsafePointer<Double>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let lo = Double(lower &- zp), hi = Double(upper &- zp)
    let vlo = _mm256_set1_pd(lo), vhi = _mm256_set1_pd(hi)
    let half = _mm256_set1_pd(0.5), minusHalf = _mm256_set1_pd(-0.5)
    let one = _mm256_set1_pd(1), minusOne = _mm256_set1_pd(-1), zero = _mm256_setzero_pd()
    let vzp = _mm_set1_epi32(zp), byteMask = _mm_set1_epi32(0xFF)
    for row in 0 ..< rows {
        let a = acc + row * accStride, o = out + row * outStride
        var j = 0
        while j + 4 <= count {
            var x = UnsafeRawPointer(a + j).loadUnaligned(as: __m128i.self)
            if let bias { x = _mm_add_epi32(x, UnsafeRawPointer(bias + j).loadUnaligned(as: __m128i.self)) }
            let s = UnsafeRawPointer(scale + j).loadUnaligned(as: __m256d.self)
            let v = _mm256_min_pd(_mm256_max_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(x), s), vlo), vhi)
            let t = _mm256_cvtepi32_pd(_mm256_cvttpd_epi32(v))
            let f = _mm256_sub_pd(v, t)
            let up = _mm256_blendv_pd(one, zero, _mm256_sub_pd(f, half))
            let down = _mm256_blendv_pd(minusOne, zero, _mm256_sub_pd(minusHalf, f))
            let rounded = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_add_pd(t, up), down))
            let codes = _mm_and_si128(_mm_add_epi32(rounded, vzp), byteMask)
            let bytes = _mm_packus_epi16(_mm_packus_epi32(codes, codes), codes)
            (o + j).storeBytes(of: unsafeBitCast(bytes, to: SIMD4<UInt32>.self)[0], as: UInt32.self)
            j += 4
        }
        while j < count {
            var x = a[j]
            if let bias { x = x &+ bias[j] }
            let v = Swift.min(Swift.max(Double(x) * scale[j], lo), hi)
            let t = Int32(v)
            let f = v - Double(t)
            let r = t &+ (f >= 0.5 ? 1 : 0) &- (f <= -0.5 ? 1 : 0) &+ zp
            o.storeBytes(of: UInt8(truncatingIfNeeded: r), toByteOffset: j, as: UInt8.self)
            j += 1
        }
    }
}
#endif
