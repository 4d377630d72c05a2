import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// int16 BATCH_MATMUL on the level's 16-bit integer GEMM (``GemmS16Layout``), for the
/// levels that have one: the same exact sums as ``BatchMatMulS16Kernel``.
///
/// The GEMM multiplies `Int16` values and adds the products in `Int32` lanes. One product
/// of two int16 codes fits, but their sums do not, so an int16 RHS is split into bytes,
/// `b = 256·(b >> 8) + (b & 255)`, each its own GEMM column (high and low byte of column
/// `j` side by side): `Σ a·b = 256·Σ a·(b >> 8) + Σ a·(b & 255)`, where
/// `|a·(b >> 8)| ≤ 2^22` and `|a·(b & 255)| < 2^23`. An int8 RHS is used as it is
/// (`|a·b| ≤ 2^22`). Each GEMM call then sums at most ``depthChunk`` depths, whose sums stay
/// below 2^31 whatever the order; the chunks' and the bytes' sums are combined in `Int64`.
struct BatchMatMulS16Gemm: PreparedKernel {
    /// Most depths one GEMM call sums: `256 · (2^23 - 1) < 2^31`.
    static let depthChunk = 256
    /// Most rows and output columns of one tile (columns: whole 16-column GEMM panels once split).
    static let tileRows = 64
    static let tileColumns = 32
    /// Per-worker budget for a tile's LHS rows.
    static let rowBudgetBytes = 256 << 10

    let x: Int, y: Int, output: Int
    let geometry: BatchMatMulGeometry
    /// An int16 RHS, split into bytes (two GEMM columns per output column).
    let split: Bool
    let rescale: BatchMatMulS16Rescale
    /// The LHS row stride: `k` rounded up to even.
    let kp: Int
    let rows: Int, columns: Int
    /// Depth chunks, and the packed elements of a whole chunk and of one RHS matrix.
    let chunks: Int, chunkCount: Int, perMatrix: Int
    /// The packed constant RHS, else the scratch slot the RHS is packed into at eval.
    let packed: PackedBuffer?
    let packSlot: Int
    let group: Int
    let work: Int, workerBytes: Int, rowsBytes: Int, sumsBytes: Int

    static func make(
        _ context: inout PrepareContext, _ g: BatchMatMulGeometry, x: TensorState, y: TensorState,
        output: TensorState, rescale: BatchMatMulS16Rescale
    ) throws(KernelError) -> BatchMatMulS16Gemm {
        let split = y.type == .int16
        let kp = GemmS16Layout.paddedDepth(g.k)
        let rowBytes = try ConvCheck.product([Swift.max(kp, 1), 2], "BATCH_MATMUL")
        let rows = Swift.max(1, Swift.min(tileRows, g.m, rowBudgetBytes / rowBytes))
        let columns = Swift.max(1, Swift.min(tileColumns, g.n))
        let gemmColumns = split ? 2 * columns : columns
        let chunks = Swift.max(1, (g.k + depthChunk - 1) / depthChunk)
        let rowsBytes = try ConvCheck.product([rows, rowBytes], "BATCH_MATMUL")
        let sumsBytes = try ConvCheck.product([rows, gemmColumns, 4], "BATCH_MATMUL")
        // Several chunks add up in Int64 per output.
        let totalsBytes = chunks > 1 ? try ConvCheck.product([rows, columns, 8], "BATCH_MATMUL") : 0
        let workerBytes = try ConvCheck.cacheLines([rowsBytes, sumsBytes, totalsBytes], "BATCH_MATMUL")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "BATCH_MATMUL")
        let work = context.requestThreadScratch(bytesPerThread: workerBytes)

