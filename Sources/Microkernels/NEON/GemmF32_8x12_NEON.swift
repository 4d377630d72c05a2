#if arch(arm64)
import _Builtin_intrinsics.arm.neon
import Microkernels

/// Float GEMM with the convolution epilogue fused, for aarch64 Advanced SIMD:
///
///     C[i, j] = clamp(bias[j] + Σ_k A[i, k] · B[k, j], lower, upper)
///
/// summed in `k` order from the bias, one fused multiply-add per term. `A` is row-major
/// (`lda` floats apart), `B` packed by ``GemmF32Layout`` in panels of 12 columns (bias
/// first, `GemmF32Layout.armPanelWidth`).
///
/// A block of 8 rows × 12 columns keeps 24 four-lane accumulators in 24 of the 32 vector
/// registers. Each depth step loads the panel's 12 values (three vectors) and the block's 8
/// values of `A` (two vectors), and multiplies each column vector by each row's value
/// taken as a lane of an `A` vector (`FMLA` by element): 24 FMLAs for 5 loads, and no
/// broadcasts. That needs `A` in depth-major order, 8 rows interleaved per depth, so the
/// rows of a stripe of ``stripeRows`` are first packed (transposed 4×4 at a time) into a
/// temporary buffer; each panel then passes over the stripe's blocks while its weights stay
/// in L1. Rows after the stripe's blocks of 8 go 4 at a time and then one at a time
/// straight from `A` (4 depths per load, each depth a lane), so a classifier's single row
/// costs one row's FMLAs. A last panel narrower than 12 computes only the vectors it has
/// (1 or 2 of 3).
///
/// Every output is the same chain of FMAs in depth order whichever path computes it, so
/// results do not depend on `m`, the stripe or the caller's split of the rows.
@export(interface) @inline(never)
public func gemmF32x8x12NEON(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
    packedB: UnsafePointer<Float>, lower: Float, upper: Float,
    c: UnsafeMutablePointer<Float>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    let blocksPerStripe = Swift.min(m, stripeRows) / 8
    withUnsafeTemporaryAllocation(of: Float.self, capacity: Swift.max(1, blocksPerStripe * 8 * k)) { buffer in
        guard let packedA = buffer.baseAddress else { return }
        let gemm = GemmF32NEON(
            k: k, lda: lda, packedB: packedB, panelStride: GemmF32Layout.panelCount(k: k, width: 12),
            lower: SIMD4(repeating: lower), upper: SIMD4(repeating: upper), c: c, ldc: ldc)
        var i0 = 0
        while i0 < m {
            let stripeEnd = Swift.min(m, i0 + stripeRows)
            let blocks = (stripeEnd - i0) / 8
            for b in 0 ..< blocks { gemm.pack8(rows: a + (i0 + 8 * b) * lda, into: packedA + 8 * k * b) }
            for p in 0 ..< (n + 11) / 12 {
                let width = Swift.min(12, n - 12 * p)
                switch (width + 3) / 4 {
                case 3: gemm.panel(p, width: width, vectors: 3, rows: i0 ..< stripeEnd, a: a, packedA: packedA)
                case 2: gemm.panel(p, width: width, vectors: 2, rows: i0 ..< stripeEnd, a: a, packedA: packedA)
                default: gemm.panel(p, width: width, vectors: 1, rows: i0 ..< stripeEnd, a: a, packedA: packedA)
                }
            }
            i0 = stripeEnd
        }
    }
}

/// Rows of `A` per stripe (blocks of 8): 48 rows of depth 1152 pack into 221 KB.
private let stripeRows = 48

/// Up to 12 columns of one row: three four-lane vectors, of which the first `vectors`
/// are computed.
private struct Columns12 {
    var v0: SIMD4<Float>, v1: SIMD4<Float>, v2: SIMD4<Float>

    @inline(__always)
    init(_ p: UnsafeRawPointer, vectors: Int) {
        v0 = p.loadUnaligned(as: SIMD4<Float>.self)
        v1 = vectors > 1 ? p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self) : SIMD4()
        v2 = vectors > 2 ? p.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self) : SIMD4()
    }

    /// `self += b · x` per lane, one fused multiply-add per vector. With `x` a lane of a
    /// vector repeated, LLVM selects `FMLA` by element.
    @inline(__always)
    mutating func add(_ b: Columns12, times x: SIMD4<Float>, vectors: Int) {
        v0 = vfmaq_f32(v0, b.v0, x)
        if vectors > 1 { v1 = vfmaq_f32(v1, b.v1, x) }
        if vectors > 2 { v2 = vfmaq_f32(v2, b.v2, x) }
    }
}

/// One call's operands; the loops of ``gemmF32x8x12NEON``.
private struct GemmF32NEON {
    let k: Int, lda: Int
    let packedB: UnsafePointer<Float>, panelStride: Int
    let lower: SIMD4<Float>, upper: SIMD4<Float>
    let c: UnsafeMutablePointer<Float>, ldc: Int

