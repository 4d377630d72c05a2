#if arch(x86_64)
import _Builtin_intrinsics.intel

/// TFLite's fixed-point requantization, eight channels per step in 256-bit lanes:
///
///     s = (acc + bias[c]) << left[c]                         (wrapping Int32)
///     h = (s · M[c] + 2^30) >> 31                            (SaturatingRoundingDoublingHighMul, M ≥ 0)
///     r = (h >> R[c]) + [ (h & mask) > (mask >> 1) + [h < 0] ]   (RoundingDivideByPOT, mask = 2^R - 1)
///     out = clamp(r, lower - zp, upper - zp) + zp             (as 8 bits)
///
/// `vpmuldq` forms the signed 64-bit products of the even lanes; the odd lanes are moved
/// down by 32 bits first. `h` is bits 31...62 of `s·M + 2^30`, which is below 2^62 in
/// magnitude, so a logical shift gives the same low 32 bits as an arithmetic one (AVX2 has
/// no 64-bit arithmetic shift). The division by `2^R` is TFLite's remainder form, which
/// cannot overflow, with `vpsravd`'s per-lane shift counts. The tail runs the same
/// formulas in scalar `Int64`. Bit-identical to the reference for every `M ∈ [0, 2^31)`,
/// `left ∈ 0...30`, `R ∈ 0...31` (the ranges `QuantizedConvParams` accepts).
///
/// - Parameters:
///   - acc: `rows` rows of `count` accumulators of consecutive channels, `accStride`
///     apart; output rows are `outStride` bytes apart.
///   - bias: their biases, or nil.
///   - mantissa, left, right: per-channel `M`, left shift and right shift `R`, from the
///     accumulators' first channel.
///   - shiftsLeft: false when every `left` is 0 (multipliers below 1, the usual case,
///     known at prepare): the shift is then skipped.
///   - lower, upper: the clamp, within `Int32` (the low byte of each result is stored,
///     so int8 and uint8 outputs share this kernel).
@inline(never)
public func requantizeQ31AVX2(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool,
    right: UnsafePointer<Int32>, outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    for row in 0 ..< rows {
        if shiftsLeft {
            requantizeRowQ31(
                acc + row * accStride, count: count, bias: bias, mantissa: mantissa, left: left, right: right,
                outputZeroPoint: zp, lower: lower, upper: upper, into: out + row * outStride, shiftsLeft: true)
        } else {
            requantizeRowQ31(
                acc + row * accStride, count: count, bias: bias, mantissa: mantissa, left: left, right: right,
                outputZeroPoint: zp, lower: lower, upper: upper, into: out + row * outStride, shiftsLeft: false)
        }
    }
}

@inline(__always)
private func requantizeRowQ31(
    _ acc: UnsafePointer<Int32>, count: Int, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, right: UnsafePointer<Int32>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, into out: UnsafeMutableRawPointer,
    shiftsLeft: Bool
) {
    let lo = lower &- zp, hi = upper &- zp
    let vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi), vzp = _mm256_set1_epi32(zp)
    let nudge = _mm256_set1_epi64x(1 << 30)
    let ones = _mm256_set1_epi32(1)
    let oddLanes = _mm256_set1_epi64x(-0x1_0000_0000)
    let gather = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)
    let byteMask = _mm256_set1_epi32(0xFF)
    @inline(__always) func load(_ p: UnsafePointer<Int32>) -> __m256i {
        UnsafeRawPointer(p).loadUnaligned(as: __m256i.self)
    }
    var j = 0
    while j + 8 <= count {
        var x = load(acc + j)
        if let bias { x = _mm256_add_epi32(x, load(bias + j)) }
        let m = load(mantissa + j), shiftR = load(right + j)
        let s = shiftsLeft ? _mm256_sllv_epi32(x, load(left + j)) : x
        let even = _mm256_add_epi64(_mm256_mul_epi32(s, m), nudge)
        let odd = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(s, 32), _mm256_srli_epi64(m, 32)), nudge)
        // Even lanes from `even >> 31`, odd lanes from `odd << 1` (bits 31...62 moved up).
        let h = _mm256_blendv_epi8(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), oddLanes)
        let mask = _mm256_sub_epi32(_mm256_sllv_epi32(ones, shiftR), ones)
        let threshold = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), _mm256_srai_epi32(h, 31))
        let roundUp = _mm256_cmpgt_epi32(_mm256_and_si256(h, mask), threshold)
        let r = _mm256_sub_epi32(_mm256_srav_epi32(h, shiftR), roundUp)
        let v = _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(r, vlo), vhi), vzp)
        // The low byte of each lane, as the scalar path's truncating store: masked to
        // 0...255 first, the unsigned saturating packs only narrow.
        let low = _mm256_and_si256(v, byteMask)
        let halves = _mm256_packus_epi32(low, low)
        let bytes = _mm256_packus_epi16(halves, halves)
        let ordered = _mm256_permutevar8x32_epi32(bytes, gather)
        (out + j).storeBytes(of: unsafeBitCast(ordered, to: SIMD4<UInt64>.self)[0], as: UInt64.self)
        j += 8
    }
    while j < count {
        var x = acc[j]
        if let bias { x = x &+ bias[j] }
        let s = Int64(x &<< left[j])
        let h = Int32(truncatingIfNeeded: (s &* Int64(mantissa[j]) &+ (1 << 30)) &>> 31)
        let shift = right[j]
        let mask = Int32(truncatingIfNeeded: (Int64(1) << Int64(shift)) - 1)
        let threshold = (mask >> 1) &+ (h < 0 ? 1 : 0)
        let r = (h >> shift) &+ ((h & mask) > threshold ? 1 : 0)
        let v = Swift.min(Swift.max(r, lo), hi) &+ zp
        out.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: j, as: UInt8.self)
        j += 1
    }
}

