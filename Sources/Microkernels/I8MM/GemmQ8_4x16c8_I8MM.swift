#if arch(arm64)
import _Builtin_intrinsics.arm.neon
import Microkernels
import MicrokernelsNEON

/// Exact 8-bit integer GEMM on the ARMv8.6 8-bit matrix multiply:
/// `C[i, j] = C0[j] + Σ_k A[i, k] · B[j, k]` in wrapping `Int32`, with `A` and `B` codes of
/// one signedness (`signed`: int8, `SMMLA`; else uint8, `UMMLA`). A: rows of depth `kp`, a
/// multiple of eight, stride `lda`; B: ``GemmQ8C8Layout`` panels of 16 columns; `C0`:
/// `initial`, one starting value per column, `n` of them.
///
/// `SMMLA` multiplies a 2×8 block of bytes (two rows' eight depths) by the transpose of
/// another (two columns' eight depths) and adds the 2×2 products, each a sum of eight, into
/// the four `Int32` lanes of its accumulator: 32 multiply-adds an instruction, twice
/// `SDOT`. A block of 4 rows × 16 columns is two row pairs by eight column pairs, sixteen
/// 2×2 accumulators. Sixteen depths of each row are loaded as one vector, and two rows'
/// vectors interleaved by halves (64-bit `ZIP1`/`ZIP2`) give the pair's 2×8 operands for
/// two steps of eight depths, so `A` needs no packing; per step the panel's eight column
/// pairs are eight loads and 16 `SMMLA`s do 512 multiply-adds. At the end the 2×2 blocks
/// are put back in row order (64-bit `ZIP`s of neighbouring blocks), and the rows go to
/// the output as at the `dotprod` level. Rows are the inner loop so a panel stays in L1; a
/// short last block repeats its last row (computed and dropped); a last panel narrower than
/// 16 columns is stored lane by lane.
///
/// Each sum of eight products of bytes of one signedness is exact in 32 bits and the
/// accumulation does not saturate, so every partial sum wraps exactly like TFLite's `int32`
/// accumulator and the result does not depend on the blocking.
@export(interface) @inline(never)
public func gemmQ8x4x16c8I8MM(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
    initial: UnsafePointer<Int32>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    let output = Int32BlockRows(c: c, ldc: ldc)
    if signed {
        matrixPanels4x16(m, n, kp, a, lda, packedB, initial, nil, output, SignedMatrix.self)
    } else {
        matrixPanels4x16(m, n, kp, a, lda, packedB, initial, nil, output, UnsignedMatrix.self)
    }
}

/// ``gemmQ8x4x16c8I8MM(m:n:kp:a:lda:packedB:signed:initial:c:ldc:)`` with the
/// requantization in its epilogue, by the arithmetic of `requantizeQ31NEON` (TFLite's fixed
/// point, bit-exact):
///
///     out[i, j] = requantize_j(initial[j] + bias[j] + Σ_k A[i, k] · B[j, k])
///
/// `n` columns, all of them output channels, codes `outStride` bytes apart; the
/// per-channel `mantissa`, `left` and `right` (and `bias`) start at column 0.
@export(interface) @inline(never)
public func gemmQ8x4x16c8RequantizeQ31I8MM(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
    initial: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool, right: UnsafePointer<Int32>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, into out: UnsafeMutableRawPointer, outStride: Int
) {
    let codes = Q31BlockCodes(
        mantissa: mantissa, left: left, shiftsLeft: shiftsLeft, right: right,
        range: CodeRangeLanes(zp: zp, lower: lower, upper: upper), out: out, outStride: outStride)
    if signed {
        matrixPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, SignedMatrix.self)
    } else {
        matrixPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, UnsignedMatrix.self)
    }
}

/// ``gemmQ8x4x16c8RequantizeQ31I8MM`` with `requantizeF32NEON`'s arithmetic (the opt-in
/// float32 mode): one `Float` `scale` per column.
@export(interface) @inline(never)
public func gemmQ8x4x16c8RequantizeF32I8MM(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
    initial: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, into out: UnsafeMutableRawPointer, outStride: Int
) {
    let codes = F32BlockCodes(
        scale: scale, range: FloatCodeLanes(zp: zp, lower: lower, upper: upper), out: out, outStride: outStride)
    if signed {
        matrixPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, SignedMatrix.self)
    } else {
        matrixPanels4x16(m, n, kp, a, lda, packedB, initial, bias, codes, UnsignedMatrix.self)
    }
}

/// The 2×8 by 8×2 product of one signedness: `acc` plus `rows · columnsᵀ`, lanes
/// `(0, 0), (0, 1), (1, 0), (1, 1)`.
protocol ByteMatrixMultiply {
    static func multiply(_ acc: SIMD4<Int32>, _ rows: SIMD16<Int8>, _ columns: SIMD16<Int8>) -> SIMD4<Int32>
}

/// int8 (`SMMLA`).
enum SignedMatrix: ByteMatrixMultiply {
    @inline(__always)
    static func multiply(_ acc: SIMD4<Int32>, _ rows: SIMD16<Int8>, _ columns: SIMD16<Int8>) -> SIMD4<Int32> {
        vmmlaq_s32(acc, rows, columns)
    }
}

