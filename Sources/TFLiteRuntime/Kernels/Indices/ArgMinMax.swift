import TFLiteModel

/// ARG_MAX and ARG_MIN: the index along a constant `axis` (input 1, one int32 or int64
/// value, negative counting from the end) of the largest or smallest element; the axis is
/// removed from the output shape. Ties give the lowest index: a later element replaces
/// the current one only when strictly greater (smaller), so NaN is never chosen unless it
/// comes first. int8/uint8 compare codes (the order is the same for any scale), bool
/// compares false < true. The output type (int32 or int64) is the output tensor's.
///
/// An empty axis has no answer; TFLite reads past the input there, so it is refused at
/// prepare unless the output is empty too.
enum ArgMinMaxKernel {
    static func prepare(max: Bool) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 2, outputs: 1)
            let input = try context.input(0)
            let output = try context.output(0)
            let axisValues = try ShapeSupport.constantIntegers(try context.input(1), role: "axis")
            guard axisValues.count == 1 else {
                throw .invalid("the axis tensor must hold one value, found \(axisValues.count)")
            }
            let axis = try ShapeSupport.normalizedAxis(axisValues[0], rank: input.rank)
            guard output.type == .int32 || output.type == .int64 else { throw context.unsupportedTypes() }
            let element: FoldElement
            switch input.type {
            case .float32: element = .float32
            case .int32: element = .int32
            case .int64: element = .int64
            case .int8: element = .int8
            case .uint8, .bool: element = .uint8
            default: throw context.unsupportedTypes()
            }
            var shape = input.shape
            shape.remove(at: axis)
            try context.setOutputShape(0, shape)
            let outer = try ShapeSupport.product(input.shape[..<axis], role: "the dimensions before the axis")
            let inner = try ShapeSupport.product(input.shape[(axis + 1)...], role: "the dimensions after the axis")
            let axisSize = input.shape[axis]
            guard axisSize > 0 || outer * inner == 0 else {
                throw .invalid(
                    "the axis \(axis) of input shape \(input.shape) is empty: there is no \(max ? "largest" : "smallest") element to index"
                )
            }
            guard output.type == .int64 || axisSize <= Int(Int32.max) else {
                throw .invalid("the axis has \(axisSize) elements, too many for INT32 indices")
            }
            return ArgMinMax(
                max: max, element: element, wideOutput: output.type == .int64, input: input.index,
                output: output.index, outer: outer, axisSize: axisSize, inner: inner)
        }
    }
}

struct ArgMinMax: PreparedKernel {
    let max: Bool
    let element: FoldElement
    let wideOutput: Bool
    let input: Int
    let output: Int
    let outer: Int
    let axisSize: Int
    let inner: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        switch (element, max) {
        case (.float32, true): run(context, Float.self, >)
        case (.float32, false): run(context, Float.self, <)
        case (.int32, true): run(context, Int32.self, >)
        case (.int32, false): run(context, Int32.self, <)
        case (.int64, true): run(context, Int64.self, >)
        case (.int64, false): run(context, Int64.self, <)
        case (.int8, true): run(context, Int8.self, >)
        case (.int8, false): run(context, Int8.self, <)
        case (_, true): run(context, UInt8.self, >)
        case (_, false): run(context, UInt8.self, <)
        }
    }

    @inline(__always)
    private func run<T>(_ context: EvalContext, _: T.Type, _ better: (T, T) -> Bool) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.raw(output)
        for o in 0 ..< outer {
            for i in 0 ..< inner {
                let base = o * axisSize * inner + i
                var best = x[base]
                var index = 0
                for a in 1 ..< Swift.max(axisSize, 1) where better(x[base + a * inner], best) {
                    best = x[base + a * inner]
                    index = a
                }
                let k = o * inner + i
                if wideOutput {
                    y.storeBytes(of: Int64(index), toByteOffset: 8 * k, as: Int64.self)
                } else {
                    y.storeBytes(of: Int32(truncatingIfNeeded: index), toByteOffset: 4 * k, as: Int32.self)
                }
            }
        }
    }
}
