import TFLiteModel

/// SEGMENT_SUM: `out[s] = Σ data[i]` over the rows `i` (along axis 0) whose
/// `segment_ids[i] == s`, the rows added in order from 0.
///
/// TFLite requires sorted ids without gaps: the first is 0 and each next one equals its
/// predecessor or exceeds it by 1, so no segment is empty; anything else is an error (at
/// prepare for constant ids, else at invoke). The output has `last id + 1` rows (0 for an
/// empty input) and data's other dimensions; for ids computed at run time that count is
/// known only at invoke (``DynamicShapeKernel``). Types: float32 and int32 (wrapping).
enum SegmentSumKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let data = try context.input(0)
        let ids = try context.input(1)
        let output = try context.output(0)
        guard data.type == .float32 || data.type == .int32, ids.type == .int32, output.type == data.type else {
            throw context.unsupportedTypes()
        }
        guard data.rank >= 1 else { throw .invalid("the data is a scalar; SEGMENT_SUM needs rank 1 or more") }
        guard ids.shape == [data.shape[0]] else {
            throw .invalid("segment_ids has shape \(ids.shape); it must be [\(data.shape[0])], one id per data row")
        }
        let kernel = SegmentSum(
            data: data.index, ids: ids.index, output: output.index, isFloat: data.type == .float32,
            count: data.shape[0], width: try ShapeSupport.product(data.shape.dropFirst(), role: "a data row"),
            rowShape: Array(data.shape.dropFirst()))
        guard let constant = ids.constant else { return SegmentSumDynamic(sum: kernel) }
        guard constant.bytes.count >= 4 * kernel.count, let base = constant.bytes.baseAddress else {
            throw .invalid("the constant segment_ids hold fewer bytes than their shape")
        }
        try context.setOutputShape(0, [try kernel.segments(base.assumingMemoryBound(to: Int32.self))] + kernel.rowShape)
        return kernel
    }
}

struct SegmentSum: PreparedKernel {
    let data: Int
    let ids: Int
    let output: Int
    let isFloat: Bool
    /// Data rows and elements per row.
    let count: Int
    let width: Int
    let rowShape: [Int]

    /// The number of segments the sorted, gap-free ids name, or an error naming the first
    /// id that breaks the rule.
    func segments(_ ids: UnsafePointer<Int32>) throws(KernelError) -> Int {
        var previous: Int32 = -1
        for i in 0 ..< count {
            let id = ids[i]
            guard i > 0 ? (id == previous || Int64(id) == Int64(previous) + 1) : id == 0 else {
                throw .invalid(
                    "segment_ids[\(i)] is \(id) after \(previous); the ids must start at 0 and grow by 0 or 1 per row")
            }
            previous = id
        }
        return Int(previous) + 1
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let s = UnsafePointer(context.pointer(ids, as: Int32.self))
        let rows = try segments(s)
        if isFloat {
            SegmentFold.sum.apply(
                float: context.pointer(data, as: Float.self), ids: s, count: count,
                into: context.pointer(output, as: Float.self), rows: rows, width: width, parallel: context.parallel)
        } else {
            SegmentFold.sum.apply(
                int32: context.pointer(data, as: Int32.self), ids: s, count: count,
                into: context.pointer(output, as: Int32.self), rows: rows, width: width, parallel: context.parallel)
        }
    }
}

/// SEGMENT_SUM of ids computed at run time: the segment count is resolved at invoke.
struct SegmentSumDynamic: DynamicShapeKernel {
    let sum: SegmentSum

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [[try sum.segments(context.pointer(sum.ids, as: Int32.self))] + sum.rowShape]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try sum.eval(context)
    }
}
