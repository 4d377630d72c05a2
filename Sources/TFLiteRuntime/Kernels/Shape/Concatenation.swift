import TFLiteModel

/// CONCATENATION and PACK: each input is copied, block by block, into its slot of the
/// output. Quantized inputs must share the output's scale and zero point (the codes are
/// copied unchanged), except uint8 CONCATENATION inputs, which are requantized as
/// TFLite's reference kernel does (see ``ConcatenationRescale``). TFLite rejects the
/// other differing cases (int8 CONCATENATION, PACK of any type) and so do we.
enum ConcatenationKernels {
    /// CONCATENATION: inputs of equal rank and type whose shapes agree except along
    /// `axis` (negative counts from the end); the output's `axis` is the sum. A fused
    /// activation is applied to float outputs; other types require NONE.
    static let concatenation: KernelPrepare = {
        (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard context.inputCount >= 1 else { throw .invalid("expected at least 1 input, found 0") }
        try context.expectCounts(inputs: context.inputCount ... context.inputCount, outputs: 1 ... 1)
        var axis = 0
        var activation = FusedActivation.none
        if case .concatenation(let a, let act) = context.op.options { axis = a; activation = act }
        let output = try context.output(0)
        var inputs: [TensorState] = []
        for i in 0 ..< context.inputCount { inputs.append(try context.input(i)) }
        let first = inputs[0]
        let size = try ShapeSupport.sameType(first, output, context)
        let a = try ShapeSupport.normalizedAxis(axis, rank: first.rank)
        var total = 0
        for t in inputs {
            guard t.type == first.type else { throw context.unsupportedTypes() }
            guard t.rank == first.rank, t.shape.indices.allSatisfy({ $0 == a || t.shape[$0] == first.shape[$0] }) else {
                throw .invalid(
                    "input \(t.index) has shape \(t.shape), which does not match \(first.shape) outside axis \(a)")
            }
            let (s, o) = total.addingReportingOverflow(t.shape[a])
            guard !o else { throw .invalid("the concatenated axis is too large") }
            total = s
        }
        let rescaled = first.type == .uint8 ? try ConcatenationRescale.inputs(inputs, output: output) : []
        if first.type != .uint8 { try ShapeSupport.requireSameQuantization(inputs, output: output) }
        var clamp: FloatActivationRange?
        if activation != .none {
            guard first.type == .float32 else {
                throw .invalid("fused activation \(activation.name) is only supported for FLOAT32, not \(first.type)")
            }
            clamp = try FloatActivationRange.of(activation)
        }
        var shape = first.shape
        shape[a] = total
        try context.setOutputShape(0, shape)

        let outer = shape[..<a].reduce(1, *)
        let inner = shape[(a + 1)...].reduce(1, *)
        var steps: [CopyPlansKernel.Step] = []
        var rescales: [ConcatenationRescale] = []
        var offset = 0
        for (k, t) in inputs.enumerated() {
            let block = t.shape[a] * inner
            if !rescaled.isEmpty, let r = rescaled[k] {
                rescales.append(
                    ConcatenationRescale(
                        source: t.index, outer: outer, block: block,
                        outputRow: total * inner, outputOffset: offset * inner, table: r))
                offset += t.shape[a]
                continue
            }
            let plan = StridedCopyPlan(
                counts: [outer, block], srcStrides: [block * size, size],
                dstStrides: [total * inner * size, size],
                srcOffset: 0, dstOffset: offset * inner * size, elementSize: size)
            steps.append(.init(source: t.index, destination: output.index, plan: plan))
            offset += t.shape[a]
        }
        return ConcatenationKernel(
            copies: CopyPlansKernel(steps: steps), rescales: rescales, output: output.index,
            count: outer * total * inner, clamp: clamp)
    }

    /// PACK: `values_count` inputs of one shape stacked along a new axis at `axis`
    /// (in `-(rank+1)...rank`).
    static let pack: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        var valuesCount = 0, axis = 0
        if case .pack(let n, let a) = context.op.options { valuesCount = n; axis = a }
        guard valuesCount >= 1 else { throw .invalid("values_count is \(valuesCount); expected at least 1") }
        try context.expectCounts(inputs: valuesCount, outputs: 1)
        let output = try context.output(0)
        var inputs: [TensorState] = []
        for i in 0 ..< valuesCount { inputs.append(try context.input(i)) }
        let first = inputs[0]
        let size = try ShapeSupport.sameType(first, output, context)
        for t in inputs {
            guard t.type == first.type else { throw context.unsupportedTypes() }
            guard t.shape == first.shape else {
                throw .invalid("input \(t.index) has shape \(t.shape); every input must have shape \(first.shape)")
            }
        }
        guard first.rank < ShapeSupport.maxRank else {
            throw .invalid("the output would have rank \(first.rank + 1); at most \(ShapeSupport.maxRank) is supported")
        }
        let a = try ShapeSupport.normalizedAxis(axis, rank: first.rank + 1)
        try ShapeSupport.requireSameQuantization(inputs, output: output)
        var shape = first.shape
        shape.insert(valuesCount, at: a)
        try context.setOutputShape(0, shape)

        let outer = first.shape[..<a].reduce(1, *)
        let inner = first.shape[a...].reduce(1, *)
        let steps = inputs.enumerated().map { k, t in
            CopyPlansKernel.Step(
                source: t.index, destination: output.index,
                plan: StridedCopyPlan(
                    counts: [outer, inner], srcStrides: [inner * size, size],
                    dstStrides: [valuesCount * inner * size, size],
                    srcOffset: 0, dstOffset: k * inner * size, elementSize: size))
        }
        return CopyPlansKernel(steps: steps)
    }
}

/// The copies of a concatenation, then the float activation clamp if one is fused.
struct ConcatenationKernel: PreparedKernel {
    let copies: CopyPlansKernel
    let rescales: [ConcatenationRescale]
    let output: Int
    let count: Int
    let clamp: FloatActivationRange?

    func eval(_ context: EvalContext) throws(KernelError) {
        try copies.eval(context)
        for r in rescales { r.run(context, output: output) }
        guard let clamp else { return }
        let y = context.pointer(output, as: Float.self)
        for i in 0 ..< count { y[i] = clamp.clamp(y[i]) }
    }
}
