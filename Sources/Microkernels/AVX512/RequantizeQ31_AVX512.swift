#if arch(x86_64)
import _Builtin_intrinsics.intel

/// TFLite's fixed-point requantization, sixteen channels per step in 512-bit lanes, with the
/// results of the AVX2 level's `requantizeQ31AVX2`:
///
///     s = (acc + bias[c]) << left[c]                         (wrapping Int32)
///     h = (s · M[c] + 2^30) >> 31                            (SaturatingRoundingDoublingHighMul, M ≥ 0)
///     r = (h >> R[c]) + [ (h & mask) > (mask >> 1) + [h < 0] ]   (RoundingDivideByPOT, mask = 2^R - 1)
///     out = clamp(r, lower - zp, upper - zp) + zp             (as 8 bits)
///
/// AVX-512 has 64-bit arithmetic shifts, so the two roundings are done as one division of
/// the 64-bit product `P = s·M` (`vpmuldq`, even lanes, then the odd ones shifted down):
/// for `R ≥ 1`, `RoundingDivideByPOT(h, R) = (h + 2^(R-1) - [h < 0]) >> R`, and since
/// `floor((floor(y / 2^31) + c) / 2^R) = floor((y + c·2^31) / 2^(31+R))` for an integer
/// `c`,
///
///     r = (P + 2^30 + 2^(30+R) - 2^31·[P < 0]) >> (31 + R)     (R ≥ 1; R = 0: (P + 2^30) >> 31)
///
/// `[P < 0]` may stand for `[h < 0]`: they differ only for `-2^30 ≤ P < 0`, where `h` is 0
/// and both forms give 0. `|P| < 2^62`, so nothing overflows; the addends and shifts
/// follow from `R` and are made once per channel block. The low halves of the even and odd
/// 64-bit results are put back in channel order with one `vpermt2d`, and `vpmovdb` keeps
/// each result's low byte, as the portable path's truncating store does, so int8 and uint8
/// share the kernel. A row's last `count mod 16` channels run under a lane mask, so there
/// is no scalar tail. Bit-identical to the reference for every `M ∈ [0, 2^31)`,
/// `left ∈ 0...30`, `R ∈ 0...31` (tested for every exponent).
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
        let b = bias.map(load) ?? _mm512_setzero_si512()
        let m = load(mantissa), mOdd = _mm512_srli_epi64(m, 32)
        let shiftL = shiftsLeft ? load(left) : _mm512_setzero_si512()
        // Per 64-bit lane (even channels, then odd ones): the total shift 31 + R, the
        // addend 2^30 + 2^(30 + R) and the negative-product correction 2^31, the last two
        // only where R ≥ 1 (R = 0 leaves SaturatingRoundingDoublingHighMul's result as is).
        let rightBoth = load(right)
        let low = _mm512_set1_epi64(0xFFFF_FFFF)
        let rEven = _mm512_and_si512(rightBoth, low), rOdd = _mm512_srli_epi64(rightBoth, 32)
        let thirtyOne = _mm512_set1_epi64(31), nudge = _mm512_set1_epi64(1 << 30)
        let halfOne = _mm512_set1_epi64(1 << 31)
        @inline(__always) func addend(_ r: __m512i) -> __m512i {
            let rounding = _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(r, r), _mm512_sllv_epi64(nudge, r))
            return _mm512_add_epi64(nudge, rounding)
        }
        @inline(__always) func correction(_ r: __m512i) -> __m512i {
            _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(r, r), halfOne)
        }
        let addEven = addend(rEven), addOdd = addend(rOdd)
        let fixEven = correction(rEven), fixOdd = correction(rOdd)
        let shiftEven = _mm512_add_epi64(rEven, thirtyOne), shiftOdd = _mm512_add_epi64(rOdd, thirtyOne)
        // Gathers the low halves of the even and odd 64-bit lanes back into channel order.
        let interleave = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8, 22, 6, 20, 4, 18, 2, 16, 0)
        @inline(__always) func divide(_ p: __m512i, _ add: __m512i, _ fix: __m512i, _ shift: __m512i) -> __m512i {
            let q = _mm512_add_epi64(p, add)
            return _mm512_srav_epi64(_mm512_mask_sub_epi64(q, _mm512_movepi64_mask(p), q, fix), shift)
        }
        for row in 0 ..< rows {
            let x = _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, UnsafeRawPointer(acc + row * accStride)), b)
            let s = shiftsLeft ? _mm512_sllv_epi32(x, shiftL) : x
            let even = divide(_mm512_mul_epi32(s, m), addEven, fixEven, shiftEven)
            let odd = divide(_mm512_mul_epi32(_mm512_srli_epi64(s, 32), mOdd), addOdd, fixOdd, shiftOdd)
            let r = _mm512_permutex2var_epi32(even, interleave, odd)
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
