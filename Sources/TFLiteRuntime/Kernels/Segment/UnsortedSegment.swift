import TFLiteModel

/// UNSORTED_SEGMENT_SUM, _PROD, _MAX and _MIN: `out[s]` folds (``SegmentFold``) the data
/// slices whose `segment_ids` equal `s`, in data order.
///
/// `segment_ids` (INT32) has a prefix of data's shape, one id per slice; ids below zero
/// drop their slice, ids at or past `num_segments` are an error. `num_segments` (INT32,
/// one element, ≥ 0) fixes the output, `[num_segments] + data.shape[rank(ids)...]`; a
/// segment no id names holds the fold's identity. When `num_segments` is computed at run
/// time the output shape is known only at invoke. Types: float32 and int32.
enum UnsortedSegmentKernel {
    static func prepare(_ fold: SegmentFold) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 3, outputs: 1)
            let data = try context.input(0)
            let ids = try context.input(1)
            let segments = try context.input(2)
            let output = try context.output(0)
            guard data.type == .float32 || data.type == .int32, ids.type == .int32, segments.type == .int32,
                output.type == data.type
            else { throw context.unsupportedTypes() }
            guard ids.rank <= data.rank, Array(data.shape.prefix(ids.rank)) == ids.shape else {
                throw .invalid(
                    "segment_ids has shape \(ids.shape); it must be a prefix of the data's shape \(data.shape)")
            }
            guard segments.shape == [] || segments.shape == [1] else {
                throw .invalid("num_segments has shape \(segments.shape); it must be a scalar or [1]")
            }
            let rowShape = Array(data.shape.dropFirst(ids.rank))
            let kernel = UnsortedSegment(
                fold: fold, data: data.index, ids: ids.index, segments: segments.index, output: output.index,
                isFloat: data.type == .float32, count: ids.elementCount,
                width: try ShapeSupport.product(rowShape[...], role: "a data slice"), rowShape: rowShape)
            guard let constant = segments.constant else { return UnsortedSegmentDynamic(segment: kernel) }
            guard let n = constant.typed(Int32.self).first else { throw .invalid("num_segments holds no value") }
            try context.setOutputShape(0, try kernel.outputShape(Int(n)))
            return kernel
        }
    }
}

struct UnsortedSegment: PreparedKernel {
    let fold: SegmentFold
    let data: Int
    let ids: Int
    let segments: Int
    let output: Int
    let isFloat: Bool
    /// Slices (ids) and elements per slice.
    let count: Int
    let width: Int
    let rowShape: [Int]

    func outputShape(_ segments: Int) throws(KernelError) -> [Int] {
        guard segments >= 0 else { throw .invalid("num_segments is \(segments); it must be 0 or more") }
        return [segments] + rowShape
    }

    func segmentCount(_ context: EvalContext) -> Int {
        Int(context.pointer(segments, as: Int32.self).pointee)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let rows = segmentCount(context)
        let s = UnsafePointer(context.pointer(ids, as: Int32.self))
        for i in 0 ..< count where Int(s[i]) >= rows {
            throw .invalid("segment_ids holds \(s[i]), not below num_segments (\(rows))")
        }
        if isFloat {
            fold.apply(
                float: context.pointer(data, as: Float.self), ids: s, count: count,
                into: context.pointer(output, as: Float.self), rows: rows, width: width, parallel: context.parallel)
        } else {
            fold.apply(
                int32: context.pointer(data, as: Int32.self), ids: s, count: count,
                into: context.pointer(output, as: Int32.self), rows: rows, width: width, parallel: context.parallel)
        }
    }
}

/// An unsorted segment operator whose `num_segments` is computed at run time.
struct UnsortedSegmentDynamic: DynamicShapeKernel {
    let segment: UnsortedSegment

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [try segment.outputShape(segment.segmentCount(context))]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try segment.eval(context)
    }
}
