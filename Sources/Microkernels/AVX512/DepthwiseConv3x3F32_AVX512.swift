#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// One output row of a 3×3 depthwise convolution (``Depthwise3x3Row``) for AVX-512,
/// sixteen channels per `zmm`, each tap one fused multiply-add:
///
///     out[ox·C + c] = clamp(start + Σ_t x_t[c] · w_t[c] + bias[c], lower, upper)
///
/// with the nine taps summed in `(ky, kx)` order, each rounded once (FMA). `r0`, `r1`,
/// `r2` are the window's input rows, nil for a row in the padding; taps in the padding read
/// `zero` (`C` zeros). The bias and clamp are skipped when `bias` is nil and the bounds are
/// infinite (a convolution without bias or activation).
///
/// The loops are ``Depthwise3x3F32Walk``'s, as at the AVX2 level (whose `rowRuns` test the
/// runtime keeps), specialized here for sixteen channels per `zmm`: twice the lanes halve
/// the loads, FMAs and loop steps per pixel. A channel count that is not a multiple of 16
/// ends with a block under a lane mask (zero-masking loads, masked stores), which reads and
/// writes nothing past channel `C - 1`.
@inline(never)
public func depthwiseConv3x3F32AVX512(
    _ shape: Depthwise3x3Row, rowRuns: Bool,
    _ r0: UnsafePointer<Float>?, _ r1: UnsafePointer<Float>?, _ r2: UnsafePointer<Float>?,
    zero: UnsafePointer<Float>, weights: UnsafePointer<Float>, start: Float,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float,
    out: UnsafeMutablePointer<Float>
) {
    Depthwise3x3F32Walk<LanesAVX512, Depthwise3x3SumsOnly>.row(
        shape, rowRuns: rowRuns, r0, r1, r2, zero: zero, weights: weights, start: start, bias: bias, lower: lower,
        upper: upper, out: out)
}

/// Sixteen channels per `zmm`; the tail under a lane mask (zero-masking loads, masked
/// stores).
private struct LanesAVX512: Depthwise3x3F32Lanes {
    static var width: Int { 16 }
    let tail: __mmask16

    @inline(__always)
    init(channels: Int) { tail = __mmask16(truncatingIfNeeded: (1 << (channels & 15)) - 1) }

    @inline(__always)
    func splat(_ x: Float) -> SIMD16<Float> { SIMD16(repeating: x) }

    @inline(__always)
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> SIMD16<Float> {
        masked ? _mm512_maskz_loadu_ps(tail, p) : _mm512_loadu_ps(p)
    }

    @inline(__always)
    func store(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>, _ masked: Bool) {
        if masked { _mm512_mask_storeu_ps(p, tail, v) } else { _mm512_storeu_ps(p, v) }
    }

    @inline(__always)
    func fma(_ x: SIMD16<Float>, _ k: SIMD16<Float>, _ acc: SIMD16<Float>) -> SIMD16<Float> {
        _mm512_fmadd_ps(x, k, acc)
    }

    @inline(__always)
    func add(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> { a + b }

    /// vmaxps/vminps: the generic SIMD min/max are out-of-line calls.
    @inline(__always)
    func clamp(_ v: SIMD16<Float>, _ lower: SIMD16<Float>, _ upper: SIMD16<Float>) -> SIMD16<Float> {
        _mm512_min_ps(upper, _mm512_max_ps(lower, v))
    }
}
#endif
