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
/// is nil and the bounds are infinite. The loops are ``DepthwiseKxKWalk``'s with the 3×3
/// row's lanes (`vmaskmovps` for the channel tail).
@inline(never)
public func depthwiseConv5x5F32AVX2(
    _ shape: DepthwiseKxKRow, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<Float>>,
    fill: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, lower: Float,
    upper: Float, out: UnsafeMutablePointer<Float>
) {
    depthwiseKxKF32Row(
        DepthwiseKernel5x5.self, LanesAVX2.self, shape, channelsOutside: channelsOutside, rows: rows, fill: fill,
        weights: weights, bias: bias, lower: lower, upper: upper, out: out)
}

/// One output row of the exact 8-bit 5×5 depthwise convolution in `Int32`
/// (the contract of `depthwiseConv5x5Q8Portable`: centered `Int32` weights `[25, P]`, taps in the
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
        depthwiseKxKRow(
            DepthwiseKernel5x5.self, shape, CodeLanesAVX2<SignedCodes, Int8>(channels: shape.channels),
            typedStrides: 2 ... 2, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights,
            out: out)
    } else {
        depthwiseKxKRow(
            DepthwiseKernel5x5.self, shape, CodeLanesAVX2<UnsignedCodes, UInt8>(channels: shape.channels),
            typedStrides: 2 ... 2, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights,
            out: out)
    }
}

/// Eight `Int32` sums per `ymm`, codes widened by `Codes` (`Code` the same type for the
/// channel tail, gathered lane by lane).
private struct CodeLanesAVX2<Codes: CodeWidening, Code: FixedWidthInteger>: DepthwiseKxKLanes {
    typealias Input = UInt8
    typealias Weight = Int32
    typealias Output = Int32
    static var width: Int { 8 }
    let tail: Int

    @inline(__always) init(channels: Int) { tail = channels & 7 }

    var zero: __m256i { _mm256_setzero_si256() }

    @inline(__always)
    func mac(_ acc: __m256i, _ p: UnsafePointer<UInt8>, _ w: UnsafePointer<Int32>, _ masked: Bool) -> __m256i {
        guard !masked else {
            let sum =
                unsafeBitCast(acc, to: SIMD8<Int32>.self)
                &+ DepthwiseTail.codes(p, Code.self, tail) &* DepthwiseTail.weights(w, tail)
            return unsafeBitCast(sum, to: __m256i.self)
        }
        return _mm256_add_epi32(
            acc, _mm256_mullo_epi32(Codes.widen(p), UnsafeRawPointer(w).loadUnaligned(as: __m256i.self)))
    }

    @inline(__always)
    func finish(_ v: __m256i, _ o: UnsafeMutablePointer<Int32>, channel _: Int, _ masked: Bool) {
        if masked {
            DepthwiseTail.store(unsafeBitCast(v, to: SIMD8<Int32>.self), o, tail)
        } else {
            UnsafeMutableRawPointer(o).storeBytes(of: v, as: __m256i.self)
        }
    }
}
#endif
