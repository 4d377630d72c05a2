import TFLiteModel

/// STRIDED_SLICE, following TFLite's kernel (spec/shape-ops.md describes the rules).
///
/// `begin`, `end` and `strides` are constant vectors of one length `n` (the slice
/// spec). The spec is first mapped onto an *effective* input: `new_axis_mask` entries
/// insert a size-1 axis, the (single) `ellipsis_mask` entry stands for as many full
/// axes as the spec leaves uncovered (at least one), and axes past the spec are taken
/// whole. For each effective axis of size `n` with stride `s ≠ 0`:
/// - start: `begin` (+n if negative), clamped to `[0, n]` for `s > 0` or `[-1, n-1]`
///   for `s < 0`; `begin_mask` replaces it by `0` (`s > 0`) or `n-1` (`s < 0`);
/// - stop: `end` (+ start when `offset` is set; +n if negative), clamped the same way;
///   `end_mask` replaces it by `n` (`s > 0`) or `-1` (`s < 0`);
/// - the axis holds `max(0, ⌈(stop - start) / s⌉)` elements `start + k·s`;
/// - a `shrink_axis_mask` axis takes the one element at `start` and is dropped from the
///   output shape.
enum StridedSliceKernel {
    /// One axis of the effective input.
    struct Axis: Equatable, Sendable {
        /// The input axis it reads, or nil for an axis inserted by `new_axis_mask`.
        var inputAxis: Int?
        var start: Int
        var step: Int
        var count: Int
        /// False for axes removed by `shrink_axis_mask`.
        var keep: Bool
    }

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 4, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        try ShapeSupport.requireRank(input.shape, role: "the input")
        var options = StridedSliceOptions()
        if case .stridedSlice(let o) = context.op.options { options = o }
        var spec: [[Int]] = []
        for (i, role) in [(1, "begin"), (2, "end"), (3, "strides")] {
            let t = try context.input(i)
            guard t.rank == 1 else { throw .invalid("\(role) must be 1-D, found shape \(t.shape)") }
            spec.append(try ShapeSupport.constantIntegers(t, role: role))
        }
        let axes = try resolve(
            inputShape: input.shape, begin: spec[0], end: spec[1], strides: spec[2], options: options)
        try context.setOutputShape(0, axes.filter(\.keep).map(\.count))

        let inStrides = ShapeSupport.strides(input.shape)
        let counts = axes.map(\.count)
        var srcStrides: [Int] = [], offset = 0
        for a in axes {
            guard let d = a.inputAxis else { srcStrides.append(0); continue }
            srcStrides.append(inStrides[d] * a.step * size)
            offset += a.start * inStrides[d] * size
        }
        let plan = StridedCopyPlan(
            counts: counts, srcStrides: srcStrides,
            dstStrides: ShapeSupport.strides(counts).map { $0 * size },
            srcOffset: offset, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }

