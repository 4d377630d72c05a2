/// The tiling and per-worker scratch shared by the im2col + ``ExactGEMM`` convolutions
/// (quantized and hybrid CONV_2D).
///
/// Output pixels are cut into tiles of `rows` pixels (at most ``maxPixels``, at most a
/// thread's share, and few enough that a tile's im2col rows fit ``im2colBudgetBytes``).
/// Each worker's scratch holds one tile's im2col rows (`rows × patch` Float), the GEMM's
/// Float result and its exact `Int32` sums (`rows × outChannels` each). The tiling depends
/// on the shapes and the thread count only; every output is computed within one tile.
struct GemmTiles: Sendable {
    /// Per-worker budget for the im2col rows of one tile.
    static let im2colBudgetBytes = 512 << 10
    /// Most output pixels per tile (one GEMM's rows).
    static let maxPixels = 256

    let pixels: Int
    let rows: Int
    let scratch: Int
    let columnsBytes: Int, resultBytes: Int, workerBytes: Int

    /// Plans the tiles of `pixels` outputs whose patches hold `patch` values, for GEMMs
    /// of `outChannels` columns, and requests the scratch (without the result and sums
    /// buffers when `results` is false: kernels whose GEMM writes the output). `op` names
    /// errors.
    init(
        _ context: inout PrepareContext, pixels: Int, patch: Int, outChannels: Int, results: Bool = true,
        op: String
    ) throws(KernelError) {
        let patchBytes = try ConvCheck.product([patch, MemoryLayout<Float>.stride], "\(op) patch")
        let threads = context.threadCount
        let perThread = (pixels + threads - 1) / threads
        let most = Swift.max(1, Swift.min(perThread, Self.maxPixels, Self.im2colBudgetBytes / Swift.max(patchBytes, 1)))
        rows = Self.evenRows(pixels: pixels, most: most, threads: threads)
        try ConvCheck.blasSizes([rows, outChannels, patch], op)
        columnsBytes = try ConvCheck.product([rows, patchBytes], "\(op) im2col")
        resultBytes = results ? try ConvCheck.product([rows, outChannels, 4], "\(op) tile") : 0
        workerBytes = try ConvCheck.cacheLines([columnsBytes, resultBytes, resultBytes], "\(op) scratch")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "\(op) scratch")
        scratch = context.requestThreadScratch(bytesPerThread: workerBytes)
        self.pixels = pixels
    }

    /// Rows per tile, at most `most`, such that the tiles split evenly over `threads`: the
    /// tile count is rounded up to a multiple of the thread count and the pixels spread
    /// over the tiles (in multiples of 8, the integer and float microkernels' row block,
    /// where that stays within `most`). Tiles of `most` rows alone can leave one thread a
    /// tile more than another: 784 pixels in tiles of 256 are 256, 256, 256 and 16, 512
    /// rows for one of two threads and 272 for the other, where 4 tiles of 200 give 400
    /// and 384 (a 28×28 pointwise layer of MobileNet v2 went from 1.5x to 1.9x faster at 2
    /// threads than at 1).
    static func evenRows(pixels: Int, most: Int, threads: Int) -> Int {
        guard pixels > 0, threads > 1 else { return most }
        let needed = (pixels + most - 1) / most
        let tiles = (needed + threads - 1) / threads * threads
        let spread = (pixels + tiles - 1) / tiles
        let rounded = (spread + 7) / 8 * 8
        return Swift.max(1, rounded <= most ? rounded : spread)
    }

    /// One tile: its first pixel, its pixel count, and the running worker's buffers.
    struct Tile {
        let first: Int, count: Int
        let columns: UnsafeMutablePointer<Float>
        let result: UnsafeMutablePointer<Float>
        let sums: UnsafeMutablePointer<Int32>
    }

    /// Calls `body` for every tile, the tiles going to threads as they free up, so a thread
    /// the machine delays does not hold the others back; a tile's scratch is that of the
    /// thread running it. Threads claim tiles from both ends of the range (``WorkerTeam``),
    /// so each thread's tiles stay contiguous.
    @inline(__always)
    func forEach(_ context: EvalContext, _ body: (Tile) -> Void) {
        let tiles = (pixels + rows - 1) / rows
        if workerBytes == 0 {
            let memory = UnsafeMutableRawPointer(context.scratch(scratch, as: UInt8.self))
            let none = memory.assumingMemoryBound(to: Float.self)
            context.parallel.forEachTask(tiles) { t in
                let first = t * rows
                body(
                    Tile(
                        first: first, count: Swift.min(rows, pixels - first), columns: none, result: none,
                        sums: memory.assumingMemoryBound(to: Int32.self)))
            }
            return
        }
        context.parallel.forEachTaskOnThread(tiles) { thread, t in
            let base = context.threadScratch(scratch, thread: thread, bytes: workerBytes)
            let first = t * rows
            body(
                Tile(
                    first: first, count: Swift.min(rows, pixels - first),
                    columns: base.assumingMemoryBound(to: Float.self),
                    result: (base + columnsBytes).assumingMemoryBound(to: Float.self),
                    sums: (base + columnsBytes + resultBytes).assumingMemoryBound(to: Int32.self)))
        }
    }
}
