#if arch(x86_64)
import _Builtin_intrinsics.intel

/// TFLite's fixed-point requantization, sixteen channels per step in 512-bit lanes, the
/// same formulas as the AVX2 level's `requantizeQ31AVX2`:
///
///     s = (acc + bias[c]) << left[c]                         (wrapping Int32)
///     h = (s · M[c] + 2^30) >> 31                            (SaturatingRoundingDoublingHighMul, M ≥ 0)
///     r = (h >> R[c]) + [ (h & mask) > (mask >> 1) + [h < 0] ]   (RoundingDivideByPOT, mask = 2^R - 1)
///     out = clamp(r, lower - zp, upper - zp) + zp             (as 8 bits)
///
/// `vpmuldq` forms the 64-bit products of the even lanes and, after a 32-bit shift, of the
/// odd ones; bits 31...62 of each (below 2^62 in magnitude, so a logical shift is exact)
/// are merged back into 32-bit lanes with a mask blend. `vpmovdb` keeps each result's low
/// byte, as the portable path's truncating store does, so int8 and uint8 share the kernel.
/// A row's last `count mod 16` channels run the same vector code under a lane mask, so
/// there is no scalar tail. Bit-identical to the reference for every `M ∈ [0, 2^31)`,
/// `left ∈ 0...30`, `R ∈ 0...31`.
///
/// Arguments as for the AVX2 kernel: `rows` rows of `count` accumulators `accStride` apart,
/// output rows `outStride` bytes apart; per-channel `M`, `left` and `R` from the
/// accumulators' first channel; `shiftsLeft` false when every `left` is 0.
@inline(never)
public func requantizeQ31AVX512(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool,
    right: UnsafePointer<Int32>, outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let p = RequantizeQ31Block(
        rows: rows, accStride: accStride, outStride: outStride, zp: zp, lower: lower, upper: upper)
    // Channel blocks outside, rows inside: a block's per-channel vectors (and what follows
    // from `R`: the remainder mask and its half) are made once per tile, not once per row.
    var j = 0
    while j < count {
        let k = __mmask16(truncatingIfNeeded: (1 << Swift.min(16, count - j)) - 1)
        if shiftsLeft {
            p.run(acc + j, k, bias.map { $0 + j }, mantissa + j, left + j, right + j, out + j, shiftsLeft: true)
        } else {
            p.run(acc + j, k, bias.map { $0 + j }, mantissa + j, left + j, right + j, out + j, shiftsLeft: false)
        }
        j += 16
    }
}

/// One block of up to 16 channels of ``requantizeQ31AVX512``, over every row.
private struct RequantizeQ31Block {
    let rows: Int, accStride: Int, outStride: Int
    let vlo: __m512i, vhi: __m512i, vzp: __m512i

    init(rows: Int, accStride: Int, outStride: Int, zp: Int32, lower: Int32, upper: Int32) {
        self.rows = rows
        self.accStride = accStride
        self.outStride = outStride
        vlo = _mm512_set1_epi32(lower &- zp)
        vhi = _mm512_set1_epi32(upper &- zp)
        vzp = _mm512_set1_epi32(zp)
    }

    @inline(__always)
    func run(
        _ acc: UnsafePointer<Int32>, _ k: __mmask16, _ bias: UnsafePointer<Int32>?, _ mantissa: UnsafePointer<Int32>,
        _ left: UnsafePointer<Int32>, _ right: UnsafePointer<Int32>, _ out: UnsafeMutableRawPointer,
        shiftsLeft: Bool
    ) {
        @inline(__always) func load(_ p: UnsafePointer<Int32>) -> __m512i {
            _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(p))
        }
        let nudge = _mm512_set1_epi64(1 << 30)
        let ones = _mm512_set1_epi32(1)
        let b = bias.map(load) ?? _mm512_setzero_si512()
        let m = load(mantissa), mOdd = _mm512_srli_epi64(m, 32)
        let shiftL = shiftsLeft ? load(left) : _mm512_setzero_si512()
        let shiftR = load(right)
        let mask = _mm512_sub_epi32(_mm512_sllv_epi32(ones, shiftR), ones)
        let halfMask = _mm512_srli_epi32(mask, 1)
        for row in 0 ..< rows {
            let x = _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, UnsafeRawPointer(acc + row * accStride)), b)
            let s = shiftsLeft ? _mm512_sllv_epi32(x, shiftL) : x
            let even = _mm512_add_epi64(_mm512_mul_epi32(s, m), nudge)
            let odd = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(s, 32), mOdd), nudge)
            // Even lanes from `even >> 31`, odd lanes from `odd << 1` (bits 31...62 moved up).
            let h = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 31), _mm512_slli_epi64(odd, 1))
            let threshold = _mm512_sub_epi32(halfMask, _mm512_srai_epi32(h, 31))
            // `h & mask` and `threshold` are both in 0...2^31 - 1, so their difference cannot
            // overflow and its sign bit is the comparison `(h & mask) > threshold`.
            let roundUp = _mm512_srli_epi32(_mm512_sub_epi32(threshold, _mm512_and_si512(h, mask)), 31)
            let r = _mm512_add_epi32(_mm512_srav_epi32(h, shiftR), roundUp)
            let v = _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(r, vlo), vhi), vzp)
            _mm_mask_storeu_epi8(out + row * outStride, k, _mm512_cvtepi32_epi8(v))
        }
    }
}

/// XNNPACK's float requantization (the opt-in `.float32` mode), sixteen channels per step:
///
///     out = round_even(clamp(Float(acc + bias[c]) · scale[c], lower - zp, upper - zp)) + zp
///
/// `vcvtps2dq` rounds to nearest even under the default rounding mode, which Swift code
/// never changes. Arguments as for ``requantizeQ31AVX512``, with one `Float` scale per
/// channel; tails run under a lane mask.
@inline(never)
public func requantizeF32AVX512(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int,
    bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let vlo = _mm512_set1_ps(Float(lower &- zp)), vhi = _mm512_set1_ps(Float(upper &- zp))
    let vzp = _mm512_set1_epi32(zp)
    for row in 0 ..< rows {
        let a = acc + row * accStride, o = out + row * outStride
        var j = 0
        while j < count {
            let k = __mmask16(truncatingIfNeeded: (1 << Swift.min(16, count - j)) - 1)
            var x = _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(a + j))
            if let bias { x = _mm512_add_epi32(x, _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(bias + j))) }
            let s = _mm512_maskz_loadu_ps(k, UnsafeRawPointer(scale + j))
            let v = _mm512_min_ps(_mm512_max_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(x), s), vlo), vhi)
            _mm_mask_storeu_epi8(o + j, k, _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(v), vzp)))
            j += 16
        }
    }
}
#endif
