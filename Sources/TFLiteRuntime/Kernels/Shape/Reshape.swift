import TFLiteModel

/// RESHAPE, SQUEEZE and EXPAND_DIMS: the bytes stay in order and only the shape
/// changes. The output gets its own buffer from the planner, so eval is one copy.
enum ReshapeKernels {
    /// RESHAPE. The new shape comes from input 1 when it is a 1-D INT32 tensor (which
    /// must then be constant), else from the options' `new_shape`, where the legacy
    /// value `[0]` and an absent list both mean a scalar. One entry may be -1: it takes
    /// whatever size makes the element counts match (0 when the input is empty but the
    /// other entries are not). The element counts must then be equal.
    static let reshape: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1 ... 2, outputs: 1 ... 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        let requested: [Int]
        let source: String
        if let shapeTensor = context.optionalInput(1), shapeTensor.rank == 1, shapeTensor.type == .int32 {
            guard shapeTensor.shape[0] <= ShapeSupport.maxRank else {
                throw .invalid(
                    "the shape tensor has \(shapeTensor.shape[0]) entries; at most \(ShapeSupport.maxRank) dimensions are supported"
                )
            }
            requested = try ShapeSupport.constantIntegers(shapeTensor, role: "shape")
            source = "shape tensor"
        } else {
            var fromOptions: [Int] = []
            if case .reshape(let newShape?) = context.op.options { fromOptions = newShape }
            requested = fromOptions == [0] ? [] : fromOptions
            source = "new_shape option"
        }
        let shape = try inferShape(requested, inputShape: input.shape, source: source)
        try context.setOutputShape(0, shape)
        return ByteCopyKernel(input: input.index, output: output.index, byteCount: input.elementCount * size)
    }

    /// Resolves a requested shape with at most one -1 against the input's element count.
    static func inferShape(_ requested: [Int], inputShape: [Int], source: String) throws(KernelError) -> [Int] {
        guard requested.count <= ShapeSupport.maxRank else {
            throw .invalid(
                "the \(source) has \(requested.count) dimensions; at most \(ShapeSupport.maxRank) are supported")
        }
        // The input's shape passed the engine's size checks, so its element count fits;
        // the product of its non-zero dimensions need not (`[13057, 0, 2^31, 2^31]` holds
        // no elements: fuzz target model-invoke, RELIABILITY.md finding 13).
        guard let inputCount = Shape.elementCount(inputShape) else {
            throw .invalid("the input shape \(inputShape) has too many elements")
        }
        var nonZeroInput = 1
        for d in inputShape where d != 0 {
            let (p, overflow) = nonZeroInput.multipliedReportingOverflow(by: d)
            guard !overflow else {
                throw .invalid(
                    "the input shape \(inputShape) cannot be reshaped: its non-zero dimensions multiply beyond Int")
            }
            nonZeroInput = p
        }
        var shape = requested
        var stretch: Int?
        var count = 1, nonZeroCount = 1
        for (i, v) in requested.enumerated() {
            if v == -1 {
                guard stretch == nil else { throw .invalid("the \(source) \(requested) has more than one -1") }
                stretch = i
                continue
            }
            guard v >= 0 else { throw .invalid("the \(source) \(requested) has a negative dimension") }
            let (c, o1) = count.multipliedReportingOverflow(by: v)
            let (n, o2) = nonZeroCount.multipliedReportingOverflow(by: v == 0 ? 1 : v)
            guard !o1, !o2 else { throw .invalid("the \(source) \(requested) has too many elements") }
            count = c; nonZeroCount = n
        }
        if let s = stretch {
            shape[s] = inputCount == 0 && count != 0 ? 0 : nonZeroInput / nonZeroCount
            let (c, overflow) = count.multipliedReportingOverflow(by: shape[s])
            guard !overflow else { throw .invalid("the \(source) \(requested) has too many elements") }
            count = c
        }
        guard count == inputCount else {
            throw .invalid(
                "cannot reshape \(inputShape) (\(inputCount) elements) to \(requested) from the \(source) (\(count) elements)"
            )
        }
        return shape
    }

    /// SQUEEZE: removes the listed axes (negative counts from the end), each of which
    /// must have size 1, or every size-1 axis when the list is empty.
    static let squeeze: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        var dims: [Int] = []
        if case .squeeze(let squeezeDims) = context.op.options { dims = squeezeDims }
        guard dims.count <= ShapeSupport.maxRank else {
            throw .invalid("squeeze_dims has \(dims.count) entries; at most \(ShapeSupport.maxRank) are supported")
        }
        var remove = Set<Int>()
        if dims.isEmpty {
            remove = Set(input.shape.indices.filter { input.shape[$0] == 1 })
        } else {
            for d in dims {
                let a = try ShapeSupport.normalizedAxis(d, rank: input.rank, role: "squeeze dimension")
                guard input.shape[a] == 1 else {
                    throw .invalid(
                        "cannot squeeze dimension \(d) of shape \(input.shape): its size is \(input.shape[a]), not 1")
                }
                remove.insert(a)
            }
        }
        let shape = input.shape.indices.filter { !remove.contains($0) }.map { input.shape[$0] }
        try context.setOutputShape(0, shape)
        return ByteCopyKernel(input: input.index, output: output.index, byteCount: input.elementCount * size)
    }

    /// EXPAND_DIMS: inserts a size-1 axis at the position given by the constant axis
    /// tensor (one INT32 or INT64 value in `-(rank+1)...rank`; negative counts from the end).
    static let expandDims: KernelPrepare = {
        (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        // TFLite's EXPAND_DIMS gives the output the input's type at prepare.
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        let axisValues = try ShapeSupport.constantIntegers(try context.input(1), role: "axis")
        guard axisValues.count == 1 else {
            throw .invalid("the axis tensor must hold exactly one value, found \(axisValues.count)")
        }
        guard input.rank < ShapeSupport.maxRank else {
            throw .invalid("the output would have rank \(input.rank + 1); at most \(ShapeSupport.maxRank) is supported")
        }
        let axis = try ShapeSupport.normalizedAxis(axisValues[0], rank: input.rank + 1)
        var shape = input.shape
        shape.insert(1, at: axis)
        try context.setOutputShape(0, shape)
        return ByteCopyKernel(input: input.index, output: output.index, byteCount: input.elementCount * size)
    }
}
