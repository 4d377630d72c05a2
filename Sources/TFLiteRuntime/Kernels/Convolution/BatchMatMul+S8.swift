import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// int8 BATCH_MATMUL (both operands int8), as LiteRT's reference kernel computes it:
///
/// - int8 output: `acc[i, j] = Σ_k (op(x)[i, k] - zx)·(op(y)[k, j] - zy)` in wrapping
///   `Int32`, then `clamp(MBQM(acc, M, e) + z_out, -128, 127)`, where `(M, e)` is the Q31
///   form of `Double(Float(s_x · s_y)) / Double(s_out)` (the scales multiplied in single
///   precision first) and MBQM is TFLite's `MultiplyByQuantizedMultiplier`
///   (spec/fixed-point.md). Every tensor has one scale and one zero point; there is no bias
///   and no fused activation.
/// - int32 output: `Σ_k op(x)[i, k]·op(y)[k, j]` of the stored codes. LiteRT reads no
///   quantization parameters for it, zero points included.
///
/// At levels with vector kernels the products come from the level's 16-bit integer GEMM on
/// centered codes (``GemmS16Layout``, as ``Conv2DQ8GemmS16``); at the portable level from
/// ``ExactGEMM``. Both are exact, so the outputs do not depend on the level, the tiling or
/// the thread count.
enum BatchMatMulS8 {
    /// Most rows and columns of one output tile (columns: whole 16-column GEMM panels).
    static let tileRows = 64
    static let tileColumns = 64
    /// Per-worker budget for a tile's converted LHS rows.
    static let rowBudgetBytes = 256 << 10

    static func make(
        _ context: inout PrepareContext, _ g: BatchMatMulGeometry, x: TensorState, y: TensorState,
        output: TensorState
    ) throws(KernelError) -> any PreparedKernel {
        let columns = Swift.max(1, Swift.min(tileColumns, g.n))
        var zx: Int32 = 0, zy: Int32 = 0
        var requantizer: Requantizer?
        switch output.type {
        case .int8:
            let (sx, zxIn) = try QuantizedConvParams.perTensor(x, "LHS", qmin: -128, qmax: 127)
            let (sy, zyIn) = try QuantizedConvParams.perTensor(y, "RHS", qmin: -128, qmax: 127)
            let (so, zo) = try QuantizedConvParams.perTensor(output, "output", qmin: -128, qmax: 127)
            (zx, zy) = (zxIn, zyIn)
            let real = Double(sx * sy) / Double(so)
            guard real.isFinite else { throw .invalid("requantization multiplier \(real) is not finite") }
            let (mantissa, exponent) = FixedPoint.quantizeMultiplier(real)
            // Larger left shifts would overflow every accumulator but 0.
            guard exponent <= 30 else { throw .invalid("requantization multiplier \(real) is too large") }
            // One multiplier for every output; the requantizer takes one per column of a tile.
            requantizer = Requantizer(
                mode: .fixedPoint(
                    mantissas: [Int32](repeating: mantissa, count: columns),
                    exponents: [Int](repeating: exponent, count: columns)),
                outputZeroPoint: zo, lower: -128, upper: 127, level: context.kernelLevel)
        case .int32:
            break
        default:
            throw context.unsupportedTypes()
        }

        let level = context.kernelLevel
        let vector = level.hasVectorKernels
        let kp = vector ? GemmS16Layout.paddedDepth(g.k) : g.k
        let elementBytes = vector ? MemoryLayout<Int16>.stride : MemoryLayout<Float>.stride
        let rowBytes = try ConvCheck.product([Swift.max(kp, 1), elementBytes], "BATCH_MATMUL")
        let rows = Swift.max(1, Swift.min(tileRows, g.m, rowBudgetBytes / rowBytes))
        let rowsBytes = try ConvCheck.product([rows, rowBytes], "BATCH_MATMUL")
        let tileBytes = try ConvCheck.product([rows, columns, 4], "BATCH_MATMUL")
        // An int32 output takes the GEMM's sums directly; ExactGEMM also needs its Float result.
        let sumsBytes = requantizer == nil ? 0 : tileBytes
        let workerBytes = try ConvCheck.cacheLines(
            [rowsBytes, sumsBytes, vector ? 0 : tileBytes], "BATCH_MATMUL")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "BATCH_MATMUL")
        let work = context.requestThreadScratch(bytesPerThread: workerBytes)