        let n = split ? try ConvCheck.product([g.n, 2], "BATCH_MATMUL") : g.n
        let lastDepths = g.k - (chunks - 1) * depthChunk
        guard
            let chunkCount = GemmS16Layout.packedCount(n: n, k: Swift.min(g.k, depthChunk)),
            let lastCount = GemmS16Layout.packedCount(n: n, k: lastDepths)
        else {
            throw .invalid("BATCH_MATMUL packed RHS size overflows")
        }
        let fullChunks = try ConvCheck.product([chunks - 1, chunkCount], "BATCH_MATMUL packed RHS")
        let (perMatrix, overflow) = fullChunks.addingReportingOverflow(lastCount)
        guard !overflow else { throw .invalid("BATCH_MATMUL packed RHS size overflows") }
        let packedBytes = try ConvCheck.product([perMatrix, g.yMatrices, 2], "BATCH_MATMUL packed RHS")
        let group = GemmS16Layout.depthsPerGroup(for: context.kernelLevel)
        var packed: PackedBuffer?
        var packSlot = -1
        // A constant RHS is packed once, unless its 16-column panels would be mostly padding
        // (packed constants are paid for by the file's bytes, not the memory budget).
        if let constant = y.constant, g.n >= 8 {
            let needed = try ConvCheck.product([g.yMatrices, g.yMatrixSize], "BATCH_MATMUL RHS")
            let count = split ? constant.typed(Int16.self).count : constant.typed(Int8.self).count
            guard count >= needed else { throw .invalid("the RHS holds \(count) values; \(needed) needed") }
            packed = try context.pack(bytes: packedBytes) { pointer in
                let out = pointer.assumingMemoryBound(to: Int16.self)
                for matrix in 0 ..< g.yMatrices {
                    if split, let w = constant.typed(Int16.self).baseAddress {
                        pack(g, w + matrix * g.yMatrixSize, split: true, group: group, into: out + matrix * perMatrix)
                    } else if !split, let w = constant.typed(Int8.self).baseAddress {
                        pack(g, w + matrix * g.yMatrixSize, split: false, group: group, into: out + matrix * perMatrix)
                    }
                }
                constant.releasePages()
                return 0
            }
        } else {
            packSlot = context.requestScratch(bytes: packedBytes)
        }
        return BatchMatMulS16Gemm(
            x: x.index, y: y.index, output: output.index, geometry: g, split: split, rescale: rescale, kp: kp,
            rows: rows, columns: columns, chunks: chunks, chunkCount: chunkCount, perMatrix: perMatrix,
            packed: packed, packSlot: packSlot, group: group, work: work, workerBytes: workerBytes,
            rowsBytes: rowsBytes, sumsBytes: sumsBytes)
    }

    /// One RHS matrix as ``GemmS16Layout`` panels of `op(y)ᵀ`, chunk after chunk of
    /// ``depthChunk`` depths; split, GEMM column `2j` holds `b >> 8` and `2j + 1` holds
    /// `b & 255` of output column `j`.
    static func pack<T: FixedWidthInteger & SignedInteger>(
        _ g: BatchMatMulGeometry, _ matrix: UnsafePointer<T>, split: Bool, group: Int,
        into out: UnsafeMutablePointer<Int16>
    ) {
        let n = split ? 2 * g.n : g.n
        var d0 = 0, offset = 0
        repeat {
            let depths = Swift.min(depthChunk, g.k - d0)
            g.packPanels(
                matrix, firstDepth: d0, depths: depths, zeroPoint: 0, split: split, group: group, into: out + offset)
            offset += GemmS16Layout.packedCount(n: n, k: depths) ?? 0
            d0 += depthChunk
        } while d0 < g.k
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        guard g.broadcast.count > 0 else { return }
        let b: UnsafePointer<Int16>
        if let packed {
            b = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int16.self))
        } else {
            let out = context.scratch(packSlot, as: Int16.self)
            let (ys, split, group, perMatrix) = (context.raw(y), split, group, perMatrix)
            context.parallel.forEachChunk(g.yMatrices) { matrices in
                for matrix in matrices {
                    if split {
                        let w = UnsafePointer(ys.assumingMemoryBound(to: Int16.self)) + matrix * g.yMatrixSize
                        Self.pack(g, w, split: true, group: group, into: out + matrix * perMatrix)
                    } else {
                        let w = UnsafePointer(ys.assumingMemoryBound(to: Int8.self)) + matrix * g.yMatrixSize
                        Self.pack(g, w, split: false, group: group, into: out + matrix * perMatrix)
                    }
                }
            }
            b = UnsafePointer(out)
        }
        let xs = UnsafePointer(context.pointer(x, as: Int16.self))
        let z = context.pointer(output, as: Int16.self)
        let (rows, columns, kp, chunks, split) = (rows, columns, kp, chunks, split)
        let ldc = split ? 2 * columns : columns
        let rowTiles = (g.m + rows - 1) / rows, columnTiles = (g.n + columns - 1) / columns
        let tilesPerMatrix = rowTiles * columnTiles
        context.parallel.forEachChunkOnThread(g.broadcast.count * tilesPerMatrix) { thread, range in
            let scratch = context.threadScratch(work, thread: thread, bytes: workerBytes)
            let a = scratch.assumingMemoryBound(to: Int16.self)
            let sums = (scratch + rowsBytes).assumingMemoryBound(to: Int32.self)
            let totals = (scratch + rowsBytes + sumsBytes).assumingMemoryBound(to: Int64.self)
            var loaded = -1
            for t in range {
                let matrix = t / tilesPerMatrix, rest = t % tilesPerMatrix
                let rt = rest / columnTiles, ct = rest % columnTiles
                let (xi, yi) = g.broadcast.matrices(matrix)
                let r0 = rt * rows, c0 = ct * columns
                let rowCount = Swift.min(rows, g.m - r0), columnCount = Swift.min(columns, g.n - c0)
                if matrix * rowTiles + rt != loaded {
                    loadRows(xs + xi * g.xMatrixSize, first: r0, count: rowCount, into: a)
                    loaded = matrix * rowTiles + rt
                }
                let gemmColumns = split ? 2 * columnCount : columnCount
                var offset = yi * perMatrix
                for chunk in 0 ..< chunks {
                    let d0 = chunk * Self.depthChunk
                    let depths = GemmS16Layout.paddedDepth(Swift.min(Self.depthChunk, g.k - d0))
                    let panels = b + offset + (split ? 2 * c0 : c0) * depths
                    #if arch(x86_64)
                    gemmS16x4x16c2(
                        m: rowCount, n: gemmColumns, kp: depths, a: a + d0, lda: kp, packedB: panels, c: sums,
                        ldc: ldc)
                    #elseif arch(arm64)
                    gemmS16x4x16NEON(
                        m: rowCount, n: gemmColumns, kp: depths, a: a + d0, lda: kp, packedB: panels, c: sums,
                        ldc: ldc)
                    #endif
                    offset += chunkCount
                    guard chunks > 1 else { break }
                    for i in 0 ..< rowCount {
                        let row = totals + i * columns, s = sums + i * ldc
                        for j in 0 ..< columnCount {
                            let sum = split ? Int64(s[2 * j]) &* 256 &+ Int64(s[2 * j + 1]) : Int64(s[j])
                            row[j] = chunk == 0 ? sum : row[j] &+ sum
                        }
                    }
                }
                for i in 0 ..< rowCount {
                    let out = z + (matrix * g.m + r0 + i) * g.n + c0
                    let row = totals + i * columns, s = sums + i * ldc
                    if chunks > 1 {
                        for j in 0 ..< columnCount { out[j] = rescale.apply(row[j]) }
                    } else if split {
                        for j in 0 ..< columnCount {
                            out[j] = rescale.apply(Int64(s[2 * j]) &* 256 &+ Int64(s[2 * j + 1]))
                        }
                    } else {
                        for j in 0 ..< columnCount { out[j] = rescale.apply(Int64(s[j])) }
                    }
                }
            }
        }
    }

    /// Rows `r0 ..< r0 + count` of `op(x)` of one LHS matrix into rows `kp` apart, the
    /// depths past `k` zero.
    @inline(__always)
    private func loadRows(
        _ matrix: UnsafePointer<Int16>, first r0: Int, count: Int, into a: UnsafeMutablePointer<Int16>
    ) {
        let g = geometry, kp = kp
        if g.adjointX {
            // op(x)[i, d] = x[d, i]: the stored rows are depths.
            for d in 0 ..< g.k {
                let src = matrix + d * g.xColumns + r0
                for i in 0 ..< count { a[i * kp + d] = src[i] }
            }
        } else {
            for i in 0 ..< count { (a + i * kp).update(from: matrix + (r0 + i) * g.xColumns, count: g.k) }
        }
        if kp > g.k {
            for i in 0 ..< count { a[i * kp + g.k] = 0 }
        }
    }
}
