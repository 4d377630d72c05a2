#if arch(arm64)
import _Builtin_intrinsics.arm.neon

/// The one-row exact 8-bit product on the ARMv8.2 dot product, against the weights as
/// stored: `acc[o] = Σ_i (x[i] - zx) · w[o, i]` in wrapping `Int32`, for `n` rows of
/// weight codes `w` (`ldw` bytes apart) and `k` activation codes `x`, both int8
/// (`signed`, `SDOT`) or both uint8 (`UDOT`).
///
/// Sixteen codes a step: one dot product of the row with `x` and one with a vector of
/// ones, which sums the row's weights in the same pass (the weights are read once, so the
/// product is bound by their loading), then `Σ x·w - zx·Σ w`. With TFLite's weight zero
/// point `zw` the caller adds `-zw·Σ (x - zx)`, one number per invoke (int8 weights have
/// `zw = 0`). The last `k mod 16` codes are summed one by one. Nothing saturates, so
/// every sum wraps like TFLite's `int32` accumulator. Four rows share each load of `x`.
@export(interface) @inline(never)
public func gemvQ8DotProd(
    n: Int, k: Int, w: UnsafeRawPointer, ldw: Int, signed: Bool, x: UnsafePointer<UInt8>, zeroPoint zx: Int32,
    acc: UnsafeMutablePointer<Int32>
) {
    if signed {
        dotRows(n, k, w, ldw, x, zx, acc, SignedDot.self) { Int32(Int8(bitPattern: $0)) }
    } else {
        dotRows(n, k, w, ldw, x, zx, acc, UnsignedDot.self) { Int32($0) }
    }
}

/// A row's two running dot products: with `x`, and with ones.
private struct RowDots {
    var products = SIMD4<Int32>(), weights = SIMD4<Int32>()

    @inline(__always)
    mutating func add<Dot: ByteDot>(_ w: SIMD16<Int8>, _ x: SIMD16<Int8>, _: Dot.Type) {
        products = Dot.dot(products, w, x)
        weights = Dot.dot(weights, w, SIMD16(repeating: 1))
    }
}

@inline(__always)
private func dotRows<Dot: ByteDot>(
    _ n: Int, _ k: Int, _ w: UnsafeRawPointer, _ ldw: Int, _ x: UnsafePointer<UInt8>, _ zx: Int32,
    _ acc: UnsafeMutablePointer<Int32>, _: Dot.Type, code: (UInt8) -> Int32
) {
    let vectorDepth = k & ~15
    let xs = UnsafeRawPointer(x)
    @inline(__always) func finish(_ s: RowDots, row o: Int) {
        var sum = s.products.wrappedSum() &- zx &* s.weights.wrappedSum()
        let r = w + o * ldw
        for d in vectorDepth ..< k {
            sum = sum &+ (code(x[d]) &- zx) &* code(r.load(fromByteOffset: d, as: UInt8.self))
        }
        acc[o] = sum
    }
    var o = 0
    while o + 4 <= n {
        let r0 = w + o * ldw, r1 = r0 + ldw, r2 = r1 + ldw, r3 = r2 + ldw
        var a0 = RowDots(), a1 = RowDots(), a2 = RowDots(), a3 = RowDots()
        var d = 0
        while d < vectorDepth {
            let v = xs.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self)
            a0.add(r0.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self), v, Dot.self)
            a1.add(r1.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self), v, Dot.self)
            a2.add(r2.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self), v, Dot.self)
            a3.add(r3.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self), v, Dot.self)
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
        var a0 = RowDots()
        var d = 0
        while d < vectorDepth {
            a0.add(
                r0.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self),
                xs.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self), Dot.self)
            d += 16
        }
        finish(a0, row: o)
        o += 1
    }
}
#endif
