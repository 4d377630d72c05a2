import TFLiteModel

/// PAD, PADV2 and MIRROR_PAD. `paddings` is a constant INT32/INT64 `[rank, 2]` tensor of
/// non-negative `(before, after)` counts per axis; the output axis is
/// `before + size + after`.
enum PadKernels {
    /// PAD fills with zero, or with the output's zero point for quantized 8/16-bit
    /// outputs (so the padding represents 0.0). PADV2 fills with its one-element
    /// constant-value input (same type, and for quantized types the same scale and
    /// zero point as the output).
    static let pad: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        return try preparePad(&context, valueInput: nil)
    }

    static let padV2: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2 ... 3, outputs: 1 ... 1)
        return try preparePad(&context, valueInput: context.optionalInput(2))
    }

    private static func preparePad(_ context: inout PrepareContext, valueInput: TensorState?) throws(KernelError)
        -> any PreparedKernel
    {
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        let pads = try paddings(context, input: input)
        let shape = try paddedShape(input.shape, pads)
        try context.setOutputShape(0, shape)
        let outStrides = ShapeSupport.strides(shape)
        let offset = zip(pads, outStrides).reduce(0) { $0 + $1.0.before * $1.1 }
        let plan = StridedCopyPlan(
            counts: input.shape, srcStrides: ShapeSupport.strides(input.shape).map { $0 * size },
            dstStrides: outStrides.map { $0 * size },
            srcOffset: 0, dstOffset: offset * size, elementSize: size)
        var fill = [UInt8](repeating: 0, count: size)
        var valueTensor: Int?
        if let v = valueInput {
            guard v.type == input.type else { throw context.unsupportedTypes() }
            guard v.elementCount == 1 else {
                throw .invalid("the constant value must have exactly one element, found shape \(v.shape)")
            }
            if output.quantization != nil, [ElementType.uint8, .int8, .int16].contains(output.type),
                !ShapeSupport.sameQuantization(v, output)
            {
                throw .invalid(
                    "the constant value must be quantized like the output (scale \(output.scale ?? 0), zero point \(output.zeroPoint ?? 0))"
                )
            }
            valueTensor = v.index
        } else if let zp = output.zeroPoint, zp != 0 {
            switch output.type {
            case .uint8:
                guard let z = UInt8(exactly: zp) else { throw .invalid("output zero point \(zp) is outside UINT8") }
                fill = [z]
            case .int8:
                guard let z = Int8(exactly: zp) else { throw .invalid("output zero point \(zp) is outside INT8") }
                fill = [UInt8(bitPattern: z)]
            case .int16:
                guard let z = Int16(exactly: zp) else { throw .invalid("output zero point \(zp) is outside INT16") }
                fill = withUnsafeBytes(of: z) { Array($0) }
            default:
                break
            }
        }
        // Padding on the last axis alone: output row r is input row r with pad values
        // around it, so one pass can fill and copy the same rows.
        let rows = input.shape.dropLast().reduce(1, *)
        let lastOnly =
            pads.dropLast().allSatisfy { $0.before == 0 && $0.after == 0 } && plan.outerCount == rows
            && rows > 0
        return PadConstantKernel(
            input: input.index, output: output.index, plan: plan, count: shape.reduce(1, *),
            elementSize: size, fill: fill, valueTensor: valueTensor, rows: lastOnly ? rows : nil)
    }

    /// MIRROR_PAD: the padding repeats the input mirrored at its edges, without the edge
    /// element (REFLECT, padding < size) or with it (SYMMETRIC, padding ≤ size).
    static let mirrorPad: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        var mode: Int8 = 0
        if case .mirrorPad(let m) = context.op.options { mode = m }
        guard mode == 0 || mode == 1 else {
            throw .invalid("unknown mirror pad mode \(mode) (expected 0 = REFLECT or 1 = SYMMETRIC)")
        }
        let reflect = mode == 0
        let pads = try paddings(context, input: input)
        for (d, p) in pads.enumerated() {
            let limit = reflect ? input.shape[d] - 1 : input.shape[d]
            guard p.before <= limit, p.after <= limit else {
                throw .invalid(
                    "padding (\(p.before), \(p.after)) of dimension \(d) exceeds \(limit), the most \(reflect ? "REFLECT" : "SYMMETRIC") allows for size \(input.shape[d])"
                )
            }
        }
        let shape = try paddedShape(input.shape, pads)
        try context.setOutputShape(0, shape)
        return MirrorPadCopy(
            input: input.index, output: output.index, shape: input.shape, pads: pads, reflect: reflect,
            elementSize: size)
    }

    /// The `(before, after)` pairs of the constant paddings input.
    private static func paddings(_ context: PrepareContext, input: TensorState) throws(KernelError) -> [(
        before: Int, after: Int
    )] {
        try ShapeSupport.requireRank(input.shape, role: "the input")
        let t = try context.input(1)
        guard t.shape == [input.rank, 2] else {
            throw .invalid("paddings must have shape [\(input.rank), 2], found \(t.shape)")
        }
        let values = try ShapeSupport.constantIntegers(t, role: "paddings")
        guard values.allSatisfy({ $0 >= 0 }) else { throw .invalid("paddings \(values) must not be negative") }
        return (0 ..< input.rank).map { (values[2 * $0], values[2 * $0 + 1]) }
    }

    private static func paddedShape(_ shape: [Int], _ pads: [(before: Int, after: Int)]) throws(KernelError) -> [Int] {
        var result: [Int] = []
        for (d, p) in pads.enumerated() {
            let (a, o1) = shape[d].addingReportingOverflow(p.before)
            let (b, o2) = a.addingReportingOverflow(p.after)
            guard !o1, !o2 else { throw .invalid("padding dimension \(d) overflows") }
            result.append(b)
        }
        return result
    }
}

