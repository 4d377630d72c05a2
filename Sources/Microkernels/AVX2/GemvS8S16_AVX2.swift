#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The exact sums of an 8-bit matrix-vector product, for x86-64-v3:
///
///     acc[o] = Σ_k w[o, k] · x[k]        in wrapping Int32, for o in 0 ..< n
///
/// with `w` the model's 8-bit codes (row-major, `ldw` bytes apart; `signed` says int8,
/// else uint8) and `x` centered activations as `Int16` (`|x| ≤ 255`). Sixteen codes of a
/// row are widened to `Int16` (`vpmovsxbw` / `vpmovzxbw`) and multiplied pairwise with
/// `vpmaddwd`; each product and pair sum is exact, and wrapping addition makes the sum
/// TFLite's `int32` accumulator whatever the order. Four rows share each load of `x`.
@inline(never)
public func gemvS8S16AVX2(
    n: Int, k: Int, w: UnsafeRawPointer, ldw: Int, signed: Bool,
    x: UnsafePointer<Int16>, acc: UnsafeMutablePointer<Int32>
) {
    let vectorDepth = k & ~15
    @inline(__always) func widen(_ p: UnsafeRawPointer) -> __m256i {
        let bytes = p.loadUnaligned(as: __m128i.self)
        return signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes)
    }
    @inline(__always) func finish(_ v: __m256i, row o: Int) {
        let lanes = unsafeBitCast(v, to: SIMD8<Int32>.self)
        var s = lanes.wrappedSum()
        let r = w + o * ldw
        for d in vectorDepth ..< k {
            let code =
                signed
                ? Int32(r.load(fromByteOffset: d, as: Int8.self)) : Int32(r.load(fromByteOffset: d, as: UInt8.self))
            s = s &+ code &* Int32(x[d])
        }
        acc[o] = s
    }
    var o = 0
    while o + 4 <= n {
        let r0 = w + o * ldw, r1 = r0 + ldw, r2 = r1 + ldw, r3 = r2 + ldw
        var a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256()
        var a2 = _mm256_setzero_si256(), a3 = _mm256_setzero_si256()
        var d = 0
        while d < vectorDepth {
            let v = UnsafeRawPointer(x + d).loadUnaligned(as: __m256i.self)
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(widen(r0 + d), v))
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(widen(r1 + d), v))
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(widen(r2 + d), v))
            a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(widen(r3 + d), v))
            d += 16
        }
        finish(a0, row: o)
        finish(a1, row: o + 1)
        finish(a2, row: o + 2)
        finish(a3, row: o + 3)
        o += 4
    }
    while o < n {
        let r0 = w + o * ldw
        var a0 = _mm256_setzero_si256()
        var d = 0
        while d < vectorDepth {
            a0 = _mm256_add_epi32(
                a0, _mm256_madd_epi16(widen(r0 + d), UnsafeRawPointer(x + d).loadUnaligned(as: __m256i.self)))
            d += 16
        }
        finish(a0, row: o)
        o += 1
    }
}
#endif
