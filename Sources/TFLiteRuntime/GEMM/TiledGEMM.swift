/// Float GEMM `C = op(A) · op(B)` split over the runtime's threads in tiles of a fixed
/// size, each tile one single-threaded BLAS call.
///
/// OpenBLAS's own threading changes its blocking with the thread count, and with it the
/// summation order (measured: outputs differed in the last bits between 1 and 2 threads).
/// Here the tiling depends only on `m` and `n`, so every element is computed by the same
/// call with the same operands whatever the thread count, and results are bit-identical.
/// The engine keeps BLAS single-threaded (`setBLASThreadCount(1)`).
///
/// Tile sizes. Every BLAS call packs its whole `op(B)` tile, `n·k` values, to use it for
/// the call's rows; with AVX-512 FMA doing ~32 multiply-adds a cycle that copy costs about
/// `32 / rows` of the call's arithmetic, so tiles must be tall (64-row tiles cost 50%, and
/// 64-column tiles of a 7×7 layer, 49 rows, more than the arithmetic). Rows are therefore
/// split only when there are at least `2·minimumRows`, into tiles of ≥ `minimumRows`
/// holding about `tileValues` outputs (so the epilogue finds them in cache), at least two
/// tiles for two threads; shorter products are split in two by columns when big enough.
enum TiledGEMM {
    /// Smallest row tile (a multiple of 16, OpenBLAS's row unroll with AVX-512).
    static let minimumRows = 128
    /// Target outputs per row tile (256 KiB of floats).
    static let tileValues = 1 << 16
    /// Products with fewer multiply-adds run as one call.
    static let minimumSplitWork = 1 << 20

    /// Rows per tile for an `m×n` product with `m ≥ 2·minimumRows`: an even number of tiles
    /// (two threads get equal shares; 7 tiles would leave one idle for 1/8 of the time) of
    /// about `tileValues` outputs (never under `minimumRows` rows), sized evenly.
    static func rowsPerTile(m: Int, n: Int) -> Int {
        let target = Swift.max(minimumRows, tileValues / Swift.max(n, 1))
        var tiles = Swift.max(2, (m + target - 1) / target)
        tiles += tiles & 1
        return roundUp16((m + tiles - 1) / tiles)
    }

    /// Columns per tile when rows are not split: all of them, or half (rounded up to 16)
    /// when the product is big enough to be worth two calls.
    static func columnsPerTile(m: Int, n: Int, k: Int) -> Int {
        let work = m.multipliedReportingOverflow(by: n).partialValue.multipliedReportingOverflow(by: k)
        guard !work.overflow, work.partialValue >= minimumSplitWork, n >= 32 else { return n }
        return roundUp16((n + 1) / 2)
    }

    @inline(__always)
    static func roundUp16(_ x: Int) -> Int { (x + 15) & ~15 }

    /// Computes `C[m×n] = op(A) · op(B)`, then calls `finishRows` (if any) once per set of
    /// completed rows — in the worker that computed them, while they are in cache.
    /// Sizes must fit in `Int32` (checked at prepare).
    static func run(
        _ parallel: Parallel, m: Int, n: Int, k: Int,
        a: UnsafePointer<Float>, lda: Int, transposeA: Bool = false,
        b: UnsafePointer<Float>, ldb: Int, transposeB: Bool,
        c: UnsafeMutablePointer<Float>, ldc: Int,
        finishRows: ((Range<Int>) -> Void)? = nil
    ) {
        guard m > 0, n > 0 else { return }
        guard k > 0 else {
            // An empty sum: BLAS would reject the leading dimensions, the answer is zeros.
            for i in 0 ..< m { (c + i * ldc).update(repeating: 0, count: n) }
            finishRows?(0 ..< m)
            return
        }
        if m >= 2 * minimumRows {
            let rowsPerTile = self.rowsPerTile(m: m, n: n)
            let tiles = (m + rowsPerTile - 1) / rowsPerTile
            parallel.forEachTask(tiles) { t in
                let i0 = t * rowsPerTile, rows = Swift.min(rowsPerTile, m - i0)
                sgemm(
                    m: rows, n: n, k: k,
                    a: transposeA ? a + i0 : a + i0 * lda, lda: lda, transposeA: transposeA,
                    b: b, ldb: ldb, transposeB: transposeB,
                    c: c + i0 * ldc, ldc: ldc)
                finishRows?(i0 ..< i0 + rows)
            }
            return
        }
        let columnsPerTile = self.columnsPerTile(m: m, n: n, k: k)
        let tiles = (n + columnsPerTile - 1) / columnsPerTile
        parallel.forEachTask(tiles) { t in
            let j0 = t * columnsPerTile, columns = Swift.min(columnsPerTile, n - j0)
            sgemm(
                m: m, n: columns, k: k,
                a: a, lda: lda, transposeA: transposeA,
                b: transposeB ? b + j0 * ldb : b + j0, ldb: ldb, transposeB: transposeB,
                c: c + j0, ldc: ldc)
        }
        if let finishRows {
            parallel.forEachChunk(m, cost: n) { rows in finishRows(rows) }
        }
    }
}
