#if arch(arm64)
import _Builtin_intrinsics.arm.neon
import Microkernels
import MicrokernelsNEON

/// Exact 8-bit integer GEMM on the ARMv8.2 dot product:
/// `C[i, j] = C0[j] + Σ_k A[i, k] · B[j, k]` in wrapping `Int32`, with `A` and `B` codes of
/// one signedness (`signed`: int8, `SDOT`; else uint8, `UDOT`) in ``GemmU8S8Layout``'s
/// byte order (A: rows of depth `kp`, a multiple of four, stride `lda`; B: panels of 16
/// columns, each depth quad's 16 column quads in 64 bytes; `C0`: `initial`, one starting
/// value per column, `n` of them).
///
/// A block of 4 rows × 16 columns keeps sixteen `Int32` vectors. Sixteen depths of each
/// row are loaded as one vector, four quads; per quad the panel's 16 column quads are four
/// vectors, and each is dotted with the row's quad for that depth, taken as a 32-bit
/// element of the row's vector (`SDOT`/`UDOT` by element): each instruction adds four
/// products into each of four columns' lanes, 16 multiply-adds, so a quad costs 16
/// instructions for 256 multiply-adds and four loads. Rows are the inner loop so a panel
/// (`kp · 16` bytes) stays in L1 while the rows stream past it; the accumulators start
/// from `C0`. A short last block repeats its last row (computed and dropped); a last
/// panel narrower than 16 columns is stored lane by lane.
///
/// A product of two bytes of one signedness is at most 2^16 in magnitude and a quad's sum
/// is exact in 32 bits; the instructions add without saturation, so every partial sum
/// wraps exactly like TFLite's `int32` accumulator and the result does not depend on the
/// blocking.
@export(interface) @inline(never)
public func gemmQ8x4x16c4DotProd(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
    initial: UnsafePointer<Int32>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    let output = Int32BlockRows(c: c, ldc: ldc)
    if signed {
        dotPanels4x16(m, n, kp, a, lda, packedB, initial, nil, output, SignedDot.self)
    } else {
        dotPanels4x16(m, n, kp, a, lda, packedB, initial, nil, output, UnsignedDot.self)
    }
}

/// ``gemmQ8x4x16c4DotProd(m:n:kp:a:lda:packedB:signed:initial:c:ldc:)`` with the
/// requantization in its epilogue: each block of 4 rows × 16 columns goes from its
/// accumulators straight to 8-bit codes by the arithmetic of `requantizeQ31NEON`
/// (TFLite's fixed point, bit-exact), so the `Int32` sums are never stored and read back.
///
///     out[i, j] = requantize_j(initial[j] + bias[j] + Σ_k A[i, k] · B[j, k])
///
/// `n` columns, all of them output channels, codes `outStride` bytes apart; the
/// per-channel `mantissa`, `left` and `right` (and `bias`) start at column 0.
@export(interface) @inline(never)
public func gemmQ8x4x16c4RequantizeQ31DotProd(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
    initial: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool, right: UnsafePointer<Int32>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, into out: UnsafeMutableRawPointer, outStride: Int
) {
    let codes = Q31BlockCodes(
        mantissa: mantissa, left: left, shiftsLeft: shiftsLeft, right: right,
        range: CodeRangeLanes(zp: zp, lower: lower, upper: upper), out: out, outStride: outStride)
    if signed {
        dotPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, SignedDot.self)
    } else {
        dotPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, UnsignedDot.self)
    }
}

/// ``gemmQ8x4x16c4RequantizeQ31DotProd`` with `requantizeF32NEON`'s arithmetic (the opt-in
/// float32 mode): one `Float` `scale` per column.
@export(interface) @inline(never)
public func gemmQ8x4x16c4RequantizeF32DotProd(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
    initial: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, into out: UnsafeMutableRawPointer, outStride: Int
) {
    let codes = F32BlockCodes(
        scale: scale, range: FloatCodeLanes(zp: zp, lower: lower, upper: upper), out: out, outStride: outStride)
    if signed {
        dotPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, SignedDot.self)
    } else {
        dotPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, UnsignedDot.self)
    }
}

/// The dot product of one signedness: each `Int32` lane of `acc` plus the sum of the four
/// products of the lane's bytes of `b` and `a`.
protocol ByteDot {
    static func dot(_ acc: SIMD4<Int32>, _ b: SIMD16<Int8>, _ a: SIMD16<Int8>) -> SIMD4<Int32>
}

/// int8 × int8 (`SDOT`).
enum SignedDot: ByteDot {
    @inline(__always)
    static func dot(_ acc: SIMD4<Int32>, _ b: SIMD16<Int8>, _ a: SIMD16<Int8>) -> SIMD4<Int32> { vdotq_s32(acc, b, a) }
}

/// uint8 × uint8 (`UDOT`); the lanes' bits are the same as for wrapping `Int32` sums.
enum UnsignedDot: ByteDot {
    @inline(__always)
    static func dot(_ acc: SIMD4<Int32>, _ b: SIMD16<Int8>, _ a: SIMD16<Int8>) -> SIMD4<Int32> {
        unsafeBitCast(
            vdotq_u32(
                unsafeBitCast(acc, to: SIMD4<UInt32>.self), unsafeBitCast(b, to: SIMD16<UInt8>.self),
                unsafeBitCast(a, to: SIMD16<UInt8>.self)), to: SIMD4<Int32>.self)
    }
}

