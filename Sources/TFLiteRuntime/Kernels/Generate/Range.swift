import TFLiteModel

/// RANGE: `start, start + delta, …` up to but excluding `limit`, from three scalars of
/// one type (int32, int64 or float32). The length, `⌈|limit − start| / |delta|⌉`, depends
/// on the values, so they must be constant (a model constant or a folded result); the
/// engine then folds the operator at prepare. `delta` must be nonzero and point from
/// `start` towards `limit` (or `start == limit`, giving an empty tensor).
///
/// Elements are accumulated, `v₀ = start, v_{i+1} = v_i + delta`, as TFLite does: for
/// float32 this differs from `start + i·delta` in the last bits.
enum RangeKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let start = try context.input(0), limit = try context.input(1), delta = try context.input(2)
        let output = try context.output(0)
        guard start.type == limit.type, start.type == delta.type, start.type == output.type else {
            throw context.unsupportedTypes()
        }
        for (t, role) in [(start, "start"), (limit, "limit"), (delta, "delta")] {
            guard t.isConstant else {
                throw .valueNeeded(
                    tensor: t.index,
                    "the \(role) input (tensor \(t.index)) sets the output length, so it is needed at prepare")
            }
            guard t.elementCount == 1 else {
                throw .invalid("the \(role) input must be a scalar, found shape \(t.shape)")
            }
        }
        let count: Int
        switch output.type {
        case .int32, .int64:
            let s = try ShapeSupport.constantIntegers(start, role: "start")[0]
            let l = try ShapeSupport.constantIntegers(limit, role: "limit")[0]
            let d = try ShapeSupport.constantIntegers(delta, role: "delta")[0]
            guard d != 0 else { throw .invalid("delta must not be zero") }
            guard (l >= s && d > 0) || (l <= s && d < 0) else {
                throw .invalid("delta \(d) does not lead from start \(s) to limit \(l)")
            }
            // Magnitudes as UInt64: |l − s| of two Int64 values fits there.
            let span = l >= s ? UInt64(bitPattern: Int64(l) &- Int64(s)) : UInt64(bitPattern: Int64(s) &- Int64(l))
            let step = d.magnitude
            let n = span / UInt64(step) + (span % UInt64(step) == 0 ? 0 : 1)
            guard n <= UInt64(Int.max) else { throw .invalid("the range has too many elements") }
            count = Int(n)
        case .float32:
            guard let s = start.constant?.typed(Float.self).first, let l = limit.constant?.typed(Float.self).first,
                let d = delta.constant?.typed(Float.self).first
            else {
                throw .invalid("the range inputs hold no value")
            }
            guard d != 0, d.isFinite, s.isFinite, l.isFinite else {
                throw .invalid("start \(s), limit \(l) and delta \(d) must be finite and delta nonzero")
            }
            guard (l >= s && d > 0) || (l <= s && d < 0) else {
                throw .invalid("delta \(d) does not lead from start \(s) to limit \(l)")
            }
            let n = (abs((l - s) / d)).rounded(.up)
            guard n < Float(Int32.max) else { throw .invalid("the range has too many elements") }
            count = Int(n)
        default:
            throw context.unsupportedTypes()
        }
        try context.setOutputShape(0, [count])
        return RangeFill(type: output.type, start: start.index, delta: delta.index, output: output.index, count: count)
    }
}

struct RangeFill: PreparedKernel {
    let type: ElementType
    let start: Int
    let delta: Int
    let output: Int
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        switch type {
        case .float32: run(context, Float.self, +)
        case .int64: run(context, Int64.self, &+)
        default: run(context, Int32.self, &+)
        }
    }

    @inline(__always)
    private func run<T>(_ context: EvalContext, _: T.Type, _ add: (T, T) -> T) {
        var value = context.pointer(start, as: T.self).pointee
        let step = context.pointer(delta, as: T.self).pointee
        let y = context.pointer(output, as: T.self)
        for i in 0 ..< count {
            y[i] = value
            value = add(value, step)
        }
    }
}
