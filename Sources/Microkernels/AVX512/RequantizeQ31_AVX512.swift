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
/// accumulators' first channel; `shiftsLeft` false when every `left` is 0; `saturating`
/// only where ``CodeRange16`` allows it (then `shiftsLeft` is false).
@inline(never)
public func requantizeQ31AVX512(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool,
    right: UnsafePointer<Int32>, outputZeroPoint zp: Int32, lower: Int32, upper: Int32, saturating: Bool,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    // Channel blocks outside, rows inside: a block's per-channel vectors (and what follows
    // from `R`: the addends and shifts) are made once per tile, not once per row.
    @inline(__always) func rowsOfBlocks(shiftsLeft: Bool, saturating: Bool) {
        let range = CodeRange16(zp: zp, lower: lower, upper: upper, saturating: saturating)
        var j = 0
        while j < count {
            let k = __mmask16(truncatingIfNeeded: (1 << Swift.min(16, count - j)) - 1)
            let lanes = RequantizeQ31Lanes16(
                k, bias: bias.map { $0 + j }, mantissa: mantissa + j, left: left + j, shiftsLeft: shiftsLeft,
                right: right + j)
            for row in 0 ..< rows {
                let x = _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(acc + row * accStride + j))
                range.store(lanes.scaled(x), out + row * outStride + j, k)
            }
            j += 16
        }
    }
    if shiftsLeft {
        rowsOfBlocks(shiftsLeft: true, saturating: false)
    } else if saturating {
        rowsOfBlocks(shiftsLeft: false, saturating: true)
    } else {
        rowsOfBlocks(shiftsLeft: false, saturating: false)
    }
}

/// The output step of this level's fixed-point requantizations: `r` (the scaled
/// accumulators) becomes `clamp(r + zp, lower, upper)`, stored as the low byte of each lane
/// (the portable path's truncating store, so int8 and uint8 share it).
///
/// `saturating` is for int8 outputs whose range is all of int8 (`-128...127`, no fused
/// activation narrowing it, or ReLU6 quantized onto the whole range) with every `R ≥ 1`
/// and `zp` an int8: then `|r| ≤ 2^30 + 1`, `r + zp` cannot wrap, and `vpmovsdb`'s signed
/// saturation is the clamp, two operations fewer.
struct CodeRange16 {
    let lo: __m512i, hi: __m512i, zp: __m512i
    let saturating: Bool

    @inline(__always)
    init(zp: Int32, lower: Int32, upper: Int32, saturating: Bool = false) {
        lo = _mm512_set1_epi32(lower &- zp)
        hi = _mm512_set1_epi32(upper &- zp)
        self.zp = _mm512_set1_epi32(zp)
        self.saturating = saturating
    }

    /// `clamp(r, lower - zp, upper - zp) + zp`.
    @inline(__always)
    func codes(_ r: __m512i) -> __m512i { _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(r, lo), hi), zp) }

    /// Stores the codes of `r`'s lanes under `k`.
    @inline(__always)
    func store(_ r: __m512i, _ out: UnsafeMutableRawPointer, _ k: __mmask16) {
        if saturating {
            _mm_mask_storeu_epi8(out, k, _mm512_cvtsepi32_epi8(_mm512_add_epi32(r, zp)))
        } else {
            storeCodes16(codes(r), out, k)
        }
    }
}

/// Stores the low byte of each of `v`'s lanes under `k`: the portable path's truncating
/// store, so int8 and uint8 share it.
@inline(__always)
func storeCodes16(_ v: __m512i, _ out: UnsafeMutableRawPointer, _ k: __mmask16) {
    _mm_mask_storeu_epi8(out, k, _mm512_cvtepi32_epi8(v))
}

/// ``requantizeQ31AVX512``'s arithmetic for one block of up to 16 channels (lanes under
/// `k`), its per-channel vectors made once: `scaled(_:)` maps 16 accumulators to the `r` of
/// 16 channels, for ``CodeRange16`` to clamp and store.
struct RequantizeQ31Lanes16 {
    let bias: __m512i?, m: __m512i, mOdd: __m512i, shiftL: __m512i?
    let addEven: __m512i, addOdd: __m512i, fixEven: __m512i, fixOdd: __m512i
    let shiftEven: __m512i, shiftOdd: __m512i, interleave: __m512i