/// uint8 (`UMMLA`); the lanes' bits are the same as for wrapping `Int32` sums.
enum UnsignedMatrix: ByteMatrixMultiply {
    @inline(__always)
    static func multiply(_ acc: SIMD4<Int32>, _ rows: SIMD16<Int8>, _ columns: SIMD16<Int8>) -> SIMD4<Int32> {
        unsafeBitCast(
            vmmlaq_u32(
                unsafeBitCast(acc, to: SIMD4<UInt32>.self), unsafeBitCast(rows, to: SIMD16<UInt8>.self),
                unsafeBitCast(columns, to: SIMD16<UInt8>.self)), to: SIMD4<Int32>.self)
    }
}

/// The 64-bit halves `(a.0, b.0)` and `(a.1, b.1)` of two vectors: two rows' first and
/// second eight bytes paired (a 2×8 operand), or two 2×2 blocks' first and second rows.
@inline(__always)
func pairHalves<V: SIMD>(_ a: V, _ b: V) -> (V, V) {
    let a64 = unsafeBitCast(a, to: SIMD2<Int64>.self), b64 = unsafeBitCast(b, to: SIMD2<Int64>.self)
    return (unsafeBitCast(vzip1q_s64(a64, b64), to: V.self), unsafeBitCast(vzip2q_s64(a64, b64), to: V.self))
}

/// A row pair's sixteen columns: eight 2×2 blocks, block `q` holding columns `2q`, `2q+1`.
struct PairBlocks {
    var b0, b1, b2, b3, b4, b5, b6, b7: SIMD4<Int32>

    /// Every block starting from its two columns' values in `start` (for both rows).
    @inline(__always)
    init(_ start: Int32Row16) {
        (b0, b1) = pairHalves(start.v0, start.v0)
        (b2, b3) = pairHalves(start.v1, start.v1)
        (b4, b5) = pairHalves(start.v2, start.v2)
        (b6, b7) = pairHalves(start.v3, start.v3)
    }

    /// `self += rows · B` for one step of eight depths: `b` at the step's eight column pairs.
    @inline(__always)
    mutating func add<M: ByteMatrixMultiply>(_ rows: SIMD16<Int8>, _ b: UnsafeRawPointer, _: M.Type) {
        @inline(__always) func column(_ q: Int) -> SIMD16<Int8> {
            b.loadUnaligned(fromByteOffset: 16 * q, as: SIMD16<Int8>.self)
        }
        b0 = M.multiply(b0, rows, column(0))
        b1 = M.multiply(b1, rows, column(1))
        b2 = M.multiply(b2, rows, column(2))
        b3 = M.multiply(b3, rows, column(3))
        b4 = M.multiply(b4, rows, column(4))
        b5 = M.multiply(b5, rows, column(5))
        b6 = M.multiply(b6, rows, column(6))
        b7 = M.multiply(b7, rows, column(7))
    }

    /// The pair's two rows of 16 sums, in column order.
    @inline(__always)
    func rows() -> (Int32Row16, Int32Row16) {
        let (r00, r10) = pairHalves(b0, b1), (r01, r11) = pairHalves(b2, b3)
        let (r02, r12) = pairHalves(b4, b5), (r03, r13) = pairHalves(b6, b7)
        return (Int32Row16(r00, r01, r02, r03), Int32Row16(r10, r11, r12, r13))
    }
}

/// The blocking of ``gemmQ8x4x16c8I8MM(m:n:kp:a:lda:packedB:signed:initial:c:ldc:)`` and
/// its requantizing forms: `C[i, j] = C0[j] + Σ_k A[i, k]·B[j, k]` with
/// `C0 = initial + bias` (either may be absent), finished rows handed to `output`.
@inline(__always)
func matrixPanels4x16<Output: IntegerBlockOutput, M: ByteMatrixMultiply>(
    _ m: Int, _ n: Int, _ kp: Int, _ a: UnsafePointer<UInt8>, _ lda: Int, _ packedB: UnsafePointer<Int8>,
    _ initial: UnsafePointer<Int32>?, _ bias: UnsafePointer<Int32>?, _ output: Output, _ multiply: M.Type
) {
    guard m > 0, n > 0 else { return }
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
            // Rows 0-1 and rows 2-3 of the block.
            var top = PairBlocks(start), bottom = PairBlocks(start)
            var pb = panel
            var d = 0
            while d + 16 <= kp {
                let (t0, t1) = pairHalves(
                    r0.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self),
                    r1.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self))
                let (b0, b1) = pairHalves(
                    r2.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self),
                    r3.loadUnaligned(fromByteOffset: d, as: SIMD16<Int8>.self))
                top.add(t0, pb, multiply)
                bottom.add(b0, pb, multiply)
                top.add(t1, pb + 128, multiply)
                bottom.add(b1, pb + 128, multiply)
                pb += 256
                d += 16
            }
            if d < kp {
                @inline(__always) func pair(_ x: UnsafeRawPointer, _ y: UnsafeRawPointer) -> SIMD16<Int8> {
                    SIMD16(
                        lowHalf: x.loadUnaligned(fromByteOffset: d, as: SIMD8<Int8>.self),
                        highHalf: y.loadUnaligned(fromByteOffset: d, as: SIMD8<Int8>.self))
                }
                top.add(pair(r0, r1), pb, multiply)
                bottom.add(pair(r2, r3), pb, multiply)
            }
            let (s0, s1) = top.rows(), (s2, s3) = bottom.rows()
            columns.store(s0, row: i)
            if rows > 1 { columns.store(s1, row: i + 1) }
            if rows > 2 { columns.store(s2, row: i + 2) }
            if rows > 3 { columns.store(s3, row: i + 3) }
            i += rows
        }
    }
}
#endif
