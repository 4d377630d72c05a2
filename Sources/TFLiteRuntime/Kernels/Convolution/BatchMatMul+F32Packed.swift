import Microkernels

/// Float BATCH_MATMUL on the level's packed float GEMM (the one CONV_2D uses), for levels
/// with vector kernels: per output matrix, `op(y)` is packed into ``GemmF32Layout`` panels
/// in the worker's scratch (a zero bias, `k·n` copies against `m·n·k` multiply-adds) and
/// `op(x)` is read in place (copied transposed first when `adjoint_x` is set).
///
/// Every output is one chain of FMAs in depth order whichever worker or row split computes
/// it, so results do not depend on the thread count. There is no activation: the clamp is
/// to ±infinity, which lets NaN through as the sum gives it. A single matrix packs `op(y)`
/// once and splits its rows over the threads; several go to the threads whole, a worker
/// packing a RHS matrix again only when the next output needs another (broadcasts reuse
/// it).
struct BatchMatMulF32Packed: PreparedKernel {
    let x: Int, y: Int, output: Int
    let geometry: BatchMatMulGeometry
    let level: KernelLevel
    let width: Int
    /// Each worker's packed `op(y)` (`packedFloats`), then `op(x)` transposed when needed.
    let scratch: Int, scratchBytes: Int, packedFloats: Int

    /// The kernel when `context`'s level has the packed float GEMM, else nil.
    static func make(
        _ context: inout PrepareContext, x: Int, y: Int, output: Int, geometry g: BatchMatMulGeometry
    ) throws(KernelError) -> BatchMatMulF32Packed? {
        // Packing costs `k·n` copies per matrix against `m·n·k` multiply-adds: below a row
        // block (a decode step's one query row) it would cost as much as the product.
        guard context.kernelLevel.hasVectorKernels, g.m >= Self.rowBlock, g.n > 0, g.k > 0 else { return nil }
        let width = GemmF32Layout.panelWidth(for: context.kernelLevel)
        guard let packedFloats = GemmF32Layout.packedCount(n: g.n, k: g.k, width: width) else {
            throw .invalid("BATCH_MATMUL packed operand size overflows")
        }
        let transposed = g.adjointX ? try ConvCheck.product([g.m, g.k], "BATCH_MATMUL") : 0
        let scratchBytes = try ConvCheck.cacheLines(
            [
                try ConvCheck.product([packedFloats, 4], "BATCH_MATMUL"),
                try ConvCheck.product([transposed, 4], "BATCH_MATMUL"),
            ], "BATCH_MATMUL")
        _ = try ConvCheck.product([scratchBytes, context.threadCount], "BATCH_MATMUL")
        return BatchMatMulF32Packed(
            x: x, y: y, output: output, geometry: g, level: context.kernelLevel, width: width,
            scratch: context.requestThreadScratch(bytesPerThread: scratchBytes), scratchBytes: scratchBytes,
            packedFloats: packedFloats)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let a = UnsafePointer(context.pointer(x, as: Float.self))
        let b = UnsafePointer(context.pointer(y, as: Float.self))
        let c = context.pointer(output, as: Float.self)
        let (m, n, k, broadcast) = (geometry.m, geometry.n, geometry.k, geometry.broadcast)
        if broadcast.count == 1 {
            let base = context.threadScratch(scratch, thread: 0, bytes: scratchBytes)
            let (packed, lhs) = operands(base, a: a, b: b, matrix: 0, packing: true)
            let blocks = (m + Self.rowBlock - 1) / Self.rowBlock
            context.parallel.forEachChunk(blocks, cost: Self.rowBlock * n * k) { range in
                let first = range.lowerBound * Self.rowBlock
                let rows = Swift.min(m, range.upperBound * Self.rowBlock) - first
                gemm(rows: rows, a: lhs.a + first * lhs.lda, lda: lhs.lda, packed: packed, c: c + first * n)
            }
            return
        }
        context.parallel.forEachChunkOnThread(broadcast.count) { thread, range in
            let base = context.threadScratch(scratch, thread: thread, bytes: scratchBytes)
            var packedMatrix = -1
            for i in range {
                let yi = broadcast.matrices(i).y
                let (packed, lhs) = operands(base, a: a, b: b, matrix: i, packing: yi != packedMatrix)
                packedMatrix = yi
                gemm(rows: m, a: lhs.a, lda: lhs.lda, packed: packed, c: c + i * m * n)
            }
        }
    }

    /// Rows per parallel task of a single matrix: the microkernels' largest block.
    static let rowBlock = Conv2DF32Packed.rowBlock

    /// Output matrix `i`'s operands in the worker's scratch `base`: the packed `op(y)`
    /// (packed now when `packing`, else kept from the last matrix) and `op(x)`'s rows.
    @inline(__always)
    private func operands(
        _ base: UnsafeMutableRawPointer, a: UnsafePointer<Float>, b: UnsafePointer<Float>, matrix i: Int,
        packing: Bool
    ) -> (UnsafePointer<Float>, (a: UnsafePointer<Float>, lda: Int)) {
        let g = geometry
        let (xi, yi) = g.broadcast.matrices(i)
        let packed = base.assumingMemoryBound(to: Float.self)
        if packing {
            let rhs = b + yi * g.yMatrixSize
            if g.adjointY {
                // Stored `[n, k]`: one output column per row, the layout of a filter.
                GemmF32Layout.pack(weights: rhs, bias: nil, n: g.n, k: g.k, width: width, into: packed)
            } else {
                GemmF32Layout.pack(rows: rhs, ldb: g.yColumns, n: g.n, k: g.k, width: width, into: packed)
            }
        }
        let lhs = a + xi * g.xMatrixSize
        guard g.adjointX else { return (UnsafePointer(packed), (lhs, g.xColumns)) }
        // Stored `[k, m]`: the rows of op(x) are its columns.
        let rows = packed + packedFloats
        for r in 0 ..< g.m {
            for d in 0 ..< g.k { rows[r * g.k + d] = lhs[d * g.xColumns + r] }
        }
        return (UnsafePointer(packed), (UnsafePointer(rows), g.k))
    }

    @inline(__always)
    private func gemm(
        rows: Int, a: UnsafePointer<Float>, lda: Int, packed: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>
    ) {
        Conv2DF32Packed.gemm(
            level: level, m: rows, n: geometry.n, k: geometry.k, a: a, lda: lda, packedB: packed, lower: -.infinity,
            upper: .infinity, c: c, ldc: geometry.n)
    }
}
