#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The smallest and largest of `count ≥ 1` floats, by the rule of a scalar scan from
/// `x[0]`: `lo = v < lo ? v : lo` (and alike for `hi`), so a NaN never replaces a bound
/// and a NaN in `x[0]` stays. `vminps(v, lo)` is that selection lane by lane; the lanes
/// are merged by the same rule. Equal values may come from another position, which only
/// matters for the sign of a zero.
public func minMaxF32AVX2(_ x: UnsafePointer<Float>, count: Int) -> (Float, Float) {
    guard count > 0 else { return (0, 0) }
    var lo = _mm256_set1_ps(x[0]), hi = lo
    var i = 0
    while i + 8 <= count {
        let v = UnsafeRawPointer(x + i).loadUnaligned(as: __m256.self)
        lo = _mm256_min_ps(v, lo)
        hi = _mm256_max_ps(v, hi)
        i += 8
    }
    let (los, his) = (lo, hi)
    var l = los[0], h = his[0]
    for j in 1 ..< 8 {
        l = los[j] < l ? los[j] : l
        h = his[j] > h ? his[j] : h
    }
    while i < count {
        let v = x[i]
        l = v < l ? v : l
        h = v > h ? v : h
        i += 1
    }
    return (l, h)
}

/// A hybrid operator's row as centered `Int16` codes: `out[i] = clamp(round(base + x[i] ·
/// inverse), lowest, highest) - offset`, rounding half away from zero, in single precision
/// with the product rounded before the sum (no fused multiply-add), eight lanes at a time.
///
/// A value that is NaN or outside `Int32`'s range gives `lowest` (x86's conversion of such
/// a value is `Int32.min`, which is what LiteRT's code then clamps); the lanes detect it as
/// a truncating conversion giving `Int32.min`, which an in-range value can give only when
/// it is clamped to `lowest` anyway. Otherwise the value is clamped to one past the bounds
/// and rounded from its truncation `t`: `t + 1` where `f = v - t ≥ 1/2`, `t - 1` where
/// `f ≤ -1/2`, read from the sign bits of `f - 1/2` and `-1/2 - f` (a tie gives `+0`).
/// `lowest` and `highest` must lie in `Int16`'s range after subtracting `offset`.
public func quantizeCenteredS16AVX2(
    _ x: UnsafePointer<Float>, count: Int, inverse: Float, base: Float, lowest: Int32, highest: Int32,
    offset: Int32, into out: UnsafeMutablePointer<Int16>
) {
    let vinv = _mm256_set1_ps(inverse), vbase = _mm256_set1_ps(base)
    let below = _mm256_set1_ps(Float(lowest - 1)), above = _mm256_set1_ps(Float(highest + 1))
    let half = _mm256_set1_ps(0.5), minusHalf = _mm256_set1_ps(-0.5)
    let one = _mm256_set1_epi32(1), invalid = _mm256_set1_epi32(Int32.min)
    let vlo = _mm256_set1_epi32(lowest), vhi = _mm256_set1_epi32(highest), voff = _mm256_set1_epi32(offset)
    let gather = _mm256_setr_epi32(0, 1, 4, 5, 0, 1, 4, 5)
    var i = 0
    while i + 8 <= count {
        let xv = UnsafeRawPointer(x + i).loadUnaligned(as: __m256.self)
        let v = _mm256_add_ps(vbase, _mm256_mul_ps(xv, vinv))
        let bad = _mm256_cmpeq_epi32(_mm256_cvttps_epi32(v), invalid)
        let c = _mm256_min_ps(_mm256_max_ps(v, below), above)
        let t = _mm256_cvttps_epi32(c)
        let f = _mm256_sub_ps(c, _mm256_cvtepi32_ps(t))
        // 1 where the sign bit is clear (f ≥ 1/2, resp. f ≤ -1/2), else 0.
        let up = _mm256_add_epi32(_mm256_srai_epi32(_mm256_castps_si256(_mm256_sub_ps(f, half)), 31), one)
        let down = _mm256_add_epi32(_mm256_srai_epi32(_mm256_castps_si256(_mm256_sub_ps(minusHalf, f)), 31), one)
        var r = _mm256_sub_epi32(_mm256_add_epi32(t, up), down)
        r = _mm256_blendv_epi8(r, vlo, bad)
        r = _mm256_sub_epi32(_mm256_min_epi32(_mm256_max_epi32(r, vlo), vhi), voff)
        let packed = _mm256_permutevar8x32_epi32(_mm256_packs_epi32(r, r), gather)
        UnsafeMutableRawPointer(out + i).storeBytes(
            of: unsafeBitCast(packed, to: SIMD8<UInt32>.self).lowHalf, as: SIMD4<UInt32>.self)
        i += 8
    }
    while i < count {
        let v = base + x[i] * inverse
        var r: Int32
        if !(v > -2_147_483_904 && v < 2_147_483_648) {
            r = lowest
        } else {
            let c = Swift.min(Swift.max(v, Float(lowest - 1)), Float(highest + 1))
            let t = Int32(c)
            let f = c - Float(t)
            r = t + (f >= 0.5 ? 1 : 0) - (f <= -0.5 ? 1 : 0)
            r = Swift.min(Swift.max(r, lowest), highest)
        }
        out[i] = Int16(truncatingIfNeeded: r - offset)
        i += 1
    }
}
#endif