        let group = GemmS16Layout.depthsPerGroup(for: level)
        guard
            let perMatrix = vector
                ? GemmS16Layout.packedCount(n: g.n, k: g.k) : Shape.elementCount([g.n, g.k])
        else {
            throw .invalid("BATCH_MATMUL packed RHS size overflows")
        }
        let packedBytes = try ConvCheck.product([perMatrix, g.yMatrices, elementBytes], "BATCH_MATMUL packed RHS")
        var packed: PackedBuffer?
        var packSlot = -1
        // A constant RHS is packed once, unless its 16-column panels would be mostly padding
        // (packed constants are paid for by the file's bytes, not the memory budget).
        if let constant = y.constant, !vector || g.n >= 8 {
            let codes = constant.typed(Int8.self)
            let needed = try ConvCheck.product([g.yMatrices, g.yMatrixSize], "BATCH_MATMUL RHS")
            guard codes.count >= needed else {
                throw .invalid("the RHS holds \(codes.count) values; \(needed) needed")
            }
            let (matrices, size) = (g.yMatrices, g.yMatrixSize)
            let zeroPoint = zy
            packed = try context.pack(bytes: packedBytes) { pointer in
                if let w = codes.baseAddress {
                    for matrix in 0 ..< matrices {
                        if vector {
                            packS16(
                                g, w + matrix * size, zeroPoint: zeroPoint, group: group,
                                into: pointer.assumingMemoryBound(to: Int16.self) + matrix * perMatrix)
                        } else {
                            packF32(
                                g, w + matrix * size, zeroPoint: zeroPoint,
                                into: pointer.assumingMemoryBound(to: Float.self) + matrix * perMatrix)
                        }
                    }
                }
                constant.releasePages()
                return 0
            }
        } else {
            packSlot = context.requestScratch(bytes: packedBytes)
        }
        return BatchMatMulS8Gemm(
            x: x.index, y: y.index, output: output.index, geometry: g, zx: zx, zy: zy, requantizer: requantizer,
            vector: vector, group: group, kp: kp, rows: rows, columns: columns, packed: packed, packSlot: packSlot,
            perMatrix: perMatrix, work: work, workerBytes: workerBytes, rowsBytes: rowsBytes, sumsBytes: sumsBytes)
    }

    /// One RHS matrix as ``GemmS16Layout`` panels of `op(y)ᵀ - zy` (`n` columns of depth `k`).
    static func packS16(
        _ g: BatchMatMulGeometry, _ matrix: UnsafePointer<Int8>, zeroPoint zy: Int32, group: Int,
        into out: UnsafeMutablePointer<Int16>
    ) {
        g.packPanels(matrix, firstDepth: 0, depths: g.k, zeroPoint: zy, split: false, group: group, into: out)
    }

    /// One RHS matrix as the rows of `op(y)ᵀ - zy` in Float (`n × k`, exact), ``ExactGEMM``'s B.
    static func packF32(
        _ g: BatchMatMulGeometry, _ matrix: UnsafePointer<Int8>, zeroPoint zy: Int32,
        into out: UnsafeMutablePointer<Float>
    ) {
        for j in 0 ..< g.n {
            for d in 0 ..< g.k { out[j * g.k + d] = Float(Int32(g.rhs(matrix, depth: d, column: j)) &- zy) }
        }
    }
}

