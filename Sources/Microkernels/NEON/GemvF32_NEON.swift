#if arch(arm64)
import _Builtin_intrinsics.arm.neon

/// Float matrix-vector product with the FULLY_CONNECTED epilogue, for aarch64 Advanced
/// SIMD:
///
///     y[o] = clamp(bias[o] + Σ_k w[o, k] · x[k], lower, upper)      for o in 0 ..< n
///
/// with `w` row-major (`ldw` floats apart), as the model stores it. Four rows at a time
/// share each 8-float load of `x`; each row keeps eight partial sums in two vectors (lane
/// `l` adds the depths `≡ l mod 8`, FMA by FMA), added in a fixed order at the end, then
/// the tail of the depth. A batch-1 classifier reads every weight once, so the loop is
/// bound by memory bandwidth. The order of operations per output is fixed, so the result
/// does not depend on `n` or the caller's split of the rows.
@export(interface) @inline(never)
public func gemvF32NEON(
    n: Int, k: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>, ldw: Int,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float, y: UnsafeMutablePointer<Float>
) {
    let vectorDepth = k & ~7
    let xs = UnsafeRawPointer(x)
    @inline(__always) func finish(_ partial: Partial8, row o: Int) {
        var s = partial.sum()
        let r = w + o * ldw
        for d in vectorDepth ..< k { s += r[d] * x[d] }
        if let bias { s += bias[o] }
        y[o] = Swift.min(Swift.max(s, lower), upper)
    }
    var o = 0
    while o + 4 <= n {
        let r0 = UnsafeRawPointer(w + o * ldw), r1 = r0 + 4 * ldw, r2 = r1 + 4 * ldw, r3 = r2 + 4 * ldw
        var a0 = Partial8(), a1 = Partial8(), a2 = Partial8(), a3 = Partial8()
        var d = 0
        while d < vectorDepth {
            let v = Partial8(xs + 4 * d)
            a0.add(v, Partial8(r0 + 4 * d))
            a1.add(v, Partial8(r1 + 4 * d))
            a2.add(v, Partial8(r2 + 4 * d))
            a3.add(v, Partial8(r3 + 4 * d))
            d += 8
        }
        finish(a0, row: o)
        finish(a1, row: o + 1)
        finish(a2, row: o + 2)
        finish(a3, row: o + 3)
        o += 4
    }
    while o < n {
        let r0 = UnsafeRawPointer(w + o * ldw)
        var a0 = Partial8()
        var d = 0
        while d < vectorDepth {
            a0.add(Partial8(xs + 4 * d), Partial8(r0 + 4 * d))
            d += 8
        }
        finish(a0, row: o)
        o += 1
    }
}

/// ``gemvF32NEON`` on weights packed by `GemvF32Layout.pack` (blocks of four rows read as
/// one stream), with the same operations per output in the same order, so the results
/// are identical:
///
///     y[o] = clamp(bias[o] + Σ_k w[o, k] · x[k], lower, upper)      for o in 0 ..< n
///
/// `packed` points at the block holding row 0 of the `n` rows wanted; `n` need not be a
/// multiple of four (the last block's extra rows are computed and not stored).
@export(interface) @inline(never)
public func gemvF32x4PackedNEON(
    n: Int, k: Int, x: UnsafePointer<Float>, packed: UnsafePointer<Float>,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float, y: UnsafeMutablePointer<Float>
) {
    let vectorDepth = k & ~7, tail = k - vectorDepth
    let xs = UnsafeRawPointer(x)
    var block = UnsafeRawPointer(packed)
    var o = 0
    while o < n {
        var a0 = Partial8(), a1 = Partial8(), a2 = Partial8(), a3 = Partial8()
        var d = 0
        var p = block
        while d < vectorDepth {
            let v = Partial8(xs + 4 * d)
            a0.add(v, Partial8(p))
            a1.add(v, Partial8(p + 32))
            a2.add(v, Partial8(p + 64))
            a3.add(v, Partial8(p + 96))
            p += 128
            d += 8
        }
        let tails = p.assumingMemoryBound(to: Float.self)
        @inline(__always) func finish(_ partial: Partial8, row r: Int) {
            guard o + r < n else { return }
            var s = partial.sum()
            let t = tails + r * tail
            for j in 0 ..< tail { s += t[j] * x[vectorDepth + j] }
            if let bias { s += bias[o + r] }
            y[o + r] = Swift.min(Swift.max(s, lower), upper)
        }
        finish(a0, row: 0)
        finish(a1, row: 1)
        finish(a2, row: 2)
        finish(a3, row: 3)
        block += 16 * k
        o += 4
    }
}

/// Eight floats in two vectors: a row's partial sums (lane `l` of `lo`, `hi` holds the
/// depths `≡ l`, `l + 4 mod 8`), or eight consecutive values.
private struct Partial8 {
    var lo = SIMD4<Float>(), hi = SIMD4<Float>()

    @inline(__always) init() {}

    @inline(__always)
    init(_ p: UnsafeRawPointer) {
        lo = p.loadUnaligned(as: SIMD4<Float>.self)
        hi = p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
    }

    /// `self += x · w`, lane by lane, fused.
    @inline(__always)
    mutating func add(_ x: Partial8, _ w: Partial8) {
        lo = vfmaq_f32(lo, x.lo, w.lo)
        hi = vfmaq_f32(hi, x.hi, w.hi)
    }

    /// The eight partial sums in a fixed order: `(q0 + q1) + (q2 + q3)` of `q = lo + hi`.
    @inline(__always)
    func sum() -> Float {
        let q = lo + hi
        return (q[0] + q[1]) + (q[2] + q[3])
    }
}
#endif
