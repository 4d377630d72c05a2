import TFLiteModel

/// CUMSUM: running sums along a constant `axis` (input 1, one int32 or int64 value,
/// negative counting from the end); the output has the input's shape. Along the axis,
/// `y[i] = Σ_{j ≤ i} x[j]`, with the options:
/// - `exclusive`: the element itself is left out, `y[i] = Σ_{j < i} x[j]` (so `y[0] = 0`);
/// - `reverse`: the sums run from the end, `y[i] = Σ_{j ≥ i} x[j]` (`j > i` if exclusive).
/// The sum is accumulated in that order in the element type (float32; int32 and int64
/// wrap), as TFLite does.
enum CumsumKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == output.type else { throw context.unsupportedTypes() }
        let element: FoldElement
        switch input.type {
        case .float32: element = .float32
        case .int32: element = .int32
        case .int64: element = .int64
        default: throw context.unsupportedTypes()
        }
        let axisValues = try ShapeSupport.constantIntegers(try context.input(1), role: "axis")
        guard axisValues.count == 1 else {
            throw .invalid("the axis tensor must hold one value, found \(axisValues.count)")
        }
        let axis = try ShapeSupport.normalizedAxis(axisValues[0], rank: input.rank)
        var exclusive = false, reverse = false
        switch context.op.options {
        case .cumsum(let e, let r): exclusive = e; reverse = r
        case .none: break
        default: throw .invalid("unexpected options \(context.op.options)")
        }
        try context.setOutputShape(0, input.shape)
        return Cumsum(
            element: element, exclusive: exclusive, reverse: reverse, input: input.index, output: output.index,
            outer: try ShapeSupport.product(input.shape[..<axis], role: "the dimensions before the axis"),
            axisSize: input.shape[axis],
            inner: try ShapeSupport.product(input.shape[(axis + 1)...], role: "the dimensions after the axis"))
    }
}

struct Cumsum: PreparedKernel {
    let element: FoldElement
    let exclusive: Bool
    let reverse: Bool
    let input: Int
    let output: Int
    let outer: Int
    let axisSize: Int
    let inner: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        switch element {
        case .float32: run(context, Float(0), +)
        case .int64: run(context, Int64(0), &+)
        default: run(context, Int32(0), &+)
        }
    }

    @inline(__always)
    private func run<T>(_ context: EvalContext, _ zero: T, _ add: (T, T) -> T) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        for o in 0 ..< outer {
            for i in 0 ..< inner {
                var acc = zero
                for step in 0 ..< axisSize {
                    let a = reverse ? axisSize - 1 - step : step
                    let at = (o * axisSize + a) * inner + i
                    if exclusive {
                        let value = x[at]
                        y[at] = acc
                        acc = add(acc, value)
                    } else {
                        acc = add(acc, x[at])
                        y[at] = acc
                    }
                }
            }
        }
    }
}
