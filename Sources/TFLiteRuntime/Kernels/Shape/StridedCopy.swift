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
    /// True when the two innermost axes swap places: the inner one is contiguous in the
    /// destination and the outer one in the source (the last step of a TRANSPOSE that
    /// moves the last axis). Such a pair is copied in square tiles, so that reads and
    /// writes each stay within a few cache lines, instead of one strided pass.
    private(set) var swapsInnerPair = false

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
        if runBytes == elementSize, [1, 2, 4, 8].contains(elementSize), c.count >= 2,
            d[c.count - 1] == elementSize, s[c.count - 2] == elementSize
        {
            swapsInnerPair = true
        }
    }

    /// Performs the copy.
    func run(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer) {
        if isEmpty { return }
        walk(axis: 0, src: src + srcOffset, dst: dst + dstOffset)
    }

    /// Items of the outermost axis, the unit ``run(from:to:outer:)`` splits the copy by
    /// (1 when the copy is a single run, or when the outermost axis is one of the swapped
    /// pair, which is copied in tiles as a whole).
    var outerCount: Int { isEmpty ? 0 : outerIsTiled ? 1 : counts.first ?? 1 }

    /// The outermost axis belongs to the pair copied in tiles.
    private var outerIsTiled: Bool { swapsInnerPair && counts.count <= 2 }

    /// Bytes copied by one item of the outermost axis.
    var bytesPerOuter: Int {
        isEmpty ? 0 : counts.dropFirst().reduce(runBytes, *)
    }

    /// Performs the part of the copy at outermost indices `outer` (a sub-range of
    /// `0 ..< outerCount`), so that disjoint ranges can run on different threads.
    func run(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, outer: Range<Int>) {
        if isEmpty { return }
        guard let n = counts.first, counts.count > 1 || n > 1, !outerIsTiled else {
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
        if swapsInnerPair, axis == counts.count - 2 {
            let tile = SwappedPair(
                rows: counts[axis], cols: counts[axis + 1], dstRowStride: dstStrides[axis],
                srcColStride: srcStrides[axis + 1])
            switch elementSize {
            case 1: tile.copy(UInt8.self, src, dst)
            case 2: tile.copy(UInt16.self, src, dst)
            case 4: tile.copy32(src, dst)
            default: tile.copy(UInt64.self, src, dst)
            }
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
            case 16:
                for _ in 0 ..< n {
                    d.storeBytes(of: s.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self); s += ss; d += ds
                }
            case 32:
                for _ in 0 ..< n {
                    d.storeBytes(of: s.loadUnaligned(as: SIMD32<UInt8>.self), as: SIMD32<UInt8>.self); s += ss; d += ds
                }
            case 64:
                for _ in 0 ..< n {
                    d.storeBytes(of: s.loadUnaligned(as: SIMD64<UInt8>.self), as: SIMD64<UInt8>.self); s += ss; d += ds
                }
            default:
                // Short runs (DEPTH_TO_SPACE's and SPACE_TO_DEPTH's, a few channels) cost
                // more in `memcpy` calls than in bytes: whole 16-byte pieces, then the rest.
                if runBytes < 64 {
                    let pieces = runBytes / 16, rest = runBytes % 16
                    for _ in 0 ..< n {
                        for q in 0 ..< pieces {
                            (d + 16 * q).storeBytes(
                                of: (s + 16 * q).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                        }
                        if rest > 0 { (d + 16 * pieces).copyMemory(from: s + 16 * pieces, byteCount: rest) }
                        s += ss; d += ds
                    }
                } else {
                    for _ in 0 ..< n { d.copyMemory(from: s, byteCount: runBytes); s += ss; d += ds }
                }
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

/// A `rows × cols` block whose element `(r, c)` is read at `r·E + c·srcColStride` and
/// written at `r·dstRowStride + c·E` (`E` the element size): a 2-D transpose, copied in
/// 8 × 8 tiles. Within a tile the reads touch 8 source rows and the writes 8 destination
/// rows, each one cache line or so, where a plain walk would touch a new source line
/// with every element.
private struct SwappedPair {
    let rows: Int
    let cols: Int
    let dstRowStride: Int
    let srcColStride: Int

    /// The 4-byte form: 4 × 4 blocks go through registers (four 4-lane loads along the
    /// source rows, four 4-lane stores along the destination rows); edges are copied one
    /// element at a time.
    func copy32(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer) {
        let rows4 = rows & ~3, cols4 = cols & ~3
        let tile = 16
        var r0 = 0
        while r0 < rows4 {
            let r1 = Swift.min(r0 + tile, rows4)
            var c0 = 0
            while c0 < cols4 {
                let c1 = Swift.min(c0 + tile, cols4)
                var r = r0
                while r < r1 {
                    let s = src + r * 4
                    let d = dst + r * dstRowStride
                    var c = c0
                    while c < c1 {
                        let v0 = s.loadUnaligned(fromByteOffset: c * srcColStride, as: SIMD4<UInt32>.self)
                        let v1 = s.loadUnaligned(fromByteOffset: (c + 1) * srcColStride, as: SIMD4<UInt32>.self)
                        let v2 = s.loadUnaligned(fromByteOffset: (c + 2) * srcColStride, as: SIMD4<UInt32>.self)
                        let v3 = s.loadUnaligned(fromByteOffset: (c + 3) * srcColStride, as: SIMD4<UInt32>.self)
                        let w0 = SIMD4(v0[0], v1[0], v2[0], v3[0])
                        let w1 = SIMD4(v0[1], v1[1], v2[1], v3[1])
                        let w2 = SIMD4(v0[2], v1[2], v2[2], v3[2])
                        let w3 = SIMD4(v0[3], v1[3], v2[3], v3[3])
                        d.storeBytes(of: w0, toByteOffset: c * 4, as: SIMD4<UInt32>.self)
                        d.storeBytes(of: w1, toByteOffset: dstRowStride + c * 4, as: SIMD4<UInt32>.self)
                        d.storeBytes(of: w2, toByteOffset: 2 * dstRowStride + c * 4, as: SIMD4<UInt32>.self)
                        d.storeBytes(of: w3, toByteOffset: 3 * dstRowStride + c * 4, as: SIMD4<UInt32>.self)
                        c += 4
                    }
                    r += 4
                }
                c0 = c1
            }
            r0 = r1
        }
        // The right edge (columns past the last multiple of 4) of the first rows4 rows,
        // then the bottom rows in full.
        if cols4 < cols { copyElements(UInt32.self, src, dst, rows: 0 ..< rows4, cols: cols4 ..< cols) }
        if rows4 < rows { copyElements(UInt32.self, src, dst, rows: rows4 ..< rows, cols: 0 ..< cols) }
    }

    @inline(__always)
    private func copyElements<T>(
        _: T.Type, _ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, rows: Range<Int>, cols: Range<Int>
    ) {
        let e = MemoryLayout<T>.size
        for r in rows {
            let d = dst + r * dstRowStride
            let s = src + r * e
            for c in cols {
                d.storeBytes(
                    of: s.loadUnaligned(fromByteOffset: c * srcColStride, as: T.self), toByteOffset: c * e, as: T.self)
            }
        }
    }

    @inline(__always)
    func copy<T>(_: T.Type, _ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer) {
        let e = MemoryLayout<T>.size
        let tile = 8
        var r0 = 0
        while r0 < rows {
            let r1 = Swift.min(r0 + tile, rows)
            var c0 = 0
            while c0 < cols {
                let c1 = Swift.min(c0 + tile, cols)
                for r in r0 ..< r1 {
                    let d = dst + r * dstRowStride
                    let s = src + r * e
                    for c in c0 ..< c1 {
                        d.storeBytes(
                            of: s.loadUnaligned(fromByteOffset: c * srcColStride, as: T.self), toByteOffset: c * e,
                            as: T.self)
                    }
                }
                c0 = c1
            }
            r0 = r1
        }
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

    /// A single copy is split over its outermost axis when each thread would move at least
    /// ``Parallel/minimumWorkPerThread`` times 4 bytes (DEPTH_TO_SPACE, TRANSPOSE of an
    /// activation); several steps (CONCATENATION's sources) run in order on one thread.
    func eval(_ context: EvalContext) throws(KernelError) {
        if steps.count == 1, let plan = steps.first?.plan, plan.outerCount > 1 {
            let src = UnsafeRawPointer(context.raw(steps[0].source)), dst = context.raw(steps[0].destination)
            context.parallel.forEachChunk(plan.outerCount, cost: plan.bytesPerOuter / 4) { range in
                plan.run(from: src, to: dst, outer: range)
            }
            return
        }
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
