/// One strided copy of fixed-size elements, the engine behind slicing, transposing,
/// concatenating, splitting and padding.
///
/// For every index `(i₀, …, iₖ)` of `counts` it copies one element of `elementSize`
/// bytes from `src + srcOffset + Σ iₐ·srcStrides[a]` to
/// `dst + dstOffset + Σ iₐ·dstStrides[a]` (offsets and strides in bytes; source
/// strides may be negative). The plan is normalized once at prepare: axes of size 1 are
/// dropped, neighbouring axes that are contiguous in both buffers are merged, and an
/// innermost axis that is contiguous in both becomes one `memcpy`-sized run. The caller
/// proves at prepare that every address the plan touches lies inside its tensors.
struct StridedCopyPlan: Sendable, Equatable {
    /// Loop counts and strides of the axes left after normalization, outermost first.
    private(set) var counts: [Int] = []
    private(set) var srcStrides: [Int] = []
    private(set) var dstStrides: [Int] = []
    let srcOffset: Int
    let dstOffset: Int
    let elementSize: Int
    /// Bytes copied at each innermost position: the element, or a contiguous run.
    private(set) var runBytes: Int
    /// True when some count is 0: nothing to copy.
    private(set) var isEmpty = false

    init(counts: [Int], srcStrides: [Int], dstStrides: [Int], srcOffset: Int, dstOffset: Int, elementSize: Int) {
        self.srcOffset = srcOffset
        self.dstOffset = dstOffset
        self.elementSize = elementSize
        self.runBytes = elementSize
        if counts.contains(0) {
            isEmpty = true
            return
        }
        var c: [Int] = [], s: [Int] = [], d: [Int] = []
        for a in counts.indices where counts[a] != 1 {
            if let last = c.indices.last,
                s[last] == srcStrides[a] * counts[a], d[last] == dstStrides[a] * counts[a]
            {
                // The previous (outer) axis steps exactly over this one in both buffers.
                c[last] *= counts[a]
                s[last] = srcStrides[a]
                d[last] = dstStrides[a]
            } else {
                c.append(counts[a]); s.append(srcStrides[a]); d.append(dstStrides[a])
            }
        }
        if let last = c.indices.last, s[last] == elementSize, d[last] == elementSize {
            runBytes = c[last] * elementSize
            c.removeLast(); s.removeLast(); d.removeLast()
        }
        self.counts = c; self.srcStrides = s; self.dstStrides = d
    }

    /// Performs the copy.
    func run(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer) {
        if isEmpty { return }
        walk(axis: 0, src: src + srcOffset, dst: dst + dstOffset)
    }

    /// Items of the outermost axis, the unit ``run(from:to:outer:)`` splits the copy by
    /// (1 when the copy is a single run).
    var outerCount: Int { isEmpty ? 0 : counts.first ?? 1 }

    /// Performs the part of the copy at outermost indices `outer` (a sub-range of
    /// `0 ..< outerCount`), so that disjoint ranges can run on different threads.
    func run(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, outer: Range<Int>) {
        if isEmpty { return }
        guard let n = counts.first, counts.count > 1 || n > 1 else {
            if outer.contains(0) { run(from: src, to: dst) }
            return
        }
        let ss = srcStrides[0], ds = dstStrides[0]
        for i in outer {
            walk(axis: 1, src: src + srcOffset + i * ss, dst: dst + dstOffset + i * ds)
        }
    }

    private func walk(axis: Int, src: UnsafeRawPointer, dst: UnsafeMutableRawPointer) {
        if axis == counts.count {
            copyRun(src, dst)
            return
        }
        var s = src, d = dst
        let n = counts[axis], ss = srcStrides[axis], ds = dstStrides[axis]
        if axis == counts.count - 1 {
            // Innermost loop: element copies specialized by size.
            switch runBytes {
            case 1: for _ in 0 ..< n { d.storeBytes(of: s.load(as: UInt8.self), as: UInt8.self); s += ss; d += ds }
            case 2:
                for _ in 0 ..< n {
                    d.storeBytes(of: s.loadUnaligned(as: UInt16.self), as: UInt16.self); s += ss; d += ds
                }
            case 4:
                for _ in 0 ..< n {
                    d.storeBytes(of: s.loadUnaligned(as: UInt32.self), as: UInt32.self); s += ss; d += ds
                }
            case 8:
                for _ in 0 ..< n {
                    d.storeBytes(of: s.loadUnaligned(as: UInt64.self), as: UInt64.self); s += ss; d += ds
                }
            default: for _ in 0 ..< n { d.copyMemory(from: s, byteCount: runBytes); s += ss; d += ds }
            }
            return
        }
        for _ in 0 ..< n {
            walk(axis: axis + 1, src: s, dst: d)
            s += ss; d += ds
        }
    }

    @inline(__always)
    private func copyRun(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer) {
        d.copyMemory(from: s, byteCount: runBytes)
    }
}

/// Copies from each source tensor into the output through prepared plans.
struct CopyPlansKernel: PreparedKernel {
    struct Step: Sendable {
        let source: Int
        let destination: Int
        let plan: StridedCopyPlan
    }
    let steps: [Step]

    func eval(_ context: EvalContext) throws(KernelError) {
        for step in steps {
            step.plan.run(from: UnsafeRawPointer(context.raw(step.source)), to: context.raw(step.destination))
        }
    }
}

/// Copies `byteCount` bytes from the input to the output. RESHAPE, SQUEEZE and
/// EXPAND_DIMS only relabel the shape, but the planner gives every tensor its own
/// buffer, so the bytes are copied once.
struct ByteCopyKernel: PreparedKernel {
    let input: Int
    let output: Int
    let byteCount: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let src = context.raw(input), dst = context.raw(output)
        if byteCount > 0, src != dst { dst.copyMemory(from: UnsafeRawPointer(src), byteCount: byteCount) }
    }
}

/// Fills `count` elements of `size` bytes at `dst` with the element at `value`.
/// Uses untyped stores so the arena memory keeps no bound type.
func fillElements(_ dst: UnsafeMutableRawPointer, count: Int, size: Int, value: UnsafeRawPointer) {
    switch size {
    case 1:
        dst.initializeMemory(as: UInt8.self, repeating: value.load(as: UInt8.self), count: count)
    case 2:
        let v = value.loadUnaligned(as: UInt16.self)
        for i in 0 ..< count { dst.storeBytes(of: v, toByteOffset: 2 * i, as: UInt16.self) }
    case 4:
        let v = value.loadUnaligned(as: UInt32.self)
        for i in 0 ..< count { dst.storeBytes(of: v, toByteOffset: 4 * i, as: UInt32.self) }
    case 8:
        let v = value.loadUnaligned(as: UInt64.self)
        for i in 0 ..< count { dst.storeBytes(of: v, toByteOffset: 8 * i, as: UInt64.self) }
    default:
        for i in 0 ..< count { (dst + i * size).copyMemory(from: value, byteCount: size) }
    }
}
