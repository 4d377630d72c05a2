/// The packed weights of the float matrix-vector microkernel (`gemvF32x4PackedAVX2`):
/// blocks of four rows of a row-major `[n, k]` matrix, so that the kernel reads one
/// sequential stream instead of four rows `k` floats apart. Block `b` (rows `4b ..< 4b+4`,
/// rows past `n` zero) is ``blockCount(k:)`` floats:
///
///     for each 8-float step s < k / 8:  [row 0, s·8 ..< s·8+8][row 1 …][row 2 …][row 3 …]
///     then the depth's tail (k mod 8):  [row 0 tail][row 1 tail][row 2 tail][row 3 tail]
///
/// Read in this order, a block is contiguous memory walked once front to back: the
/// hardware prefetcher follows one stream, and a copy in the packed region sits on 2 MiB
/// pages where the system offers them, while rows read from a mapped model file cross a
/// 4 KiB page every kilobyte or so of each of four streams.
public enum GemvF32Layout {
    /// Rows per block.
    public static let blockRows = 4

    /// Floats of one block of depth `k`.
    @inlinable
    public static func blockCount(k: Int) -> Int { blockRows * k }

    /// Floats of the packed matrix of `n` rows of depth `k`, or nil on overflow.
    @inlinable
    public static func packedCount(n: Int, k: Int) -> Int? {
        let blocks = (n + blockRows - 1) / blockRows
        let (perBlock, o1) = k.multipliedReportingOverflow(by: blockRows)
        let (total, o2) = blocks.multipliedReportingOverflow(by: perBlock)
        return o1 || o2 ? nil : total
    }

    /// Packs the `n` rows of `weights` (row `o` at `weights + o · k`) into `out`
    /// (``packedCount(n:k:)`` floats).
    public static func pack(weights: UnsafePointer<Float>, n: Int, k: Int, into out: UnsafeMutablePointer<Float>) {
        let blocks = (n + blockRows - 1) / blockRows
        let vectorDepth = k & ~7, tail = k - vectorDepth
        out.update(repeating: 0, count: blocks * blockCount(k: k))
        for o in 0 ..< n {
            let block = out + (o / blockRows) * blockCount(k: k)
            let r = o % blockRows
            let row = weights + o * k
            for step in 0 ..< vectorDepth / 8 {
                (block + (step * blockRows + r) * 8).update(from: row + step * 8, count: 8)
            }
            (block + vectorDepth * blockRows + r * tail).update(from: row + vectorDepth, count: tail)
        }
    }
}