    /// Packs 8 rows of `A` (`lda` apart) depth-major into `out`: `out[8·d + r] = A[r, d]`.
    /// Four depths of four rows are one 4×4 transpose (`TRN1`/`TRN2`, then 64-bit `ZIP`s).
    @inline(__always)
    func pack8(rows: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let o = UnsafeMutableRawPointer(out)
        for half in 0 ..< 2 {
            let r0 = UnsafeRawPointer(rows + 4 * half * lda), r1 = r0 + 4 * lda, r2 = r1 + 4 * lda, r3 = r2 + 4 * lda
            var d = 0
            while d + 4 <= k {
                let x0 = r0.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
                let x1 = r1.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
                let x2 = r2.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
                let x3 = r3.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
                // t0 = (x0[0], x1[0], x0[2], x1[2]), t1 = (x0[1], x1[1], x0[3], x1[3]), ...
                let t0 = vtrn1q_f32(x0, x1), t1 = vtrn2q_f32(x0, x1)
                let t2 = vtrn1q_f32(x2, x3), t3 = vtrn2q_f32(x2, x3)
                @inline(__always) func store(_ lowHalves: Bool, _ p: SIMD4<Float>, _ q: SIMD4<Float>, depth: Int) {
                    let p64 = unsafeBitCast(p, to: SIMD2<Double>.self), q64 = unsafeBitCast(q, to: SIMD2<Double>.self)
                    let column = lowHalves ? vzip1q_f64(p64, q64) : vzip2q_f64(p64, q64)
                    o.storeBytes(of: column, toByteOffset: 4 * (8 * depth + 4 * half), as: SIMD2<Double>.self)
                }
                store(true, t0, t2, depth: d)
                store(true, t1, t3, depth: d + 1)
                store(false, t0, t2, depth: d + 2)
                store(false, t1, t3, depth: d + 3)
                d += 4
            }
            while d < k {
                for r in 0 ..< 4 { out[8 * d + 4 * half + r] = rows[(4 * half + r) * lda + d] }
                d += 1
            }
        }
    }

    /// Panel `p` (`width` columns, the first `vectors` vectors of it) over the rows
    /// `rows`, whose blocks of 8 are packed at `packedA`.
    @inline(__always)
    func panel(
        _ p: Int, width: Int, vectors: Int, rows: Range<Int>, a: UnsafePointer<Float>, packedA: UnsafePointer<Float>
    ) {
        let panel = UnsafeRawPointer(packedB + p * panelStride)
        let bias = Columns12(panel, vectors: vectors)
        let weights = panel + 48
        let out = c + 12 * p
        var i = rows.lowerBound
        var block = UnsafeRawPointer(packedA)
        while i + 8 <= rows.upperBound {
            var c0 = bias, c1 = bias, c2 = bias, c3 = bias, c4 = bias, c5 = bias, c6 = bias, c7 = bias
            var pa = block, pb = weights
            for _ in 0 ..< k {
                let b = Columns12(pb, vectors: vectors)
                let lo = pa.loadUnaligned(as: SIMD4<Float>.self)
                let hi = pa.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
                c0.add(b, times: SIMD4(repeating: lo[0]), vectors: vectors)
                c1.add(b, times: SIMD4(repeating: lo[1]), vectors: vectors)
                c2.add(b, times: SIMD4(repeating: lo[2]), vectors: vectors)
                c3.add(b, times: SIMD4(repeating: lo[3]), vectors: vectors)
                c4.add(b, times: SIMD4(repeating: hi[0]), vectors: vectors)
                c5.add(b, times: SIMD4(repeating: hi[1]), vectors: vectors)
                c6.add(b, times: SIMD4(repeating: hi[2]), vectors: vectors)
                c7.add(b, times: SIMD4(repeating: hi[3]), vectors: vectors)
                pa += 32
                pb += 48
            }
            store(c0, row: out + i * ldc, width: width, vectors: vectors)
            store(c1, row: out + (i + 1) * ldc, width: width, vectors: vectors)
            store(c2, row: out + (i + 2) * ldc, width: width, vectors: vectors)
            store(c3, row: out + (i + 3) * ldc, width: width, vectors: vectors)
            store(c4, row: out + (i + 4) * ldc, width: width, vectors: vectors)
            store(c5, row: out + (i + 5) * ldc, width: width, vectors: vectors)
            store(c6, row: out + (i + 6) * ldc, width: width, vectors: vectors)
            store(c7, row: out + (i + 7) * ldc, width: width, vectors: vectors)
            block += 32 * k
            i += 8
        }
        if i + 4 <= rows.upperBound {
            rows4(i, bias: bias, weights: weights, width: width, vectors: vectors, a: a, out: out)
            i += 4
        }
        while i < rows.upperBound {
            row1(i, bias: bias, weights: weights, width: width, vectors: vectors, a: a, out: out)
            i += 1
        }
    }

