#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// One output row of a 3×3 depthwise convolution (``Depthwise3x3Row``) for x86-64-v3,
/// eight channels per `ymm`, each tap one fused multiply-add:
///
///     out[ox·C + c] = clamp(start + Σ_t x_t[c] · w_t[c] + bias[c], lower, upper)
///
/// with the nine taps summed in `(ky, kx)` order, each rounded once (FMA). `r0`, `r1`,
/// `r2` are the window's input rows, nil for a row in the padding; taps in the padding read
/// `zero` (`C` zeros). The bias and clamp are skipped when `bias` is nil and the bounds are
/// infinite (a convolution without bias or activation).
///
/// The loops are ``Depthwise3x3F32Walk``'s, specialized here for eight channels per
/// `ymm`; a channel count that is not a multiple of 8 ends with a masked block
/// (`vmaskmovps`), which reads and writes nothing past channel `C - 1`.
@inline(never)
public func depthwiseConv3x3F32AVX2(
    _ shape: Depthwise3x3Row, rowRuns: Bool,
    _ r0: UnsafePointer<Float>?, _ r1: UnsafePointer<Float>?, _ r2: UnsafePointer<Float>?,
    zero: UnsafePointer<Float>, weights: UnsafePointer<Float>, start: Float,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float,
    out: UnsafeMutablePointer<Float>
) {
    Depthwise3x3F32Walk<LanesAVX2, Depthwise3x3SumsOnly>.row(
        shape, rowRuns: rowRuns, r0, r1, r2, zero: zero, weights: weights, start: start, bias: bias, lower: lower,
        upper: upper, out: out)
}

/// Eight channels per `ymm`; the tail through `vmaskmovps` (also the 5×5 rows' lanes).
struct LanesAVX2: Depthwise3x3F32Lanes {
    static var width: Int { 8 }
    let tail: __m256i

    @inline(__always)
    init(channels: Int) {
        let rest = Int32(truncatingIfNeeded: channels & 7)
        tail = _mm256_cmpgt_epi32(_mm256_set1_epi32(rest), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
    }

    @inline(__always)
    func splat(_ x: Float) -> SIMD8<Float> { SIMD8(repeating: x) }

    @inline(__always)
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> SIMD8<Float> {
        masked ? _mm256_maskload_ps(p, tail) : UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ masked: Bool) {
        if masked {
            _mm256_maskstore_ps(p, tail, v)
        } else {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
        }
    }

    @inline(__always)
    func fma(_ x: SIMD8<Float>, _ k: SIMD8<Float>, _ acc: SIMD8<Float>) -> SIMD8<Float> { _mm256_fmadd_ps(x, k, acc) }

    @inline(__always)
    func add(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }

    /// vmaxps/vminps (the generic SIMD min/max are out-of-line calls), the value second so
    /// that a NaN passes through, as in TFLite's clamp.
    @inline(__always)
    func clamp(_ v: SIMD8<Float>, _ lower: SIMD8<Float>, _ upper: SIMD8<Float>) -> SIMD8<Float> {
        _mm256_min_ps(upper, _mm256_max_ps(lower, v))
    }
}
#endif