/// The int8 GEMMs of ``BatchMatMulS8``: output tiles of at most `rows × columns` of every
/// output matrix, spread over the threads; a worker converts a tile's LHS rows once and
/// reuses them for the row's consecutive column tiles. A computed RHS is packed first, each
/// matrix once, into scratch.
struct BatchMatMulS8Gemm: PreparedKernel {
    let x: Int, y: Int, output: Int
    let geometry: BatchMatMulGeometry
    /// Zero points subtracted from the LHS and RHS codes (0 for an int32 output).
    let zx: Int32, zy: Int32
    /// nil for an int32 output, which takes the sums as they are.
    let requantizer: Requantizer?
    /// The 16-bit integer GEMM (else ``ExactGEMM``), with `group` depths per panel group.
    let vector: Bool
    let group: Int
    /// The depth as the GEMM reads it (even for the 16-bit GEMM): the LHS row stride.
    let kp: Int
    let rows: Int, columns: Int
    /// The packed constant RHS, else the scratch slot the RHS is packed into at eval.
    let packed: PackedBuffer?
    let packSlot: Int
    /// Packed elements per RHS matrix.
    let perMatrix: Int
    let work: Int, workerBytes: Int, rowsBytes: Int, sumsBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        guard geometry.broadcast.count > 0 else { return }
        if vector { runS16(context) } else { runExact(context) }
    }

    /// The packed RHS: the constant's, or every RHS matrix packed by `pack` into scratch.
    @inline(__always)
    private func packedRHS<E>(
        _ context: EvalContext, as _: E.Type, _ pack: (UnsafePointer<Int8>, UnsafeMutablePointer<E>) -> Void
    ) -> UnsafePointer<E> {
        if let packed { return UnsafePointer(packed.pointer.assumingMemoryBound(to: E.self)) }
        let ys = UnsafePointer(context.pointer(y, as: Int8.self))
        let out = context.scratch(packSlot, as: E.self)
        let (size, perMatrix) = (geometry.yMatrixSize, self.perMatrix)
        context.parallel.forEachChunk(geometry.yMatrices) { matrices in
            for matrix in matrices { pack(ys + matrix * size, out + matrix * perMatrix) }
        }
        return UnsafePointer(out)
    }

    /// Calls `body` for every output tile: the running worker's scratch, the output matrix
    /// and its LHS and RHS matrices, the tile's first row and row count, first column and
    /// column count, and whether its rows differ from the previous tile's on this worker.
    @inline(__always)
    private func forEachTile(
        _ context: EvalContext,
        _ body: (
            _ scratch: UnsafeMutableRawPointer, _ matrix: Int, _ xMatrix: Int, _ yMatrix: Int, _ r0: Int,
            _ rowCount: Int, _ c0: Int, _ columnCount: Int, _ newRows: Bool
        ) -> Void
    ) {
        let g = geometry, rows = rows, columns = columns
        let rowTiles = (g.m + rows - 1) / rows, columnTiles = (g.n + columns - 1) / columns
        let tilesPerMatrix = rowTiles * columnTiles
        context.parallel.forEachChunkOnThread(g.broadcast.count * tilesPerMatrix) { thread, range in
            let scratch = context.threadScratch(work, thread: thread, bytes: workerBytes)
            var loaded = -1
            for t in range {
                let matrix = t / tilesPerMatrix, rest = t % tilesPerMatrix
                let rt = rest / columnTiles, ct = rest % columnTiles
                let (xi, yi) = g.broadcast.matrices(matrix)
                let r0 = rt * rows, c0 = ct * columns
                let rowBlock = matrix * rowTiles + rt
                body(
                    scratch, matrix, xi, yi, r0, Swift.min(rows, g.m - r0), c0, Swift.min(columns, g.n - c0),
                    rowBlock != loaded)
                loaded = rowBlock
            }
        }
    }

    /// Requantizes a tile's sums (`columns` apart) into the int8 output, or nothing when
    /// the GEMM wrote an int32 output itself.
    @inline(__always)
    private func store(
        _ context: EvalContext, sums: UnsafePointer<Int32>, matrix: Int, r0: Int, rowCount: Int, c0: Int,
        columnCount: Int
    ) {
        guard let requantizer else { return }
        let g = geometry
        let out = context.pointer(output, as: Int8.self) + (matrix * g.m + r0) * g.n + c0
        requantizer.storeRows(
            sums, rows: rowCount, count: columnCount, accStride: columns, firstChannel: 0, bias: nil,
            into: out, outStride: g.n)
    }

    private func runS16(_ context: EvalContext) {
        let g = geometry, zx = zx, zy = zy, group = group, kp = kp, perMatrix = perMatrix
        let xs = UnsafePointer(context.pointer(x, as: Int8.self))
        let b = packedRHS(context, as: Int16.self) { matrix, out in
            BatchMatMulS8.packS16(g, matrix, zeroPoint: zy, group: group, into: out)
        }
        let wide = requantizer == nil ? context.pointer(output, as: Int32.self) : nil
        forEachTile(context) { scratch, matrix, xi, yi, r0, rowCount, c0, columnCount, newRows in
            let a = scratch.assumingMemoryBound(to: Int16.self)
            if newRows {
                loadRows(xs + xi * g.xMatrixSize, first: r0, count: rowCount, into: a, stride: kp) { src, count, dst in
                    Conv2DQ8GemmS16.center(src, count, dst, zeroPoint: zx)
                } element: {
                    Int16(truncatingIfNeeded: Int32($0) &- zx)
                }
            }
            let c: UnsafeMutablePointer<Int32>, ldc: Int
            if let wide {
                (c, ldc) = (wide + (matrix * g.m + r0) * g.n + c0, g.n)
            } else {
                (c, ldc) = ((scratch + rowsBytes).assumingMemoryBound(to: Int32.self), columns)
            }
            let panels = b + yi * perMatrix + c0 * kp
            #if arch(x86_64)
            gemmS16x4x16c2(m: rowCount, n: columnCount, kp: kp, a: a, lda: kp, packedB: panels, c: c, ldc: ldc)
            #elseif arch(arm64)
            gemmS16x4x16NEON(m: rowCount, n: columnCount, kp: kp, a: a, lda: kp, packedB: panels, c: c, ldc: ldc)
            #endif
            store(context, sums: c, matrix: matrix, r0: r0, rowCount: rowCount, c0: c0, columnCount: columnCount)
        }
    }

    private func runExact(_ context: EvalContext) {
        let g = geometry, zx = zx, zy = zy, perMatrix = perMatrix
        let xs = UnsafePointer(context.pointer(x, as: Int8.self))
        let b = packedRHS(context, as: Float.self) { matrix, out in
            BatchMatMulS8.packF32(g, matrix, zeroPoint: zy, into: out)
        }
        let gemm = ExactGEMM(
            maxAbsA: QuantizedConvParams.maxCentered(Int8.self, zeroPoint: zx),
            maxAbsB: QuantizedConvParams.maxCentered(Int8.self, zeroPoint: zy))
        let wide = requantizer == nil ? context.pointer(output, as: Int32.self) : nil
        forEachTile(context) { scratch, matrix, xi, yi, r0, rowCount, c0, columnCount, newRows in
            let a = scratch.assumingMemoryBound(to: Float.self)
            if newRows {
                loadRows(xs + xi * g.xMatrixSize, first: r0, count: rowCount, into: a, stride: g.k) { src, count, dst in
                    centerCodes(src, count: count, zeroPoint: zx, into: dst)
                } element: {
                    Float(Int32($0) &- zx)
                }
            }
            let acc: UnsafeMutablePointer<Int32>, ldacc: Int
            if let wide {
                (acc, ldacc) = (wide + (matrix * g.m + r0) * g.n + c0, g.n)
            } else {
                (acc, ldacc) = ((scratch + rowsBytes).assumingMemoryBound(to: Int32.self), columns)
            }
            let temp = (scratch + rowsBytes + sumsBytes).assumingMemoryBound(to: Float.self)
            gemm.run(
                m: rowCount, n: columnCount, k: g.k, a: a, lda: g.k, b: b + yi * perMatrix + c0 * g.k, ldb: g.k,
                temp: temp, acc: acc, ldacc: ldacc)
            store(context, sums: acc, matrix: matrix, r0: r0, rowCount: rowCount, c0: c0, columnCount: columnCount)
        }
    }

    /// Rows `r0 ..< r0 + count` of `op(x)` of one LHS matrix, converted, into rows `stride`
    /// elements apart, the depths past `k` zero: a stored row through `row` (`src`, `k`,
    /// `dst`), or with `adj_x` (the stored rows are depths) code by code through `element`.
    @inline(__always)
    private func loadRows<E: Numeric>(
        _ matrix: UnsafePointer<Int8>, first r0: Int, count: Int, into a: UnsafeMutablePointer<E>, stride: Int,
        row: (UnsafePointer<Int8>, Int, UnsafeMutablePointer<E>) -> Void, element: (Int8) -> E
    ) {
        let g = geometry
        if g.adjointX {
            for d in 0 ..< g.k {
                let src = matrix + d * g.xColumns + r0
                for i in 0 ..< count { a[i * stride + d] = element(src[i]) }
            }
        } else {
            for i in 0 ..< count { row(matrix + (r0 + i) * g.xColumns, g.k, a + i * stride) }
        }
        if stride > g.k {
            for i in 0 ..< count {
                for d in g.k ..< stride { a[i * stride + d] = 0 }
            }
        }
    }
}