/// The 32-bit element `l` of `a` in every element: with `dot`, LLVM selects the
/// by-element form of `SDOT`/`UDOT`.
@inline(__always)
func quad(_ a: SIMD16<Int8>, _ l: Int) -> SIMD16<Int8> {
    unsafeBitCast(SIMD4<Int32>(repeating: unsafeBitCast(a, to: SIMD4<Int32>.self)[l]), to: SIMD16<Int8>.self)
}

/// One row's 16 column sums and the dot products that add a depth quad to them.
extension Int32Row16 {
    /// `self += Σ quad · B` for the panel's four vectors of column quads at `b`.
    @inline(__always)
    mutating func add<Dot: ByteDot>(_ b: UnsafeRawPointer, _ q: SIMD16<Int8>, _: Dot.Type) {
        v0 = Dot.dot(v0, b.loadUnaligned(as: SIMD16<Int8>.self), q)
        v1 = Dot.dot(v1, b.loadUnaligned(fromByteOffset: 16, as: SIMD16<Int8>.self), q)
        v2 = Dot.dot(v2, b.loadUnaligned(fromByteOffset: 32, as: SIMD16<Int8>.self), q)
        v3 = Dot.dot(v3, b.loadUnaligned(fromByteOffset: 48, as: SIMD16<Int8>.self), q)
    }
}

/// The blocking of ``gemmQ8x4x16c4DotProd(m:n:kp:a:lda:packedB:signed:initial:c:ldc:)``
/// and its requantizing forms: `C[i, j] = C0[j] + Σ_k A[i, k]·B[j, k]` with
/// `C0 = initial + bias` (either may be absent), finished rows handed to `output`.
@inline(__always)
func dotPanels4x16<Output: IntegerBlockOutput, Dot: ByteDot>(
    _ m: Int, _ n: Int, _ kp: Int, _ a: UnsafePointer<UInt8>, _ lda: Int, _ packedB: UnsafePointer<Int8>,
    _ initial: UnsafePointer<Int32>?, _ bias: UnsafePointer<Int32>?, _ output: Output, _ dot: Dot.Type
) {
    guard m > 0, n > 0 else { return }
    let quads = kp / 4
    for p in 0 ..< (n + 15) / 16 {
        let panel = UnsafeRawPointer(packedB + p * 16 * kp)
        let j0 = p * 16, width = Swift.min(16, n - j0)
        let start = Int32Row16(initial.map { $0 + j0 }, width: width) &+ Int32Row16(bias.map { $0 + j0 }, width: width)
        let columns = output.columns(first: j0, width: width)
        var i = 0
        while i < m {
            let rows = Swift.min(4, m - i)
            // Row r of the block, or the block's last row when the block is short.
            let base = UnsafeRawPointer(a + i * lda)
            let r0 = base, r1 = base + Swift.min(1, rows - 1) * lda
            let r2 = base + Swift.min(2, rows - 1) * lda, r3 = base + Swift.min(3, rows - 1) * lda
            var c0 = start, c1 = start, c2 = start, c3 = start
            var pb = panel
            var q = 0
            while q + 4 <= quads {
                let a0 = r0.loadUnaligned(fromByteOffset: 4 * q, as: SIMD16<Int8>.self)
                let a1 = r1.loadUnaligned(fromByteOffset: 4 * q, as: SIMD16<Int8>.self)
                let a2 = r2.loadUnaligned(fromByteOffset: 4 * q, as: SIMD16<Int8>.self)
                let a3 = r3.loadUnaligned(fromByteOffset: 4 * q, as: SIMD16<Int8>.self)
                @inline(__always) func step(_ l: Int) {
                    c0.add(pb, quad(a0, l), dot)
                    c1.add(pb, quad(a1, l), dot)
                    c2.add(pb, quad(a2, l), dot)
                    c3.add(pb, quad(a3, l), dot)
                    pb += 64
                }
                step(0)
                step(1)
                step(2)
                step(3)
                q += 4
            }
            while q < quads {
                @inline(__always) func rowQuad(_ r: UnsafeRawPointer) -> SIMD16<Int8> {
                    unsafeBitCast(
                        SIMD4<Int32>(repeating: r.loadUnaligned(fromByteOffset: 4 * q, as: Int32.self)),
                        to: SIMD16<Int8>.self)
                }
                c0.add(pb, rowQuad(r0), dot)
                c1.add(pb, rowQuad(r1), dot)
                c2.add(pb, rowQuad(r2), dot)
                c3.add(pb, rowQuad(r3), dot)
                pb += 64
                q += 1
            }
            columns.store(c0, row: i)
            if rows > 1 { columns.store(c1, row: i + 1) }
            if rows > 2 { columns.store(c2, row: i + 2) }
            if rows > 3 { columns.store(c3, row: i + 3) }
            i += rows
        }
    }
}
#endif
