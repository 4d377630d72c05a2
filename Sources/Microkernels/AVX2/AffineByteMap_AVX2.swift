#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// ``AffineByteMap`` over `count` codes for x86-64-v3, sixteen 16-bit lanes per `ymm`:
/// `vpmovsxbw`/`vpmovzxbw`, `vpsubw` (the zero point), `vpsllw`, `vpmulhrsw` (exactly the
/// map's rounding high product: `K > 0`, so its one overflowing case cannot occur),
/// `vpaddsw`, `vpsraw`, `vpaddsw` and the clamp, then a saturating pack to bytes. A map
/// with two pieces computes both and blends by the sign of `d`. A last partial block runs
/// in a 32-byte copy, so nothing is read or written past `count`.
@inline(never)
public func affineByteMapAVX2(_ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int, _ map: AffineByteMap) {
    switch (map.signedInput, map.negative != nil) {
    case (true, false): affineLoop(x, y, count, map, signed: true, twoPieces: false)
    case (true, true): affineLoop(x, y, count, map, signed: true, twoPieces: true)
    case (false, false): affineLoop(x, y, count, map, signed: false, twoPieces: false)
    case (false, true): affineLoop(x, y, count, map, signed: false, twoPieces: true)
    }
}

private struct PieceLanes {
    let k: __m256i, c: __m256i, n: __m256i, left: __m128i, right: __m128i
    let shiftsLeft: Bool, shiftsRight: Bool, offsetsNegative: Bool

    @inline(__always)
    init(_ piece: AffineByteMap.Piece) {
        k = _mm256_set1_epi16(piece.k)
        c = _mm256_set1_epi16(piece.c)
        n = _mm256_set1_epi16(piece.n)
        left = _mm_cvtsi32_si128(Int32(piece.p))
        right = _mm_cvtsi32_si128(Int32(piece.q))
        shiftsLeft = piece.p > 0
        shiftsRight = piece.q > 0
        offsetsNegative = piece.n != 0
    }

    /// `v >> q` of the piece for the centered codes `d`.
    @inline(__always)
    func shifted(_ d: __m256i) -> __m256i {
        let t = shiftsLeft ? _mm256_sll_epi16(d, left) : d
        let u = _mm256_mulhrs_epi16(t, k)
        let addend = offsetsNegative ? _mm256_add_epi16(c, _mm256_and_si256(_mm256_srai_epi16(d, 15), n)) : c
        let v = _mm256_adds_epi16(u, addend)
        return shiftsRight ? _mm256_sra_epi16(v, right) : v
    }
}

@inline(__always)
private func affineLoop(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ count: Int, _ map: AffineByteMap, signed: Bool,
    twoPieces: Bool
) {
    let zx = _mm256_set1_epi16(map.zeroX), za = _mm256_set1_epi16(map.zeroAfter)
    let lo = _mm256_set1_epi16(map.lower), hi = _mm256_set1_epi16(map.upper)
    let positive = PieceLanes(map.positive), negative = PieceLanes(map.negative ?? map.positive)
    let signedOutput = map.lower < 0
    let order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
    @inline(__always) func half(_ p: UnsafeRawPointer) -> __m256i {
        let bytes = p.loadUnaligned(as: __m128i.self)
        let wide = signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes)
        let d = _mm256_sub_epi16(wide, zx)
        var w = positive.shifted(d)
        if twoPieces {
            w = _mm256_blendv_epi8(w, negative.shifted(d), _mm256_srai_epi16(d, 15))
        }
        return _mm256_min_epi16(_mm256_max_epi16(_mm256_adds_epi16(w, za), lo), hi)
    }
    @inline(__always) func block(_ p: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
        let a = half(p), b = half(p + 16)
        let bytes = signedOutput ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b)
        // The packs interleave the 128-bit halves: 64-bit groups 0, 2, 1, 3 restore the order
        // (`vpermd`; `vpermq` takes an immediate, which Swift cannot pass).
        out.storeBytes(of: _mm256_permutevar8x32_epi32(bytes, order), as: __m256i.self)
    }
    var i = 0
    while i + 32 <= count {
        block(x + i, y + i)
        i += 32
    }
    if i < count {
        var inBuffer = SIMD32<UInt8>(), outBuffer = SIMD32<UInt8>()
        withUnsafeMutableBytes(of: &inBuffer) { ib in
            withUnsafeMutableBytes(of: &outBuffer) { ob in
                guard let pi = ib.baseAddress, let po = ob.baseAddress else { return }
                pi.copyMemory(from: x + i, byteCount: count - i)
                block(pi, po)
                (y + i).copyMemory(from: po, byteCount: count - i)
            }
        }
    }
}
#endif
