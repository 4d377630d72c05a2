/// MIRROR_PAD's copy, planned at prepare. The axes after the last padded one (the row
/// axis) are never split: their bytes, a `unit`, are contiguous in both tensors. The
/// output is written in order, row by row along the row axis: the mirrored units before
/// the row's interior, the input row in one copy, the mirrored units after. An odometer
/// over the axes before the row axis finds each row's input start as a sum of per-axis
/// byte offsets. (A recursive walk copied each element with a `copyMemory` call and
/// retained the offset arrays on the way: 1M floats, [N, 4, 5, 2] padded to
/// [N, 7, 8, 2], 8.5 → 0.3 ms.)
struct MirrorPadCopy: PreparedKernel {
    let input: Int
    let output: Int
    /// Output sizes of the axes before the row axis, outermost first.
    let outerCounts: [Int]
    /// For each axis before the row axis in turn, the input byte offset of each of its
    /// output indices (`outerCounts[a]` entries for axis `a`).
    let outerOffsets: [Int]
    /// Input byte offsets, from the row's start, of the units written before the row's
    /// interior (the first `beforeCount`), then of those written after it.
    let edges: [Int]
    let beforeCount: Int
    let unit: Int
    /// Bytes of one input row.
    let rowBytes: Int
    /// Output rows.
    let rows: Int

    /// The copy from an input of `shape` padded by `pads` (validated against the mode's
    /// limits), for elements of `elementSize` bytes.
    init(input: Int, output: Int, shape: [Int], pads: [(before: Int, after: Int)], reflect: Bool, elementSize: Int) {
        self.input = input
        self.output = output
        /// The input index that output index `i + before` of an axis of size `n` copies.
        let source = { (i: Int, n: Int) -> Int in
            i < 0 ? (reflect ? -i : -i - 1) : i >= n ? (reflect ? 2 * n - 2 - i : 2 * n - 1 - i) : i
        }
        guard let axis = pads.lastIndex(where: { $0.before != 0 || $0.after != 0 }) else {
            // No padding: the whole tensor is one row.
            (outerCounts, outerOffsets, edges, beforeCount) = ([], [], [], 0)
            unit = shape.reduce(elementSize, *)
            rowBytes = unit
            rows = 1
            return
        }
        unit = shape[(axis + 1)...].reduce(elementSize, *)
        var strides = [Int](repeating: unit, count: axis + 1)
        for a in (0 ..< axis).reversed() { strides[a] = strides[a + 1] * shape[a + 1] }
        let counts = (0 ..< axis).map { pads[$0].before + shape[$0] + pads[$0].after }
        outerCounts = counts
        outerOffsets = (0 ..< axis).flatMap { a in
            (0 ..< counts[a]).map { source($0 - pads[a].before, shape[a]) * strides[a] }
        }
        let n = shape[axis], p = pads[axis], unit = unit
        edges = ((-p.before ..< 0).map { source($0, n) } + (n ..< n + p.after).map { source($0, n) }).map { $0 * unit }
        beforeCount = p.before
        rowBytes = n * unit
        rows = outerCounts.reduce(1, *)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        guard rows > 0, unit > 0 else { return }
        let src = UnsafeRawPointer(context.raw(input))
        var dst = context.raw(output)
        let (unit, rowBytes, rows, beforeCount, depth) = (self.unit, self.rowBytes, self.rows, self.beforeCount, outerCounts.count)
        outerOffsets.withUnsafeBufferPointer { offsets in
            edges.withUnsafeBufferPointer { edges in
                // The odometer: per outer axis its current index, then its count.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * depth) { state in
                    for a in 0 ..< depth {
                        state[a] = 0
                        state[depth + a] = outerCounts[a]
                    }
                    for _ in 0 ..< rows {
                        var row = src, base = 0
                        for a in 0 ..< depth {
                            row += offsets[base + state[a]]
                            base += state[depth + a]
                        }
                        for e in edges[..<beforeCount] { copyUnit(to: dst, from: row + e, unit); dst += unit }
                        dst.copyMemory(from: row, byteCount: rowBytes)
                        dst += rowBytes
                        for e in edges[beforeCount...] { copyUnit(to: dst, from: row + e, unit); dst += unit }
                        var a = depth - 1
                        while a >= 0 {
                            state[a] += 1
                            if state[a] < state[depth + a] { break }
                            state[a] = 0
                            a -= 1
                        }
                    }
                }
            }
        }
    }

    /// Units of 4 and 8 bytes (one float, NHWC with 1 or 2 channels) are one load and
    /// store: a `memmove` call each was half the time above (0.6 ms).
    @inline(__always)
    private func copyUnit(to d: UnsafeMutableRawPointer, from s: UnsafeRawPointer, _ bytes: Int) {
        switch bytes {
        case 4: d.storeBytes(of: s.loadUnaligned(as: UInt32.self), as: UInt32.self)
        case 8: d.storeBytes(of: s.loadUnaligned(as: UInt64.self), as: UInt64.self)
        default: d.copyMemory(from: s, byteCount: bytes)
        }
    }
}
