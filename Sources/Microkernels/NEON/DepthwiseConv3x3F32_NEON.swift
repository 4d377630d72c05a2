#if arch(arm64)
import _Builtin_intrinsics.arm.neon
import Microkernels

/// One output row of a 3×3 depthwise convolution (``Depthwise3x3Row``) for aarch64
/// Advanced SIMD, four channels per vector, each tap one fused multiply-add:
///
///     out[ox·C + c] = clamp(start + Σ_t x_t[c] · w_t[c] + bias[c], lower, upper)
///
/// with the nine taps summed in `(ky, kx)` order, each rounded once (FMA). `r0`, `r1`,
/// `r2` are the window's input rows, nil for a row in the padding; taps in the padding read
/// `zero` (`C` zeros). The bias and clamp are skipped when `bias` is nil and the bounds are
/// infinite (a convolution without bias or activation).
///
/// The loops are ``Depthwise3x3F32Walk``'s, specialized here for four channels per
/// vector. NEON has no masked loads: a channel count that is not a multiple of 4 ends with
/// a block gathered and stored lane by lane, which reads and writes nothing past channel
/// `C - 1`.
@export(interface) @inline(never)
public func depthwiseConv3x3F32NEON(
    _ shape: Depthwise3x3Row, rowRuns: Bool,
    _ r0: UnsafePointer<Float>?, _ r1: UnsafePointer<Float>?, _ r2: UnsafePointer<Float>?,
    zero: UnsafePointer<Float>, weights: UnsafePointer<Float>, start: Float,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float,
    out: UnsafeMutablePointer<Float>
) {
    Depthwise3x3F32Walk<LanesNEON, Depthwise3x3SumsOnly>.row(
        shape, rowRuns: rowRuns, r0, r1, r2, zero: zero, weights: weights, start: start, bias: bias, lower: lower,
        upper: upper, out: out)
}

/// Four channels per vector; the tail of `C mod 4` channels lane by lane.
private struct LanesNEON: Depthwise3x3F32Lanes {
    static var width: Int { 4 }
    let tail: Int

    @inline(__always)
    init(channels: Int) { tail = channels & 3 }

    @inline(__always)
    func splat(_ x: Float) -> SIMD4<Float> { SIMD4(repeating: x) }

    @inline(__always)
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> SIMD4<Float> {
        guard masked else { return UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self) }
        var v = SIMD4<Float>()
        for i in 0 ..< tail { v[i] = p[i] }
        return v
    }

    @inline(__always)
    func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>, _ masked: Bool) {
        guard masked else {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
            return
        }
        for i in 0 ..< tail { p[i] = v[i] }
    }

    @inline(__always)
    func fma(_ x: SIMD4<Float>, _ k: SIMD4<Float>, _ acc: SIMD4<Float>) -> SIMD4<Float> { vfmaq_f32(acc, x, k) }

    @inline(__always)
    func add(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a + b }

    /// FMAX/FMIN: a NaN stays NaN, as in the reference's min(max(x, lower), upper).
    @inline(__always)
    func clamp(_ v: SIMD4<Float>, _ lower: SIMD4<Float>, _ upper: SIMD4<Float>) -> SIMD4<Float> {
        vminq_f32(vmaxq_f32(v, lower), upper)
    }
}
#endif