/// Fills the output with the pad value, then copies the input into its interior.
struct PadConstantKernel: PreparedKernel {
    let input: Int
    let output: Int
    let plan: StridedCopyPlan
    let count: Int
    let elementSize: Int
    /// The pad value's bytes when known at prepare.
    let fill: [UInt8]
    /// The tensor holding the pad value (PADV2), read at eval.
    let valueTensor: Int?
    /// When only the last axis is padded: the number of rows (the plan's outer count), so
    /// that one parallel region fills and copies each thread's rows; nil otherwise.
    let rows: Int?

    func eval(_ context: EvalContext) throws(KernelError) {
        let dst = context.raw(output)
        let src = UnsafeRawPointer(context.raw(input))
        let size = elementSize, plan = self.plan
        if let rows {
            // One region instead of two: on two threads, the second region's hand-off
            // and join made a 5-10 µs PAD slower than on one.
            let width = count / rows
            fill.withUnsafeBytes { raw in
                guard let value = valueTensor.map({ UnsafeRawPointer(context.raw($0)) }) ?? raw.baseAddress else {
                    return
                }
                context.parallel.forEachChunk(rows, cost: width * size) { range in
                    fillElements(
                        dst + range.lowerBound * width * size, count: range.count * width, size: size, value: value)
                    plan.run(from: src, to: dst, outer: range)
                }
            }
            return
        }
        // Both passes split into contiguous halves, like the kernels around them, so each
        // thread mostly touches memory already in its own core's cache.
        fill.withUnsafeBytes { raw in
            guard let value = valueTensor.map({ UnsafeRawPointer(context.raw($0)) }) ?? raw.baseAddress else { return }
            context.parallel.forEachChunk(count, cost: size) { range in
                fillElements(dst + range.lowerBound * size, count: range.count, size: size, value: value)
            }
        }
        let outer = plan.outerCount
        context.parallel.forEachChunk(outer, cost: count * size / Swift.max(outer, 1)) { range in
            plan.run(from: src, to: dst, outer: range)
        }
    }
}