    @inline(__always)
    init(
        _ k: __mmask16, bias: UnsafePointer<Int32>?, mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>,
        shiftsLeft: Bool, right: UnsafePointer<Int32>
    ) {
        @inline(__always) func load(_ p: UnsafePointer<Int32>) -> __m512i {
            _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(p))
        }
        self.init(
            bias: bias.map(load), mantissa: load(mantissa), left: shiftsLeft ? load(left) : nil, right: load(right))
    }

    /// One multiplier `M·2^-R` (`M ≥ 0`, `R ∈ 0...31`) for every lane, no bias, no left shift.
    @inline(__always)
    init(mantissa: Int32, right: Int32) {
        self.init(bias: nil, mantissa: _mm512_set1_epi32(mantissa), left: nil, right: _mm512_set1_epi32(right))
    }

    @inline(__always)
    init(bias: __m512i?, mantissa: __m512i, left: __m512i?, right rightBoth: __m512i) {
        self.bias = bias
        m = mantissa
        mOdd = _mm512_srli_epi64(m, 32)
        shiftL = left
        // Per 64-bit lane (even channels, then odd ones): the total shift 31 + R, the
        // addend 2^30 + 2^(30 + R) and the negative-product correction 2^31, the last two
        // only where R ≥ 1 (R = 0 leaves SaturatingRoundingDoublingHighMul's result as is).
        let rEven = _mm512_and_si512(rightBoth, _mm512_set1_epi64(0xFFFF_FFFF))
        let rOdd = _mm512_srli_epi64(rightBoth, 32)
        let thirtyOne = _mm512_set1_epi64(31), nudge = _mm512_set1_epi64(1 << 30)
        let halfOne = _mm512_set1_epi64(1 << 31)
        @inline(__always) func addend(_ r: __m512i) -> __m512i {
            let rounding = _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(r, r), _mm512_sllv_epi64(nudge, r))
            return _mm512_add_epi64(nudge, rounding)
        }
        @inline(__always) func correction(_ r: __m512i) -> __m512i {
            _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(r, r), halfOne)
        }
        addEven = addend(rEven)
        addOdd = addend(rOdd)
        fixEven = correction(rEven)
        fixOdd = correction(rOdd)
        shiftEven = _mm512_add_epi64(rEven, thirtyOne)
        shiftOdd = _mm512_add_epi64(rOdd, thirtyOne)
        // Gathers the low halves of the even and odd 64-bit lanes back into channel order.
        interleave = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8, 22, 6, 20, 4, 18, 2, 16, 0)
    }

    /// `r` of the accumulators `acc`, before the zero point and the clamp.
    @inline(__always)
    func scaled(_ acc: __m512i) -> __m512i {
        @inline(__always) func divide(_ p: __m512i, _ add: __m512i, _ fix: __m512i, _ shift: __m512i) -> __m512i {
            let q = _mm512_add_epi64(p, add)
            return _mm512_srav_epi64(_mm512_mask_sub_epi64(q, _mm512_movepi64_mask(p), q, fix), shift)
        }
        let x = bias.map { _mm512_add_epi32(acc, $0) } ?? acc
        let s = shiftL.map { _mm512_sllv_epi32(x, $0) } ?? x
        let even = divide(_mm512_mul_epi32(s, m), addEven, fixEven, shiftEven)
        let odd = divide(_mm512_mul_epi32(_mm512_srli_epi64(s, 32), mOdd), addOdd, fixOdd, shiftOdd)
        return _mm512_permutex2var_epi32(even, interleave, odd)
    }
}

/// Rows of codes through ``RequantizeQ31Lanes16``, its vectors made once per block of 16
/// channels: the epilogue of the kernels that requantize in registers.
struct Q31CodeRows: IntegerPanelOutput {
    let mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool
    let right: UnsafePointer<Int32>, range: CodeRange16
    let out: UnsafeMutableRawPointer, outStride: Int

