#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// One output row of a 5×5 depthwise convolution (``DepthwiseKxKRow`` with `size` 5) for
/// x86-64-v3, eight channels per `ymm`:
///
///     out[ox·P + c] = clamp(Σ_t x_t[c] · w_t[c] + bias[c], lower, upper)
///
/// the 25 taps summed from zero in `(ky, kx)` order, each one fused multiply-add. `rows`
/// holds the window's five input rows (a row of zeros for each row in the padding); taps
/// left or right of a row read `fill` (zeros). The bias and clamp are skipped when `bias`
/// is nil and the bounds are infinite. The loops are ``DepthwiseKxKF32Walk``'s with the
/// 3×3 row's lanes (`vmaskmovps` for the channel tail).
@inline(never)
public func depthwiseConv5x5F32AVX2(
    _ shape: DepthwiseKxKRow, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<Float>>,
    fill: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, lower: Float,
    upper: Float, out: UnsafeMutablePointer<Float>
) {
    DepthwiseKxKF32Walk<DepthwiseKernel5x5, LanesAVX2, Depthwise3x3SumsOnly>.row(
        shape, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights, bias: bias, lower: lower,
        upper: upper, out: out)
}

/// One output row of the exact 8-bit 5×5 depthwise convolution in `Int32`
/// (``DepthwiseKxKQ8Walk``'s contract: centered `Int32` weights `[25, P]`, taps in the
/// padding reading `fill`, the caller adding `bias - zx·Σ w` per channel), eight channels
/// per `ymm`: each tap is a widening byte load (`vpmovsxbd`/`vpmovzxbd`, `signed` choosing
/// `Int8` or `UInt8` codes), one `vpmulld` and one `vpaddd`, straight from the input's
/// bytes.
@inline(never)
public func depthwiseConv5x5Q8AVX2(
    _ shape: DepthwiseKxKRow, signed: Bool, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<UInt8>>,
    fill: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, out: UnsafeMutablePointer<Int32>
) {
    if signed {
        DepthwiseKxKQ8Walk<DepthwiseKernel5x5, CodeLanesAVX2<SignedCodes>>(shape, weights: weights)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
    } else {
        DepthwiseKxKQ8Walk<DepthwiseKernel5x5, CodeLanesAVX2<UnsignedCodes>>(shape, weights: weights)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
    }
}

/// Eight `Int32` sums per `ymm`, codes widened by `Codes`.
private enum CodeLanesAVX2<Codes: CodeWidening>: DepthwiseQ8Lanes {
    static var width: Int { 8 }
    static var zero: __m256i { _mm256_setzero_si256() }

    @inline(__always)
    static func mac(_ acc: __m256i, _ p: UnsafePointer<UInt8>, _ w: UnsafePointer<Int32>) -> __m256i {
        _mm256_add_epi32(acc, _mm256_mullo_epi32(Codes.widen(p), UnsafeRawPointer(w).loadUnaligned(as: __m256i.self)))
    }

    @inline(__always)
    static func store(_ v: __m256i, _ o: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(o).storeBytes(of: v, as: __m256i.self)
    }

    @inline(__always)
    static func code(_ b: UInt8) -> Int32 { Codes.code(b) }
}
#endif
