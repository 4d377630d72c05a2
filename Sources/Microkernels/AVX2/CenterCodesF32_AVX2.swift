#if arch(x86_64)
import _Builtin_intrinsics.intel

/// `out[i] = Float((x[i] ^ flip) - offset)` for bytes `x[i]`, exactly (the results are
/// integers of magnitude below 2^24): the centered input rows of the exact 8-bit depthwise
/// kernel, which sums in Float. With `flip = 0x80` and `offset = zx + 128` an int8 code
/// minus its zero point, with `flip = 0` and `offset = zx` a uint8 one, so both types run
/// this one loop. Eight bytes per step (`vpmovzxbd`, `vpsubd`, `vcvtdq2ps`).
@inline(never)
public func centerCodesF32AVX2(
    _ x: UnsafePointer<UInt8>, count: Int, flip: UInt8, offset: Int32,
    into out: UnsafeMutablePointer<Float>
) {
    let flips = _mm_set1_epi8(CChar(bitPattern: flip))
    let offsets = _mm256_set1_epi32(offset)
    var i = 0
    while i + 8 <= count {
        let bytes = _mm_xor_si128(_mm_loadl_epi64(UnsafeRawPointer(x + i).assumingMemoryBound(to: __m128i.self)), flips)
        let codes = _mm256_sub_epi32(_mm256_cvtepu8_epi32(bytes), offsets)
        UnsafeMutableRawPointer(out + i).storeBytes(of: _mm256_cvtepi32_ps(codes), as: SIMD8<Float>.self)
        i += 8
    }
    while i < count {
        out[i] = Float(Int32(x[i] ^ flip) &- offset)
        i += 1
    }
}
#endif
