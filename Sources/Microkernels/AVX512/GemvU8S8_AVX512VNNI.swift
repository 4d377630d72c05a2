#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The one-row exact 8-bit product on AVX-512 VNNI, against the weights as stored:
/// `acc[o] = Σ_i x[i]·b[o, i] - offset·Σ_i b[o, i]` in wrapping `Int32`, for `n` rows of
/// weight bytes `w` (`ldw` apart) and `k` unsigned bytes `x`, where `b` is `w` as signed
/// bytes, or with `flip` the unsigned weights less 128 (`w ^ 0x80` as signed bytes).
///
/// int8: with `x = x_int8 + 128` (the sign bit flipped) and `offset = 128 + zx` this is
/// TFLite's `Σ (x_int8 - zx)·w` exactly: the two sums differ by `(128 + zx)·Σ w`. uint8:
/// with `x` as is, `offset = zx` and `flip` it is `Σ (x - zx)·(w - 128)`, which the caller
/// completes with `(128 - zw)·Σ (x - zx)`, one number per row. `vpdpbusd` adds
/// four `u8·s8` products per `Int32` lane, 64 a step, and a second `vpdpbusd` against a
/// vector of ones sums the row's weights in the same pass (the weights are read once, so
/// the product is bound by their loading, not by the extra instruction). The last
/// `k mod 64` bytes are read with a byte mask, as zeros. Neither instruction saturates, so
/// every sum wraps like TFLite's `int32` accumulator.
@inline(never)
public func gemvU8S8AVX512VNNI(
    n: Int, k: Int, w: UnsafeRawPointer, ldw: Int, flip: Bool, x: UnsafePointer<UInt8>, offset: Int32,
    acc: UnsafeMutablePointer<Int32>
) {
    guard n > 0 else { return }
    let ones = _mm512_set1_epi8(1)
    let full = k / 64, tail = k % 64
    let tailMask = __mmask64(truncatingIfNeeded: tail == 0 ? 0 : (UInt64.max >> UInt64(64 - tail)))
    // The sign bits flipped (or nothing), and in the tail only within the row, so that the
    // bytes past it stay 0.
    let signs = flip ? _mm512_set1_epi8(-128) : _mm512_setzero_si512()
    let tailSigns = _mm512_maskz_mov_epi8(tailMask, signs)
    let xs = UnsafeRawPointer(x)
    for o in 0 ..< n {
        let row = w + o * ldw
        var dot = _mm512_setzero_si512(), sum = _mm512_setzero_si512()
        var s = 0
        while s < full {
            let wv = _mm512_xor_si512(row.loadUnaligned(fromByteOffset: 64 * s, as: __m512i.self), signs)
            dot = _mm512_dpbusd_epi32(dot, xs.loadUnaligned(fromByteOffset: 64 * s, as: __m512i.self), wv)
            sum = _mm512_dpbusd_epi32(sum, ones, wv)
            s += 1
        }
        if tail > 0 {
            let wv = _mm512_xor_si512(_mm512_maskz_loadu_epi8(tailMask, row + 64 * full), tailSigns)
            dot = _mm512_dpbusd_epi32(dot, _mm512_maskz_loadu_epi8(tailMask, xs + 64 * full), wv)
            sum = _mm512_dpbusd_epi32(sum, ones, wv)
        }
        let total = _mm512_sub_epi32(dot, _mm512_mullo_epi32(sum, _mm512_set1_epi32(offset)))
        acc[o] = _mm512_reduce_add_epi32(total)
    }
}
#endif
