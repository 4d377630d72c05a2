#if arch(x86_64)
/// Float matrix-vector product with the FULLY_CONNECTED epilogue, for x86-64-v3:
///
///     y[o] = clamp(bias[o] + Σ_k w[o, k] · x[k], lower, upper)      for o in 0 ..< n
///
/// with `w` row-major (`ldw` floats apart): the layout the model stores, so nothing is
/// packed. Four rows at a time share each 8-float load of `x`; each row keeps eight
/// partial sums (lane `l` adds the depths `≡ l mod 8`, FMA by FMA), which are added in a
/// fixed order at the end, then the tail of the depth. A batch-1 classifier reads every
/// weight once, so the loop is bound by memory bandwidth, not arithmetic. The order of
/// operations per output is fixed, so the result does not depend on `n` or the caller's
/// split of the rows.
@inline(never)
public func gemvF32AVX2(
    n: Int, k: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>, ldw: Int,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float, y: UnsafeMutablePointer<Float>
) {
    let vectorDepth = k & ~7
    @inline(__always) func finish(_ partial: SIMD8<Float>, row o: Int) {
        let quad = partial.lowHalf + partial.highHalf
        var s = (quad[0] + quad[1]) + (quad[2] + quad[3])
        let r = w + o * ldw
        for d in vectorDepth ..< k { s += r[d] * x[d] }
        if let bias { s += bias[o] }
        y[o] = Swift.min(Swift.max(s, lower), upper)
    }
    var o = 0
    while o + 4 <= n {
        let r0 = UnsafeRawPointer(w + o * ldw), r1 = r0 + 4 * ldw, r2 = r1 + 4 * ldw, r3 = r2 + 4 * ldw
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        var d = 0
        while d < vectorDepth {
            let v = UnsafeRawPointer(x + d).loadUnaligned(as: SIMD8<Float>.self)
            a0.addProduct(v, r0.loadUnaligned(fromByteOffset: 4 * d, as: SIMD8<Float>.self))
            a1.addProduct(v, r1.loadUnaligned(fromByteOffset: 4 * d, as: SIMD8<Float>.self))
            a2.addProduct(v, r2.loadUnaligned(fromByteOffset: 4 * d, as: SIMD8<Float>.self))
            a3.addProduct(v, r3.loadUnaligned(fromByteOffset: 4 * d, as: SIMD8<Float>.self))
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
        var a0 = SIMD8<Float>()
        var d = 0
        while d < vectorDepth {
            a0.addProduct(
                UnsafeRawPointer(x + d).loadUnaligned(as: SIMD8<Float>.self),
                r0.loadUnaligned(fromByteOffset: 4 * d, as: SIMD8<Float>.self))
            d += 8
        }
        finish(a0, row: o)
        o += 1
    }
}
/// ``gemvF32AVX2`` on weights packed by `GemvF32Layout.pack` (blocks of four rows read as
/// one stream), with the same operations per output in the same order, so the results
/// are identical:
///
///     y[o] = clamp(bias[o] + Σ_k w[o, k] · x[k], lower, upper)      for o in 0 ..< n
///
/// `packed` points at the block holding row 0 of the `n` rows wanted; `n` need not be a
/// multiple of four (the last block's extra rows are computed and not stored).
@inline(never)
public func gemvF32x4PackedAVX2(
    n: Int, k: Int, x: UnsafePointer<Float>, packed: UnsafePointer<Float>,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float, y: UnsafeMutablePointer<Float>
) {
    let vectorDepth = k & ~7, tail = k - vectorDepth
    var block = UnsafeRawPointer(packed)
    var o = 0
    while o < n {
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        var d = 0
        var p = block
        while d < vectorDepth {
            let v = UnsafeRawPointer(x + d).loadUnaligned(as: SIMD8<Float>.self)
            a0.addProduct(v, p.loadUnaligned(as: SIMD8<Float>.self))
            a1.addProduct(v, p.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self))
            a2.addProduct(v, p.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self))
            a3.addProduct(v, p.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self))
            p += 128
            d += 8
        }
        let tails = p.assumingMemoryBound(to: Float.self)
        @inline(__always) func finish(_ partial: SIMD8<Float>, row r: Int) {
            guard o + r < n else { return }
            let quad = partial.lowHalf + partial.highHalf
            var s = (quad[0] + quad[1]) + (quad[2] + quad[3])
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
#endif
