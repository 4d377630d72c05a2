#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// ``SigmoidInterpolationS16`` with AVX2, sixteen codes a step: the input scaling, the node
/// index and the interpolation in 32-bit lanes, the eight node loads per half as scalar
/// loads (Swift cannot reach `vpgatherdd`, and LLVM did not vectorize the plain loop), the
/// results narrowed with `vpackssdw` (exact: every result fits 16 bits). The tail runs the
/// plain loop.
@inline(never)
public func sigmoidInterpolationS16AVX2(
    _ x: UnsafePointer<Int16>, _ y: UnsafeMutablePointer<Int16>, count: Int,
    logistic: Bool, multiplier: Int32, shift: Int32, nodes: UnsafePointer<UInt32>
) {
    let m = _mm256_set1_epi32(multiplier)
    let round = _mm256_set1_epi32(shift > 0 ? 1 &<< (shift &- 1) : 0)
    let inputShift = _mm_cvtsi32_si128(shift)
    let fractionBits = _mm_cvtsi32_si128(logistic ? 9 : 8)
    let fractionMask = _mm256_set1_epi32(logistic ? 511 : 255)
    let lastNode = _mm256_set1_epi32(255)
    let low16 = _mm256_set1_epi32(0xFFFF)
    // y = (d ≥ 0 ? v + positiveBias : negativeBias − v) >> outputShift
    let positiveBias = _mm256_set1_epi32(logistic ? 1 << 9 : (1 << 7) - (1 << 23))
    let negativeBias = _mm256_set1_epi32(logistic ? (1 << 25) + (1 << 9) - 1 : (1 << 23) + (1 << 7) - 1)
    let outputShift = _mm_cvtsi32_si128(logistic ? 10 : 8)
    let t = UnsafeRawPointer(nodes)
    let order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)

    @inline(__always) func eight(_ p: UnsafeRawPointer) -> __m256i {
        let codes = _mm256_cvtepi16_epi32(p.loadUnaligned(as: __m128i.self))
        let d = _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(codes, m), round), inputShift)
        let a = _mm256_abs_epi32(d) // Int32.min stays 0x8000_0000, i.e. 2^31 unsigned
        let j = unsafeBitCast(_mm256_min_epu32(_mm256_srl_epi32(a, fractionBits), lastNode), to: SIMD8<Int32>.self)
        @inline(__always) func node(_ k: Int) -> Int32 {
            t.load(fromByteOffset: 4 * Int(j[k]), as: Int32.self)
        }
        let n = _mm256_setr_epi32(node(0), node(1), node(2), node(3), node(4), node(5), node(6), node(7))
        let base = _mm256_sll_epi32(_mm256_and_si256(n, low16), fractionBits)
        let v = _mm256_add_epi32(
            base, _mm256_mullo_epi32(_mm256_and_si256(a, fractionMask), _mm256_srli_epi32(n, 16)))
        let r = _mm256_blendv_epi8(
            _mm256_add_epi32(v, positiveBias), _mm256_sub_epi32(negativeBias, v), _mm256_srai_epi32(d, 31))
        return _mm256_sra_epi32(r, outputShift)
    }

    let input = UnsafeRawPointer(x), output = UnsafeMutableRawPointer(y)
    var i = 0
    while i + 16 <= count {
        let low = eight(input + 2 * i), high = eight(input + 2 * i + 16)
        // vpackssdw packs within 128-bit lanes; vpermd restores the order.
        let packed = _mm256_permutevar8x32_epi32(_mm256_packs_epi32(low, high), order)
        (output + 2 * i).storeBytes(of: packed, as: __m256i.self)
        i += 16
    }
    guard i < count else { return }
    if logistic {
        SigmoidInterpolationS16.logistic(
            x + i, y + i, count: count - i, multiplier: multiplier, shift: shift, nodes: nodes)
    } else {
        SigmoidInterpolationS16.tanh(x + i, y + i, count: count - i, multiplier: multiplier, shift: shift, nodes: nodes)
    }
}
#endif
