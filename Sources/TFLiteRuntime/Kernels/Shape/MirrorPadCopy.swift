/// MIRROR_PAD's copy, planned at prepare. The axes after the last padded one (the row
/// axis) are never split: their bytes, a `unit`, are contiguous in both tensors. The
/// output is written in order, row by row along the row axis: the mirrored units before
/// the row's interior, the input row in one copy, the mirrored units after. An odometer
/// over the axes before the row axis finds each row's input start as a sum of per-axis
/// byte offsets, mirrored index by index. (A recursive walk copied each element with a
/// `copyMemory` call and retained the offset arrays on the way.)
struct MirrorPadCopy: PreparedKernel {
    let input: Int
    let output: Int
    /// Per axis before the row axis, outermost first: output size, padding before, input
    /// size and input byte stride. At most `maxRank` entries each: the source offsets are
    /// computed per row, not tabulated, since tables sized by the output's dimensions were
    /// allocated at prepare before the memory budget was checked (an empty output with a
    /// 2^30 padding asked for 4.8 GB: fuzz target model-invoke, RELIABILITY.md finding 14).
    let outerCounts: [Int], outerBefore: [Int], outerSizes: [Int], outerStrides: [Int]
    /// The row axis: input size, padding before and after.
    let rowSize: Int, rowBefore: Int, rowAfter: Int
    let reflect: Bool
    let unit: Int
    /// Bytes of one input row.
    let rowBytes: Int
    /// Output rows.
    let rows: Int

    /// The copy from an input of `shape` padded by `pads` (validated against the mode's
    /// limits), for elements of `elementSize` bytes, once the output shape has passed the
    /// engine's size checks (so products of its dimensions fit).
    init(input: Int, output: Int, shape: [Int], pads: [(before: Int, after: Int)], reflect: Bool, elementSize: Int) {
        self.input = input
        self.output = output
        self.reflect = reflect
        guard let axis = pads.lastIndex(where: { $0.before != 0 || $0.after != 0 }) else {
            // No padding: the whole tensor is one row.
            (outerCounts, outerBefore, outerSizes, outerStrides) = ([], [], [], [])
            (rowSize, rowBefore, rowAfter) = (1, 0, 0)
            unit = shape.reduce(elementSize, *)
            rowBytes = unit
            rows = 1
            return
        }
        unit = shape[(axis + 1)...].reduce(elementSize, *)
        var strides = [Int](repeating: unit, count: axis + 1)
        for a in (0 ..< axis).reversed() { strides[a] = strides[a + 1] * shape[a + 1] }
        outerCounts = (0 ..< axis).map { pads[$0].before + shape[$0] + pads[$0].after }
        outerBefore = (0 ..< axis).map { pads[$0].before }
        outerSizes = Array(shape[..<axis])
        outerStrides = Array(strides[..<axis])
        (rowSize, rowBefore, rowAfter) = (shape[axis], pads[axis].before, pads[axis].after)
        rowBytes = shape[axis] * unit
        rows = outerCounts.reduce(1, *)
    }

    /// The input index that output index `i + before` of an axis of size `n` copies.
    @inline(__always)
    static func source(_ i: Int, _ n: Int, reflect: Bool) -> Int {
        i < 0 ? (reflect ? -i : -i - 1) : i >= n ? (reflect ? 2 * n - 2 - i : 2 * n - 1 - i) : i
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        guard rows > 0, unit > 0 else { return }
        let src = UnsafeRawPointer(context.raw(input))
        var dst = context.raw(output)
        let (unit, rowBytes, depth, reflect) = (self.unit, self.rowBytes, outerCounts.count, self.reflect)
        let (n, before, after) = (rowSize, rowBefore, rowAfter)
        // The odometer: per outer axis its current output index, count, padding before,
        // input size and stride.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 5 * depth) { state in
            for a in 0 ..< depth {
                state[a] = 0
                state[depth + a] = outerCounts[a]
                state[2 * depth + a] = outerBefore[a]
                state[3 * depth + a] = outerSizes[a]
                state[4 * depth + a] = outerStrides[a]
            }
            for _ in 0 ..< rows {
                var row = src
                for a in 0 ..< depth {
                    row +=
                        Self.source(state[a] - state[2 * depth + a], state[3 * depth + a], reflect: reflect)
                        * state[4 * depth + a]
                }
                for i in -before ..< 0 {
                    copyUnit(to: dst, from: row + Self.source(i, n, reflect: reflect) * unit, unit); dst += unit
                }
                dst.copyMemory(from: row, byteCount: rowBytes)
                dst += rowBytes
                for i in n ..< n + after {
                    copyUnit(to: dst, from: row + Self.source(i, n, reflect: reflect) * unit, unit); dst += unit
                }
                if let index = state.baseAddress { // nil only without outer axes
                    _ = advanceOdometer(index, axes: depth, size: { state[depth + $0] }) { _, _ in }
                }
            }
        }
    }

    /// Units of 4 and 8 bytes (one float, NHWC with 1 or 2 channels) are one load and
    /// store: a `memmove` call each took most of the time.
    @inline(__always)
    private func copyUnit(to d: UnsafeMutableRawPointer, from s: UnsafeRawPointer, _ bytes: Int) {
        switch bytes {
        case 4: d.storeBytes(of: s.loadUnaligned(as: UInt32.self), as: UInt32.self)
        case 8: d.storeBytes(of: s.loadUnaligned(as: UInt64.self), as: UInt64.self)
        default: d.copyMemory(from: s, byteCount: bytes)
        }
    }
}
