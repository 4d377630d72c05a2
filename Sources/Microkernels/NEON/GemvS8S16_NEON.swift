#if arch(arm64)
import _Builtin_intrinsics.arm.neon

/// The exact sums of an 8-bit matrix-vector product, for aarch64 Advanced SIMD:
///
///     acc[o] = Σ_k w[o, k] · x[k]        in wrapping Int32, for o in 0 ..< n
///
/// with `w` the model's 8-bit codes (row-major, `ldw` bytes apart; `signed` says int8,
/// else uint8) and `x` centered activations as `Int16` (`|x| ≤ 255`): the contract of
/// `gemvS8S16AVX2`. Sixteen codes of a row are widened to `Int16` (`SXTL`/`UXTL`) and
/// multiplied by `x` with widening multiply-adds (`SMLAL`, `SMLAL2`) into `Int32` lanes;
/// each product is exact, and wrapping addition makes the sum TFLite's `int32`
/// accumulator whatever the order. Four rows share each load of `x`.
@export(interface) @inline(never)
public func gemvS8S16NEON(
    n: Int, k: Int, w: UnsafeRawPointer, ldw: Int, signed: Bool,
    x: UnsafePointer<Int16>, acc: UnsafeMutablePointer<Int32>
) {
    if signed {
        gemvRows(
            n: n, k: k, w: w, ldw: ldw, x: x, acc: acc, widen: { vmovl_s8($0) }, code: { Int32(Int8(bitPattern: $0)) })
    } else {
        gemvRows(
            n: n, k: k, w: w, ldw: ldw, x: x, acc: acc,
            widen: { unsafeBitCast(vmovl_u8(unsafeBitCast($0, to: SIMD8<UInt8>.self)), to: SIMD8<Int16>.self) },
            code: { Int32($0) })
    }
}

@inline(__always)
private func gemvRows(
    n: Int, k: Int, w: UnsafeRawPointer, ldw: Int, x: UnsafePointer<Int16>, acc: UnsafeMutablePointer<Int32>,
    widen: (SIMD8<Int8>) -> SIMD8<Int16>, code: (UInt8) -> Int32
) {
    let vectorDepth = k & ~15
    let xs = UnsafeRawPointer(x)
    /// `sums += w[16 codes at p] · x[16 values at d]`, in two `Int32` vectors.
    @inline(__always) func add(_ sums: inout (SIMD4<Int32>, SIMD4<Int32>), _ p: UnsafeRawPointer, _ d: Int) {
        let b = p.loadUnaligned(as: SIMD16<Int8>.self)
        let w0 = widen(b.lowHalf), w1 = widen(b.highHalf)
        let x0 = xs.loadUnaligned(fromByteOffset: 2 * d, as: SIMD8<Int16>.self)
        let x1 = xs.loadUnaligned(fromByteOffset: 2 * d + 16, as: SIMD8<Int16>.self)
        sums.0 = vmlal_s16(sums.0, w0.lowHalf, x0.lowHalf)
        sums.1 = vmlal_high_s16(sums.1, w0, x0)
        sums.0 = vmlal_s16(sums.0, w1.lowHalf, x1.lowHalf)
        sums.1 = vmlal_high_s16(sums.1, w1, x1)
    }
    @inline(__always) func finish(_ v: (SIMD4<Int32>, SIMD4<Int32>), row o: Int) {
        var s = (v.0 &+ v.1).wrappedSum()
        let r = w + o * ldw
        for d in vectorDepth ..< k { s = s &+ code(r.load(fromByteOffset: d, as: UInt8.self)) &* Int32(x[d]) }
        acc[o] = s
    }
    let zero = (SIMD4<Int32>(), SIMD4<Int32>())
    var o = 0
    while o + 4 <= n {
        let r0 = w + o * ldw, r1 = r0 + ldw, r2 = r1 + ldw, r3 = r2 + ldw
        var a0 = zero, a1 = zero, a2 = zero, a3 = zero
        var d = 0
        while d < vectorDepth {
            add(&a0, r0 + d, d)
            add(&a1, r1 + d, d)
            add(&a2, r2 + d, d)
            add(&a3, r3 + d, d)
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
        var a0 = zero
        var d = 0
        while d < vectorDepth {
            add(&a0, r0 + d, d)
            d += 16
        }
        finish(a0, row: o)
        o += 1
    }
}
#endif
