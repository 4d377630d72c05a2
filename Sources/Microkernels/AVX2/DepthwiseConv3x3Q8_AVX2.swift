#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// One output row of a 3×3 depthwise convolution on 8-bit codes for x86-64-v3, in exact
/// `Int32` arithmetic, eight channels per `ymm`:
///
///     out[ox·C + c] = Σ_{ky, kx} code(r_ky[(ox·stride - padLeft + kx)·C + c]) · w[(3·ky + kx)·C + c]
///
/// where `code(b)` is the byte read as `Int8` (`signed`) or `UInt8`, and `w` holds the
/// centered weights `w - zw` as `Int32`, `[9, C]`. Taps outside the input, and whole rows
/// in the padding (`r0`, `r1`, `r2` nil), read `padding`, `C` bytes. With the padding
/// filled with the input zero point `zx` and the caller adding `bias - zx·Σ w` per
/// channel, each sum becomes TFLite's `bias + Σ (x - zx)·(w - zw)` over the in-image taps:
/// a padding tap adds `zx·w`, which that term takes away again. Every product and sum is an
/// integer far inside `Int32` (`9·255·255`), so the result does not depend on the order.
///
/// Each tap is one sign- or zero-extending load (`vpmovsxbd`/`vpmovzxbd`), one
/// `vpmulld` and one `vpaddd`; the raw bytes are read in place, with no centered copy of the
/// input. Interior pixels of a row whose three input rows are present go channel block by
/// channel block along the row, the block's nine weight vectors held in registers; border
/// pixels go one at a time through nine tap pointers. Channels past the last multiple of 8
/// are summed one by one, so nothing is read past a tap's `C` bytes.
@inline(never)
public func depthwiseConv3x3Q8AVX2(
    _ shape: Depthwise3x3Row, signed: Bool,
    _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
    padding: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, out: UnsafeMutablePointer<Int32>
) {
    guard shape.channels > 0, shape.outputWidth > 0 else { return }
    if signed {
        Depthwise3x3Q8WalkAVX2<SignedCodes>(shape: shape, w: weights).row(r0, r1, r2, padding: padding, out: out)
    } else {
        Depthwise3x3Q8WalkAVX2<UnsignedCodes>(shape: shape, w: weights).row(r0, r1, r2, padding: padding, out: out)
    }
}

/// How a walk widens eight bytes to `Int32` lanes, and one byte to `Int32`.
protocol CodeWidening {
    static func widen(_ p: UnsafePointer<UInt8>) -> __m256i
    static func code(_ b: UInt8) -> Int32
}

enum SignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>) -> __m256i {
        _mm256_cvtepi8_epi32(_mm_loadl_epi64(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self)))
    }
    @inline(__always) static func code(_ b: UInt8) -> Int32 { Int32(Int8(bitPattern: b)) }
}

enum UnsignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>) -> __m256i {
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self)))
    }
    @inline(__always) static func code(_ b: UInt8) -> Int32 { Int32(b) }
}

/// The loops of ``depthwiseConv3x3Q8AVX2(_:signed:_:_:_:padding:weights:out:)``,
/// specialized for each ``CodeWidening``.
private struct Depthwise3x3Q8WalkAVX2<Codes: CodeWidening> {
    let shape: Depthwise3x3Row
    let w: UnsafePointer<Int32>

    @inline(__always)
    func weight(_ tap: Int, _ c: Int) -> __m256i {
        UnsafeRawPointer(w + tap * shape.channels + c).loadUnaligned(as: __m256i.self)
    }

    @inline(__always)
    func store(_ v: __m256i, _ o: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(o).storeBytes(of: v, as: __m256i.self)
    }

    @inline(__always)
    func mac(_ acc: __m256i, _ p: UnsafePointer<UInt8>, _ k: __m256i) -> __m256i {
        _mm256_add_epi32(acc, _mm256_mullo_epi32(Codes.widen(p), k))
    }

    @inline(__always)
    func row(
        _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
        padding: UnsafePointer<UInt8>, out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape, C = s.channels
        var interior = 0 ..< 0
        if let r0, let r1, let r2, !s.interior.isEmpty, C >= 8 {
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

    /// `pixels` interior pixels whose windows start at `a`, `d`, `e`, `step` bytes apart:
    /// whole channel blocks along the row, then the remaining channels pixel by pixel.
    @inline(__always)
    func run(
        _ a: UnsafePointer<UInt8>, _ d: UnsafePointer<UInt8>, _ e: UnsafePointer<UInt8>, step: Int, pixels: Int,
        out: UnsafeMutablePointer<Int32>
    ) {
        let C = shape.channels
        var c = 0
        while c + 8 <= C {
            let w0 = weight(0, c), w1 = weight(1, c), w2 = weight(2, c)
            let w3 = weight(3, c), w4 = weight(4, c), w5 = weight(5, c)
            let w6 = weight(6, c), w7 = weight(7, c), w8 = weight(8, c)
            var a = a + c, d = d + c, e = e + c, o = out + c
            var n = pixels
            while n > 0 {
                var acc = _mm256_mullo_epi32(Codes.widen(a), w0)
                acc = mac(acc, a + C, w1)
                acc = mac(acc, a + 2 * C, w2)
                acc = mac(acc, d, w3)
                acc = mac(acc, d + C, w4)
                acc = mac(acc, d + 2 * C, w5)
                acc = mac(acc, e, w6)
                acc = mac(acc, e + C, w7)
                acc = mac(acc, e + 2 * C, w8)
                store(acc, o)
                a += step; d += step; e += step; o += C
                n -= 1
            }
            c += 8
        }
        guard c < C else { return }
        for i in 0 ..< pixels {
            let a = a + i * step, d = d + i * step, e = e + i * step
            scalarChannels(
                from: c, (a, a + C, a + 2 * C), (d, d + C, d + 2 * C), (e, e + C, e + 2 * C), out: out + i * C)
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
        while c + 8 <= C {
            var acc = _mm256_mullo_epi32(Codes.widen(t0.0 + c), weight(0, c))
            acc = mac(acc, t0.1 + c, weight(1, c))
            acc = mac(acc, t0.2 + c, weight(2, c))
            acc = mac(acc, t1.0 + c, weight(3, c))
            acc = mac(acc, t1.1 + c, weight(4, c))
            acc = mac(acc, t1.2 + c, weight(5, c))
            acc = mac(acc, t2.0 + c, weight(6, c))
            acc = mac(acc, t2.1 + c, weight(7, c))
            acc = mac(acc, t2.2 + c, weight(8, c))
            store(acc, out + c)
            c += 8
        }
        if c < C { scalarChannels(from: c, t0, t1, t2, out: out) }
    }

    /// Channels `first ..< C` of one pixel, one at a time.
    @inline(__always)
    func scalarChannels(
        from first: Int,
        _ t0: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        _ t1: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        _ t2: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>), out: UnsafeMutablePointer<Int32>
    ) {
        let C = shape.channels
        for c in first ..< C {
            @inline(__always) func product(_ p: UnsafePointer<UInt8>, _ tap: Int) -> Int32 {
                Codes.code(p[c]) &* w[tap * C + c]
            }
            var acc = product(t0.0, 0)
            acc &+= product(t0.1, 1)
            acc &+= product(t0.2, 2)
            acc &+= product(t1.0, 3)
            acc &+= product(t1.1, 4)
            acc &+= product(t1.2, 5)
            acc &+= product(t2.0, 6)
            acc &+= product(t2.1, 7)
            acc &+= product(t2.2, 8)
            out[c] = acc
        }
    }
}
#endif