    /// Rows `i ..< i + 4` straight from `A`: each row's four depths in one vector, each
    /// depth a lane of it.
    @inline(__always)
    func rows4(
        _ i: Int, bias: Columns12, weights: UnsafeRawPointer, width: Int, vectors: Int, a: UnsafePointer<Float>,
        out: UnsafeMutablePointer<Float>
    ) {
        let r0 = UnsafeRawPointer(a + i * lda), r1 = r0 + 4 * lda, r2 = r1 + 4 * lda, r3 = r2 + 4 * lda
        var c0 = bias, c1 = bias, c2 = bias, c3 = bias
        var pb = weights
        var d = 0
        @inline(__always) func step(_ x0: Float, _ x1: Float, _ x2: Float, _ x3: Float) {
            let b = Columns12(pb, vectors: vectors)
            c0.add(b, times: SIMD4(repeating: x0), vectors: vectors)
            c1.add(b, times: SIMD4(repeating: x1), vectors: vectors)
            c2.add(b, times: SIMD4(repeating: x2), vectors: vectors)
            c3.add(b, times: SIMD4(repeating: x3), vectors: vectors)
            pb += 48
        }
        while d + 4 <= k {
            let x0 = r0.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
            let x1 = r1.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
            let x2 = r2.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
            let x3 = r3.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
            step(x0[0], x1[0], x2[0], x3[0])
            step(x0[1], x1[1], x2[1], x3[1])
            step(x0[2], x1[2], x2[2], x3[2])
            step(x0[3], x1[3], x2[3], x3[3])
            d += 4
        }
        while d < k {
            step(a[i * lda + d], a[(i + 1) * lda + d], a[(i + 2) * lda + d], a[(i + 3) * lda + d])
            d += 1
        }
        store(c0, row: out + i * ldc, width: width, vectors: vectors)
        store(c1, row: out + (i + 1) * ldc, width: width, vectors: vectors)
        store(c2, row: out + (i + 2) * ldc, width: width, vectors: vectors)
        store(c3, row: out + (i + 3) * ldc, width: width, vectors: vectors)
    }

    /// Row `i` straight from `A`.
    @inline(__always)
    func row1(
        _ i: Int, bias: Columns12, weights: UnsafeRawPointer, width: Int, vectors: Int, a: UnsafePointer<Float>,
        out: UnsafeMutablePointer<Float>
    ) {
        let r0 = UnsafeRawPointer(a + i * lda)
        var c0 = bias
        var pb = weights
        var d = 0
        while d + 4 <= k {
            let x = r0.loadUnaligned(fromByteOffset: 4 * d, as: SIMD4<Float>.self)
            c0.add(Columns12(pb, vectors: vectors), times: SIMD4(repeating: x[0]), vectors: vectors)
            c0.add(Columns12(pb + 48, vectors: vectors), times: SIMD4(repeating: x[1]), vectors: vectors)
            c0.add(Columns12(pb + 96, vectors: vectors), times: SIMD4(repeating: x[2]), vectors: vectors)
            c0.add(Columns12(pb + 144, vectors: vectors), times: SIMD4(repeating: x[3]), vectors: vectors)
            pb += 192
            d += 4
        }
        while d < k {
            c0.add(Columns12(pb, vectors: vectors), times: SIMD4(repeating: a[i * lda + d]), vectors: vectors)
            pb += 48
            d += 1
        }
        store(c0, row: out + i * ldc, width: width, vectors: vectors)
    }

    /// Clamps and stores the row's first `width` columns.
    @inline(__always)
    func store(_ r: Columns12, row: UnsafeMutablePointer<Float>, width: Int, vectors: Int) {
        // FMAX/FMIN: a NaN sum stays NaN, as in the reference's min(max(x, lower), upper).
        @inline(__always) func clamp(_ v: SIMD4<Float>) -> SIMD4<Float> { vminq_f32(vmaxq_f32(v, lower), upper) }
        let o = UnsafeMutableRawPointer(row)
        let y0 = clamp(r.v0)
        let y1 = vectors > 1 ? clamp(r.v1) : y0, y2 = vectors > 2 ? clamp(r.v2) : y0
        if width == 12 {
            o.storeBytes(of: y0, as: SIMD4<Float>.self)
            o.storeBytes(of: y1, toByteOffset: 16, as: SIMD4<Float>.self)
            o.storeBytes(of: y2, toByteOffset: 32, as: SIMD4<Float>.self)
            return
        }
        for j in 0 ..< width {
            let v = j < 4 ? y0[j] : j < 8 ? y1[j - 4] : y2[j - 8]
            o.storeBytes(of: v, toByteOffset: 4 * j, as: Float.self)
        }
    }
}
#endif
