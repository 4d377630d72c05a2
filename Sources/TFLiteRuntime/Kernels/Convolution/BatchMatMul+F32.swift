/// Float BATCH_MATMUL: one GEMM per output matrix, its operands found through the
/// broadcast batch dimensions. Several matrices are split over threads whole; a single one is tiled. Either
/// way each GEMM is tiled by shape alone (``TiledGEMM``), so results do not depend on the
/// thread count.
struct BatchMatMulF32: PreparedKernel {
    let x: Int, y: Int, output: Int
    let m: Int, n: Int, k: Int
    let adjointX: Bool, adjointY: Bool
    /// Row lengths of the stored (untransposed) operands.
    let lda: Int, ldb: Int
    /// Elements of one stored LHS and RHS matrix.
    let xMatrixSize: Int, yMatrixSize: Int
    let broadcast: BatchBroadcast

    func eval(_ context: EvalContext) throws(KernelError) {
        let a = UnsafePointer(context.pointer(x, as: Float.self))
        let b = UnsafePointer(context.pointer(y, as: Float.self))
        let c = context.pointer(output, as: Float.self)
        let matrices = broadcast.count
        let serial = Parallel(threadCount: 1)
        let one = { (i: Int, parallel: Parallel) in
            let (xi, yi) = broadcast.matrices(i)
            TiledGEMM.run(
                parallel, m: m, n: n, k: k,
                a: a + xi * xMatrixSize, lda: lda, transposeA: adjointX,
                b: b + yi * yMatrixSize, ldb: ldb, transposeB: adjointY,
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
