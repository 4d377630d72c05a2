#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// One output row of a 3×3 depthwise convolution on 8-bit codes for AVX-512, in exact
/// `Int32` arithmetic, sixteen channels per `zmm`; the contract of the AVX2 level's
/// `depthwiseConv3x3Q8AVX2`:
///
///     out[ox·C + c] = Σ_{ky, kx} code(r_ky[(ox·stride - padLeft + kx)·C + c]) · w[(3·ky + kx)·C + c]
///
/// where `code(b)` is the byte read as `Int8` (`signed`) or `UInt8`, and `w` holds the
/// centered weights `w - zw` as `Int32`, `[9, C]`. Taps outside the input, and whole rows
/// in the padding (`r0`, `r1`, `r2` nil), read `padding`, `C` bytes; the caller turns the
/// all-tap sum into TFLite's in-image sum with its per-channel term. Every product and sum
/// is an integer far inside `Int32` (`9·255·255`), so the order does not matter.
///
/// Each tap is one widening load (`vpmovsxbd`/`vpmovzxbd` of 16 bytes), one `vpmulld` and
/// one `vpaddd`. The channels past the last multiple of 16 run the same code under a lane
/// mask (masked byte loads read nothing past a tap's `C` bytes), so there is no scalar
/// tail. Interior pixels go channel block by channel block along the row with the block's
/// nine weight vectors in registers; border pixels go one at a time through nine tap
/// pointers.
@inline(never)
public func depthwiseConv3x3Q8AVX512(
    _ shape: Depthwise3x3Row, signed: Bool,
    _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
    padding: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, out: UnsafeMutablePointer<Int32>
) {
    guard shape.channels > 0, shape.outputWidth > 0 else { return }
    if signed {
        Depthwise3x3Q8WalkAVX512<SignedCodes>(shape: shape, w: weights).row(r0, r1, r2, padding: padding, out: out)
    } else {
        Depthwise3x3Q8WalkAVX512<UnsignedCodes>(shape: shape, w: weights).row(r0, r1, r2, padding: padding, out: out)
    }
}

/// How a walk widens sixteen bytes (the lanes of `k`) to `Int32` lanes.
private protocol CodeWidening {
    static func widen(_ p: UnsafePointer<UInt8>, _ k: __mmask16) -> __m512i
}

private enum SignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>, _ k: __mmask16) -> __m512i {
        _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, UnsafeRawPointer(p)))
    }
}

private enum UnsignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>, _ k: __mmask16) -> __m512i {
        _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(k, UnsafeRawPointer(p)))
    }
}

/// The loops of ``depthwiseConv3x3Q8AVX512(_:signed:_:_:_:padding:weights:out:)``,
/// specialized for each ``CodeWidening``.
private struct Depthwise3x3Q8WalkAVX512<Codes: CodeWidening> {
    let shape: Depthwise3x3Row
    let w: UnsafePointer<Int32>

    /// The lanes of the channel block starting at `c`.
    @inline(__always)
    func lanes(_ c: Int) -> __mmask16 {
        __mmask16(truncatingIfNeeded: (1 << Swift.min(16, shape.channels - c)) - 1)
    }

    @inline(__always)
    func weight(_ tap: Int, _ c: Int, _ k: __mmask16) -> __m512i {
        _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(w + tap * shape.channels + c))
    }

    @inline(__always)
    func mac(_ acc: __m512i, _ p: UnsafePointer<UInt8>, _ w: __m512i, _ k: __mmask16) -> __m512i {
        _mm512_add_epi32(acc, _mm512_mullo_epi32(Codes.widen(p, k), w))
    }

    @inline(__always)
    func row(
        _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
        padding: UnsafePointer<UInt8>, out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape, C = s.channels
        var interior = 0 ..< 0
        if let r0, let r1, let r2, !s.interior.isEmpty {
            interior = s.interior
            let first = (interior.lowerBound * s.stride - s.padLeft) * C
            run(
                r0 + first, r1 + first, r2 + first, step: s.stride * C, pixels: interior.count,
                out: out + interior.lowerBound * C)
        }
        for ox in 0 ..< s.outputWidth where !interior.contains(ox) {
            pixel(
                s.taps(r0, column: ox, fill: padding), s.taps(r1, column: ox, fill: padding),
                s.taps(r2, column: ox, fill: padding), out: out + ox * C)
        }
    }

    /// `pixels` interior pixels whose windows start at `a`, `d`, `e`, `step` bytes apart,
    /// one channel block at a time along the row.
    @inline(__always)
    func run(
        _ a: UnsafePointer<UInt8>, _ d: UnsafePointer<UInt8>, _ e: UnsafePointer<UInt8>, step: Int, pixels: Int,
        out: UnsafeMutablePointer<Int32>
    ) {
        let C = shape.channels
        var c = 0
        while c < C {
            let k = lanes(c)
            let w0 = weight(0, c, k), w1 = weight(1, c, k), w2 = weight(2, c, k)
            let w3 = weight(3, c, k), w4 = weight(4, c, k), w5 = weight(5, c, k)
            let w6 = weight(6, c, k), w7 = weight(7, c, k), w8 = weight(8, c, k)
            var a = a + c, d = d + c, e = e + c, o = out + c
            var n = pixels
            while n > 0 {
                var acc = _mm512_mullo_epi32(Codes.widen(a, k), w0)
                acc = mac(acc, a + C, w1, k)
                acc = mac(acc, a + 2 * C, w2, k)
                acc = mac(acc, d, w3, k)
                acc = mac(acc, d + C, w4, k)
                acc = mac(acc, d + 2 * C, w5, k)
                acc = mac(acc, e, w6, k)
                acc = mac(acc, e + C, w7, k)
                acc = mac(acc, e + 2 * C, w8, k)
                _mm512_mask_storeu_epi32(UnsafeMutableRawPointer(o), k, acc)
                a += step; d += step; e += step; o += C
                n -= 1
            }
            c += 16
        }
    }

    /// One pixel from its nine tap pointers.
    @inline(__always)
    func pixel(
        _ t0: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        _ t1: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        _ t2: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>), out: UnsafeMutablePointer<Int32>
    ) {
        let C = shape.channels
        var c = 0
        while c < C {
            let k = lanes(c)
            var acc = _mm512_mullo_epi32(Codes.widen(t0.0 + c, k), weight(0, c, k))
            acc = mac(acc, t0.1 + c, weight(1, c, k), k)
            acc = mac(acc, t0.2 + c, weight(2, c, k), k)
            acc = mac(acc, t1.0 + c, weight(3, c, k), k)
            acc = mac(acc, t1.1 + c, weight(4, c, k), k)
            acc = mac(acc, t1.2 + c, weight(5, c, k), k)
            acc = mac(acc, t2.0 + c, weight(6, c, k), k)
            acc = mac(acc, t2.1 + c, weight(7, c, k), k)
            acc = mac(acc, t2.2 + c, weight(8, c, k), k)
            _mm512_mask_storeu_epi32(UnsafeMutableRawPointer(out + c), k, acc)
            c += 16
        }
    }
}
#endif
