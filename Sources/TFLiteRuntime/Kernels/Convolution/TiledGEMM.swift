/// Float GEMM `C = op(A) · op(B)` split over the runtime's threads in tiles of a fixed
/// size, each tile one single-threaded BLAS call.
///
/// OpenBLAS's own threading changes its blocking with the thread count, and with it the
/// summation order (measured: outputs differed in the last bits between 1 and 2 threads).
/// Here the tiling depends only on `m` and `n`, so every element is computed by the same
/// call with the same operands whatever the thread count, and results are bit-identical.
/// The engine keeps BLAS single-threaded (`setBLASThreadCount(1)`).
enum TiledGEMM {
    /// Rows of `C` per tile. Large enough that re-packing `op(B)` per tile costs little
    /// next to the tile's `rowsPerTile · n · k` multiply-adds.
    static let rowsPerTile = 64
    /// Columns of `C` per tile when `C` has too few rows to split (e.g. FULLY_CONNECTED
    /// with batch 1).
    static let columnsPerTile = 64

    /// Computes `C[m×n] = op(A) · op(B)`, then calls `finishRows` (if any) once per set of
    /// completed rows — in the worker that computed them, while they are in cache.
    /// Sizes must fit in `Int32` (checked at prepare).
    static func run(_ parallel: Parallel, m: Int, n: Int, k: Int,
                    a: UnsafePointer<Float>, lda: Int, transposeA: Bool = false,
                    b: UnsafePointer<Float>, ldb: Int, transposeB: Bool,
                    c: UnsafeMutablePointer<Float>, ldc: Int,
                    finishRows: ((Range<Int>) -> Void)? = nil) {
        guard m > 0, n > 0 else { return }
        guard k > 0 else {
            // An empty sum: BLAS would reject the leading dimensions, the answer is zeros.
            for i in 0 ..< m { (c + i * ldc).update(repeating: 0, count: n) }
            finishRows?(0 ..< m)
            return
        }
        if m > rowsPerTile {
            let tiles = (m + rowsPerTile - 1) / rowsPerTile
            parallel.forEachChunk(tiles) { range in
                for t in range {
                    let i0 = t * rowsPerTile, rows = Swift.min(rowsPerTile, m - i0)
                    sgemm(m: rows, n: n, k: k,
                          a: transposeA ? a + i0 : a + i0 * lda, lda: lda, transposeA: transposeA,
                          b: b, ldb: ldb, transposeB: transposeB,
                          c: c + i0 * ldc, ldc: ldc)
                    finishRows?(i0 ..< i0 + rows)
                }
            }
            return
        }
        let tiles = (n + columnsPerTile - 1) / columnsPerTile
        parallel.forEachChunk(tiles) { range in
            for t in range {
                let j0 = t * columnsPerTile, columns = Swift.min(columnsPerTile, n - j0)
                sgemm(m: m, n: columns, k: k,
                      a: a, lda: lda, transposeA: transposeA,
                      b: transposeB ? b + j0 * ldb : b + j0, ldb: ldb, transposeB: transposeB,
                      c: c + j0, ldc: ldc)
            }
        }
        finishRows?(0 ..< m)
    }
}