/// `out[i] = x[i] - zx` as `Int16` for 8-bit codes (`|·| ≤ 255`, exact): the rows of the
/// 16-bit integer GEMM. Sixteen codes per step (`vpmovzxbw` / `vpmovsxbw`, `vpsubw`).
@inline(never)
public func centerCodesS16AVX2(
    _ x: UnsafeRawPointer, count: Int, signed: Bool, zeroPoint: Int32,
    into out: UnsafeMutablePointer<Int16>
) {
    let z = _mm256_set1_epi16(Int16(truncatingIfNeeded: zeroPoint))
    let o = UnsafeMutableRawPointer(out)
    var i = 0
    while i + 16 <= count {
        let bytes = (x + i).loadUnaligned(as: __m128i.self)
        let wide = signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes)
        (o + 2 * i).storeBytes(of: _mm256_sub_epi16(wide, z), as: __m256i.self)
        i += 16
    }
    while i < count {
        let code =
            signed ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self))
        out[i] = Int16(truncatingIfNeeded: code &- zeroPoint)
        i += 1
    }
}
#endif

#if arch(x86_64)
/// XNNPACK's float requantization (the opt-in `.float32` mode), eight channels per step:
///
///     out = round_even(clamp(Float(acc + bias[c]) · scale[c], lower - zp, upper - zp)) + zp
///
/// `vcvtps2dq` rounds to nearest even under the default rounding mode, which Swift code
/// never changes. Arguments as for ``requantizeQ31AVX2``, with one `Float` scale per
/// channel; the clamp bounds are integers, so clamping before rounding gives the same
/// result as after.
@inline(never)
public func requantizeF32AVX2(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int,
    bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let lo = Float(lower &- zp), hi = Float(upper &- zp)
    let vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi), vzp = _mm256_set1_epi32(zp)
    let gather = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)
    let byteMask = _mm256_set1_epi32(0xFF)
    for row in 0 ..< rows {
        let a = acc + row * accStride, o = out + row * outStride
        var j = 0
        while j + 8 <= count {
            var x = UnsafeRawPointer(a + j).loadUnaligned(as: __m256i.self)
            if let bias { x = _mm256_add_epi32(x, UnsafeRawPointer(bias + j).loadUnaligned(as: __m256i.self)) }
            let s = UnsafeRawPointer(scale + j).loadUnaligned(as: __m256.self)
            let v = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(x), s), vlo), vhi)
            let codes = _mm256_and_si256(_mm256_add_epi32(_mm256_cvtps_epi32(v), vzp), byteMask)
            let halves = _mm256_packus_epi32(codes, codes)
            let bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(halves, halves), gather)
            (o + j).storeBytes(of: unsafeBitCast(bytes, to: SIMD4<UInt64>.self)[0], as: UInt64.self)
            j += 8
        }
        while j < count {
            var x = a[j]
            if let bias { x = x &+ bias[j] }
            let v = Swift.min(Swift.max(Float(x) * scale[j], lo), hi)
            let r = Int32(v.rounded(.toNearestOrEven)) &+ zp
            o.storeBytes(of: UInt8(truncatingIfNeeded: r), toByteOffset: j, as: UInt8.self)
            j += 1
        }
    }
}
#endif
