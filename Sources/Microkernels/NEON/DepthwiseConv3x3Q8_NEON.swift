#if arch(arm64)
import _Builtin_intrinsics.arm.neon
import Microkernels

/// One output row of a 3×3 depthwise convolution on 8-bit codes for aarch64 Advanced SIMD,
/// in exact integer arithmetic, eight channels per step:
///
///     out[ox·C + c] = Σ_{ky, kx} code(r_ky[(ox·stride - padLeft + kx)·C + c]) · w[(3·ky + kx)·C + c]
///
/// the contract of the x86-64 row kernels (`depthwiseConv3x3Q8AVX2`): `code(b)` is the byte
/// read as `Int8` (`signed`) or `UInt8`, `w` holds the centered weights `w - zw` as `Int32`,
/// `[9, C]`; taps outside the input, and whole rows in the padding (`r0`, `r1`, `r2` nil),
/// read `padding`, `C` bytes. With the padding filled with the input zero point `zx` and
/// the caller adding `bias - zx·Σ w` per channel, each sum is TFLite's
/// `bias + Σ (x - zx)·(w - zw)` over the in-image taps.
///
/// Codes and centered weights both fit `Int16` (`|w - zw| ≤ 255`), so each tap is one
/// widening byte load (`SXTL`/`UXTL` to eight `Int16`) and two widening multiply-adds
/// (`SMLAL`, `SMLAL2`) into two `Int32` vectors: every product (at most 255·255) and sum
/// (nine of them) is exact, so the result does not depend on the order. Interior pixels of
/// a row whose three input rows are present go channel block by channel block along the
/// row, the block's nine weight vectors narrowed to `Int16` once and held in registers;
/// border pixels go one at a time through nine tap pointers. Channels past the last
/// multiple of 8 are summed one by one, so nothing is read past a tap's `C` bytes.
@export(interface) @inline(never)
public func depthwiseConv3x3Q8NEON(
    _ shape: Depthwise3x3Row, signed: Bool,
    _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
    padding: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, out: UnsafeMutablePointer<Int32>
) {
    guard shape.channels > 0, shape.outputWidth > 0 else { return }
    if signed {
        Depthwise3x3Q8WalkNEON<SignedCodes>(shape: shape, w: weights).row(r0, r1, r2, padding: padding, out: out)
    } else {
        Depthwise3x3Q8WalkNEON<UnsignedCodes>(shape: shape, w: weights).row(r0, r1, r2, padding: padding, out: out)
    }
}

/// How a walk widens eight bytes to `Int16` lanes, and one byte to `Int32`.
private protocol CodeWidening {
    static func widen(_ p: UnsafePointer<UInt8>) -> SIMD8<Int16>
    static func code(_ b: UInt8) -> Int32
}

private enum SignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>) -> SIMD8<Int16> {
        vmovl_s8(UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int8>.self))
    }
    @inline(__always) static func code(_ b: UInt8) -> Int32 { Int32(Int8(bitPattern: b)) }
}

private enum UnsignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>) -> SIMD8<Int16> {
        unsafeBitCast(vmovl_u8(UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)), to: SIMD8<Int16>.self)
    }
    @inline(__always) static func code(_ b: UInt8) -> Int32 { Int32(b) }
}

/// Eight channels' `Int32` sums.
private struct Sums8 {
    var lo: SIMD4<Int32>, hi: SIMD4<Int32>

    /// The first tap's products `x · k`.
    @inline(__always)
    init(_ x: SIMD8<Int16>, _ k: SIMD8<Int16>) {
        lo = vmull_s16(x.lowHalf, k.lowHalf)
        hi = vmull_high_s16(x, k)
    }

    /// `self += x · k`, widened (`SMLAL`, `SMLAL2`).
    @inline(__always)
    mutating func add(_ x: SIMD8<Int16>, _ k: SIMD8<Int16>) {
        lo = vmlal_s16(lo, x.lowHalf, k.lowHalf)
        hi = vmlal_high_s16(hi, x, k)
    }

    @inline(__always)
    func store(_ o: UnsafeMutablePointer<Int32>) {
        let p = UnsafeMutableRawPointer(o)
        p.storeBytes(of: lo, as: SIMD4<Int32>.self)
        p.storeBytes(of: hi, toByteOffset: 16, as: SIMD4<Int32>.self)
    }
}

/// The loops of ``depthwiseConv3x3Q8NEON(_:signed:_:_:_:padding:weights:out:)``,
/// specialized for each ``CodeWidening``.
private struct Depthwise3x3Q8WalkNEON<Codes: CodeWidening> {
    let shape: Depthwise3x3Row
    let w: UnsafePointer<Int32>

    /// Tap `tap`'s weights of channels `c ..< c + 8`, narrowed to `Int16` (exact: they are
    /// centered 8-bit weights).
    @inline(__always)
    func weight(_ tap: Int, _ c: Int) -> SIMD8<Int16> {
        let p = UnsafeRawPointer(w + tap * shape.channels + c)
        return vcombine_s16(
            vmovn_s32(p.loadUnaligned(as: SIMD4<Int32>.self)),
            vmovn_s32(p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Int32>.self)))
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
                var acc = Sums8(Codes.widen(a), w0)
                acc.add(Codes.widen(a + C), w1)
                acc.add(Codes.widen(a + 2 * C), w2)
                acc.add(Codes.widen(d), w3)
                acc.add(Codes.widen(d + C), w4)
                acc.add(Codes.widen(d + 2 * C), w5)
                acc.add(Codes.widen(e), w6)
                acc.add(Codes.widen(e + C), w7)
                acc.add(Codes.widen(e + 2 * C), w8)
                acc.store(o)
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
            var acc = Sums8(Codes.widen(t0.0 + c), weight(0, c))
            acc.add(Codes.widen(t0.1 + c), weight(1, c))
            acc.add(Codes.widen(t0.2 + c), weight(2, c))
            acc.add(Codes.widen(t1.0 + c), weight(3, c))
            acc.add(Codes.widen(t1.1 + c), weight(4, c))
            acc.add(Codes.widen(t1.2 + c), weight(5, c))
            acc.add(Codes.widen(t2.0 + c), weight(6, c))
            acc.add(Codes.widen(t2.1 + c), weight(7, c))
            acc.add(Codes.widen(t2.2 + c), weight(8, c))
            acc.store(out + c)
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