    /// Maps the slice spec onto the effective input and resolves every axis.
    static func resolve(inputShape: [Int], begin: [Int], end: [Int], strides: [Int], options: StridedSliceOptions)
        throws(KernelError) -> [Axis]
    {
        let n = begin.count
        let rank = inputShape.count
        guard end.count == n, strides.count == n else {
            throw .invalid(
                "begin, end and strides have \(n), \(end.count) and \(strides.count) entries; they must have the same length"
            )
        }
        guard n <= 32 else { throw .invalid("the slice spec has \(n) entries; masks cover at most 32") }
        let ellipsis = UInt32(bitPattern: options.ellipsisMask)
        let newAxis = UInt32(bitPattern: options.newAxisMask)
        func has(_ mask: UInt32, _ i: Int) -> Bool { i >= 0 && i < 32 && (mask >> UInt32(i)) & 1 == 1 }
        func has(_ mask: Int32, _ i: Int) -> Bool { has(UInt32(bitPattern: mask), i) }
        let specBits: UInt32 = n == 32 ? .max : (1 << UInt32(n)) - 1
        guard ellipsis & ~specBits == 0, newAxis & ~specBits == 0 else {
            throw .invalid(
                "ellipsis_mask \(options.ellipsisMask) or new_axis_mask \(options.newAxisMask) marks entries past the \(n)-entry slice spec"
            )
        }
        guard ellipsis.nonzeroBitCount <= 1 else {
            throw .invalid("ellipsis_mask \(options.ellipsisMask) marks more than one ellipsis")
        }
        if options.offset {
            guard ellipsis == 0, newAxis == 0, n == rank else {
                throw .invalid("an offset slice needs one begin/end entry per input axis and no ellipsis or new axes")
            }
        }

        // Axes added by new_axis_mask (an entry marked as both is an ellipsis).
        let added = (0 ..< n).filter { has(newAxis, $0) && !has(ellipsis, $0) }.count
        let dims = rank + added
        guard dims <= ShapeSupport.maxRank else {
            throw .invalid(
                "the slice has \(dims) axes including new ones; at most \(ShapeSupport.maxRank) are supported")
        }
        guard n <= dims else {
            throw .invalid("the slice spec has \(n) entries but the input (with new axes) has only \(dims) axes")
        }

        // Where the ellipsis lands in the effective axes and which effective axes are new.
        var ellipsisAxes = Set<Int>(), newAxes = Set<Int>()
        var ellipsisStart = dims, extra = 0
        var i = 0
        while i < dims {
            if has(ellipsis, i) {
                ellipsisStart = i
                let stop = Swift.max(i + 1, Swift.min(i + 1 + dims - n, dims))
                extra = stop - i - 1
                while i < stop { ellipsisAxes.insert(i); i += 1 }
                continue
            }
            if has(newAxis, i - extra) { newAxes.insert(i) }
            i += 1
        }

        var axes: [Axis] = []
        var insertedSoFar = 0
        var specShift = 0
        for i in 0 ..< dims {
            if ellipsisAxes.contains(i) {
                specShift = Swift.max(0, i - ellipsisStart)
                let d = i - insertedSoFar
                axes.append(Axis(inputAxis: d, start: 0, step: 1, count: inputShape[d], keep: true))
            } else if newAxes.contains(i) {
                axes.append(Axis(inputAxis: nil, start: 0, step: 1, count: 1, keep: true))
                insertedSoFar += 1
            } else if i >= n + extra {
                let d = i - insertedSoFar
                axes.append(Axis(inputAxis: d, start: 0, step: 1, count: inputShape[d], keep: true))
            } else {
                let k = i - specShift
                let d = i - insertedSoFar
                axes.append(
                    try resolveAxis(
                        size: inputShape[d], axis: d, begin: begin[k], end: end[k], stride: strides[k],
                        beginMasked: has(options.beginMask, k), endMasked: has(options.endMask, k),
                        shrink: has(options.shrinkAxisMask, k), offset: options.offset))
            }
        }
        return axes
    }

    /// Start, step and count of one spec entry applied to an input axis of `size`.
    static func resolveAxis(
        size: Int, axis: Int, begin: Int, end: Int, stride: Int,
        beginMasked: Bool, endMasked: Bool, shrink: Bool, offset: Bool
    ) throws(KernelError) -> Axis {
        guard stride != 0 else { throw .invalid("the stride for axis \(axis) is 0") }
        func clamped(_ v: Int) -> Int {
            let w = v < 0 ? v + size : v
            return stride > 0 ? Swift.min(Swift.max(w, 0), size) : Swift.min(Swift.max(w, -1), size - 1)
        }
        var start = clamped(begin)
        if beginMasked { start = stride > 0 ? 0 : size - 1 }
        if shrink {
            guard start >= 0, start < size else {
                throw .invalid("shrink axis \(axis): begin \(begin) selects no element of a dimension of size \(size)")
            }
            return Axis(inputAxis: axis, start: start, step: stride, count: 1, keep: false)
        }
        var stop = clamped(offset ? end + start : end)
        if endMasked { stop = stride > 0 ? size : -1 }
        let count =
            stride > 0
            ? (stop > start ? (stop - start + stride - 1) / stride : 0)
            : (start > stop ? (start - stop - stride - 1) / -stride : 0)
        if offset {
            // TFLite sizes an offset slice from the raw `end` (the slice length) alone.
            let declared =
                stride > 0
                ? (end > 0 ? (end + stride - 1) / stride : 0)
                : (end < 0 ? (-end - stride - 1) / -stride : 0)
            guard declared == count else {
                throw .invalid(
                    "offset slice on axis \(axis): \(end) elements from \(start) with stride \(stride) run outside a dimension of size \(size)"
                )
            }
        }
        return Axis(inputAxis: axis, start: start, step: stride, count: count, keep: true)
    }
}