    struct Columns: IntegerPanelColumns {
        let lanes: RequantizeQ31Lanes16, range: CodeRange16
        let out: UnsafeMutableRawPointer, outStride: Int, mask: __mmask16

        @inline(__always)
        func store(_ sums: __m512i, row: Int) { range.store(lanes.scaled(sums), out + row * outStride, mask) }
    }

    @inline(__always)
    func columns(first j0: Int, mask: __mmask16) -> Columns {
        let lanes = RequantizeQ31Lanes16(
            mask, bias: nil, mantissa: mantissa + j0, left: left + j0, shiftsLeft: shiftsLeft, right: right + j0)
        return Columns(lanes: lanes, range: range, out: out + j0, outStride: outStride, mask: mask)
    }
}

/// Rows of codes through ``RequantizeF32Lanes16``.
struct F32CodeRows: IntegerPanelOutput {
    let scale: UnsafePointer<Float>, range: CodeRange16
    let out: UnsafeMutableRawPointer, outStride: Int

    struct Columns: IntegerPanelColumns {
        let lanes: RequantizeF32Lanes16, out: UnsafeMutableRawPointer, outStride: Int, mask: __mmask16

        @inline(__always)
        func store(_ sums: __m512i, row: Int) { storeCodes16(lanes.codes(sums), out + row * outStride, mask) }
    }

    @inline(__always)
    func columns(first j0: Int, mask: __mmask16) -> Columns {
        Columns(
            lanes: RequantizeF32Lanes16(mask, bias: nil, scale: scale + j0, range: range), out: out + j0,
            outStride: outStride, mask: mask)
    }
}
/// XNNPACK's float requantization (the opt-in `.float32` mode), sixteen channels per step:
///
///     out = round_even(clamp(Float(acc + bias[c]) · scale[c], lower - zp, upper - zp)) + zp
///
/// `vcvtps2dq` rounds to nearest even under the default rounding mode, which Swift code
/// never changes. Arguments as for ``requantizeQ31AVX512``, with one `Float` scale per
/// channel; tails run under a lane mask. Channel blocks outside, rows inside, as there.
@inline(never)
public func requantizeF32AVX512(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int,
    bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let range = CodeRange16(zp: zp, lower: lower, upper: upper)
    var j = 0
    while j < count {
        let k = __mmask16(truncatingIfNeeded: (1 << Swift.min(16, count - j)) - 1)
        let lanes = RequantizeF32Lanes16(k, bias: bias.map { $0 + j }, scale: scale + j, range: range)
        for row in 0 ..< rows {
            let x = _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(acc + row * accStride + j))
            storeCodes16(lanes.codes(x), out + row * outStride + j, k)
        }
        j += 16
    }
}

/// ``requantizeF32AVX512``'s arithmetic for one block of up to 16 channels (lanes under `k`).
struct RequantizeF32Lanes16 {
    let bias: __m512i?, scale: __m512, lo: __m512, hi: __m512, zp: __m512i

    @inline(__always)
    init(_ k: __mmask16, bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>, range: CodeRange16) {
        self.bias = bias.map { _mm512_maskz_loadu_epi32(k, UnsafeRawPointer($0)) }
        self.scale = _mm512_maskz_loadu_ps(k, UnsafeRawPointer(scale))
        lo = _mm512_cvtepi32_ps(range.lo)
        hi = _mm512_cvtepi32_ps(range.hi)
        zp = range.zp
    }

    /// The 16 codes (as `Int32` lanes) of the accumulators `acc`.
    @inline(__always)
    func codes(_ acc: __m512i) -> __m512i {
        let x = bias.map { _mm512_add_epi32(acc, $0) } ?? acc
        let v = _mm512_min_ps(_mm512_max_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(x), scale), lo), hi)
        return _mm512_add_epi32(_mm512_cvtps_epi32(v), zp)
    }
}
#endif
