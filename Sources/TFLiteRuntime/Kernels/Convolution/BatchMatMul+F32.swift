/// Float BATCH_MATMUL: one GEMM per output matrix with precomputed (broadcast) operand
/// offsets. Several matrices are split over threads whole; a single one is tiled. Either
/// way each GEMM is tiled by shape alone (``TiledGEMM``), so results do not depend on the
/// thread count.
struct BatchMatMulF32: PreparedKernel {
    let x: Int, y: Int, output: Int
    let m: Int, n: Int, k: Int
    let adjointX: Bool, adjointY: Bool
    /// Row lengths of the stored (untransposed) operands.
    let lda: Int, ldb: Int
    let xOffsets: [Int], yOffsets: [Int]

    func eval(_ context: EvalContext) throws(KernelError) {
        let a = UnsafePointer(context.pointer(x, as: Float.self))
        let b = UnsafePointer(context.pointer(y, as: Float.self))
        let c = context.pointer(output, as: Float.self)
        let matrices = xOffsets.count
        let serial = Parallel(threadCount: 1)
        let one = { (i: Int, parallel: Parallel) in
            TiledGEMM.run(parallel, m: m, n: n, k: k,
                          a: a + xOffsets[i], lda: lda, transposeA: adjointX,
                          b: b + yOffsets[i], ldb: ldb, transposeB: adjointY,
                          c: c + i * m * n, ldc: n)
        }
        if matrices == 1 {
            one(0, context.parallel)
        } else {
            context.parallel.forEachChunk(matrices) { range in
                for i in range { one(i, serial) }
            }
        }
    }
}
