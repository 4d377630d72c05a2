#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// ``AffineByteMap`` over `count` codes for x86-64-v3, sixteen 16-bit lanes per `ymm`:
/// `vpmovsxbw`/`vpmovzxbw`, `vpsubw` (the zero point), `vpsllw`, `vpmulhrsw` (exactly the
/// map's rounding high product: `K > 0`, so its one overflowing case cannot occur),
/// `vpaddsw`, `vpsraw`, `vpaddsw` and the clamp, then a saturating pack to bytes.
///
/// When both sides of the zero point share the shifts `p` and `q` (one piece, or two
/// pieces the search aligned), one chain serves both: `K` and the offset (`c`, plus `n` on
/// the negative side) are chosen per lane by the sign of `d` (`vpblendvb`) before the one
/// multiply. Otherwise both pieces are computed and blended. The clamp is left to the
/// saturating pack when the bounds are the output type's. A last partial block runs in a
/// 32-byte copy, so nothing is read or written past `count`.
@inline(never)
public func affineByteMapAVX2(_ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int, _ map: AffineByteMap) {
    let negative = map.negative ?? map.positive
    let sharedShifts = negative.p == map.positive.p && negative.q == map.positive.q
    let signedOutput = map.lower < 0
    let clamps = signedOutput ? (map.lower > -128 || map.upper < 127) : (map.lower > 0 || map.upper < 255)
    if sharedShifts {
        let plain = map.negative == nil && map.positive.n == 0
        switch (map.signedInput, plain, clamps) {
        case (true, true, true): sharedLoop(x, y, count, map, signed: true, plain: true, clamps: true)
        case (true, true, false): sharedLoop(x, y, count, map, signed: true, plain: true, clamps: false)
        case (true, false, true): sharedLoop(x, y, count, map, signed: true, plain: false, clamps: true)
        case (true, false, false): sharedLoop(x, y, count, map, signed: true, plain: false, clamps: false)
        case (false, true, true): sharedLoop(x, y, count, map, signed: false, plain: true, clamps: true)
        case (false, true, false): sharedLoop(x, y, count, map, signed: false, plain: true, clamps: false)
        case (false, false, true): sharedLoop(x, y, count, map, signed: false, plain: false, clamps: true)
        case (false, false, false): sharedLoop(x, y, count, map, signed: false, plain: false, clamps: false)
        }
        return
    }
    switch (map.signedInput, map.negative != nil) {
    case (true, false): affineLoop(x, y, count, map, signed: true, twoPieces: false)
    case (true, true): affineLoop(x, y, count, map, signed: true, twoPieces: true)
    case (false, false): affineLoop(x, y, count, map, signed: false, twoPieces: false)
    case (false, true): affineLoop(x, y, count, map, signed: false, twoPieces: true)
    }
}

/// The one-chain form: `plain` (one piece, `n = 0`) needs no per-lane choice.
@inline(__always)
private func sharedLoop(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ count: Int, _ map: AffineByteMap, signed: Bool,
    plain: Bool, clamps: Bool
) {
    let pos = map.positive, neg = map.negative ?? map.positive
    let zx = _mm256_set1_epi16(map.zeroX), za = _mm256_set1_epi16(map.zeroAfter)
    let lo = _mm256_set1_epi16(map.lower), hi = _mm256_set1_epi16(map.upper)
    let kp = _mm256_set1_epi16(pos.k), kn = _mm256_set1_epi16(neg.k)
    // `c + n` is at most a few units from 2^(q-1) ≤ 2^13: no overflow.
    let cp = _mm256_set1_epi16(pos.c), cn = _mm256_set1_epi16(neg.c &+ neg.n)
    let left = _mm_cvtsi32_si128(Int32(pos.p)), right = _mm_cvtsi32_si128(Int32(pos.q))
    let signedOutput = map.lower < 0
    @inline(__always) func half(_ p: UnsafeRawPointer) -> __m256i {
        let bytes = p.loadUnaligned(as: __m128i.self)
        let wide = signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes)
        let d = _mm256_sub_epi16(wide, zx)
        var k = kp, c = cp
        if !plain {
            let sign = _mm256_srai_epi16(d, 15)
            k = _mm256_blendv_epi8(kp, kn, sign)
            c = _mm256_blendv_epi8(cp, cn, sign)
        }
        let u = _mm256_mulhrs_epi16(_mm256_sll_epi16(d, left), k)
        let w = _mm256_adds_epi16(_mm256_sra_epi16(_mm256_adds_epi16(u, c), right), za)
        return clamps ? _mm256_min_epi16(_mm256_max_epi16(w, lo), hi) : w
    }
    packedBlocks(x, y, count, signedOutput: signedOutput, half)
}

/// The loop both forms share: `half` maps sixteen codes to 16-bit results, two halves are
/// packed to 32 bytes with saturation (`signedOutput`: int8, else uint8), 64 bytes a step.
@inline(__always)
private func packedBlocks(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ count: Int, signedOutput: Bool,
    _ half: (UnsafeRawPointer) -> __m256i
) {
    let order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
    @inline(__always) func block(_ p: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
        let a = half(p), b = half(p + 16)
        let bytes = signedOutput ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b)
        // The packs interleave the 128-bit halves: 64-bit groups 0, 2, 1, 3 restore the order
        // (`vpermd`; `vpermq` takes an immediate, which Swift cannot pass).
        out.storeBytes(of: _mm256_permutevar8x32_epi32(bytes, order), as: __m256i.self)
    }
    var i = 0
    while i + 64 <= count {
        block(x + i, y + i)
        block(x + i + 32, y + i + 32)
        i += 64
    }
    if i + 32 <= count {
        block(x + i, y + i)
        i += 32
    }
    if i < count { partialBlock32(x + i, y + i, count: count - i, block) }
}

/// Runs a 32-byte `block` on the last `count < 32` bytes through stack copies, so nothing
/// is read or written past them.
@inline(__always)
func partialBlock32(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int,
    _ block: (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void
) {
    var inBuffer = SIMD32<UInt8>(), outBuffer = SIMD32<UInt8>()
    withUnsafeMutableBytes(of: &inBuffer) { ib in
        withUnsafeMutableBytes(of: &outBuffer) { ob in
            guard let pi = ib.baseAddress, let po = ob.baseAddress else { return }
            pi.copyMemory(from: x, byteCount: count)
            block(pi, po)
            y.copyMemory(from: po, byteCount: count)
        }
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
    packedBlocks(x, y, count, signedOutput: signedOutput, half)
}
#endif
