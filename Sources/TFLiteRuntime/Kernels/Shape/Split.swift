import TFLiteModel

/// SPLIT, SPLIT_V and UNPACK: consecutive slices of one axis go to consecutive outputs.
enum SplitKernels {
    /// SPLIT: inputs are (axis, input) — the axis comes first. The axis (one constant
    /// INT32/INT64 value, negative counts from the end) is cut into `num_splits` equal parts.
    static let split: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        var numSplits = 0
        if case .split(let n) = context.op.options { numSplits = n }
        guard numSplits >= 1 else { throw .invalid("num_splits is \(numSplits); expected at least 1") }
        try context.expectCounts(inputs: 2, outputs: numSplits)
        let input = try context.input(1)
        let axis = try singleAxis(try context.input(0), rank: input.rank)
        guard input.shape[axis] % numSplits == 0 else {
            throw .invalid(
                "dimension \(axis) of shape \(input.shape) (size \(input.shape[axis])) cannot be split into \(numSplits) equal parts"
            )
        }
        let part = input.shape[axis] / numSplits
        return try splitPlans(
            &context, input: input, axis: axis, sizes: Array(repeating: part, count: numSplits), keepAxis: true)
    }

    /// SPLIT_V: inputs are (input, size_splits, axis). `size_splits` lists the part sizes
    /// (one may be -1: the remainder); they must add up to the axis size.
    static let splitV: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        var numSplits = 0
        if case .splitV(let n) = context.op.options { numSplits = n }
        guard numSplits >= 1 else { throw .invalid("num_splits is \(numSplits); expected at least 1") }
        try context.expectCounts(inputs: 3, outputs: numSplits)
        let input = try context.input(0)
        let sizesTensor = try context.input(1)
        guard sizesTensor.rank == 1 else { throw .invalid("size_splits must be 1-D, found shape \(sizesTensor.shape)") }
        var sizes = try ShapeSupport.constantIntegers(sizesTensor, role: "size_splits")
        guard sizes.count == numSplits else {
            throw .invalid("size_splits has \(sizes.count) entries but num_splits is \(numSplits)")
        }
        let axis = try singleAxis(try context.input(2), rank: input.rank)
        let dim = input.shape[axis]
        var known = 0
        var unknown: Int?
        for (i, s) in sizes.enumerated() {
            if s == -1 {
                guard unknown == nil else { throw .invalid("size_splits \(sizes) has more than one -1") }
                unknown = i
            } else {
                guard s >= 0, s <= dim else { throw .invalid("size_splits \(sizes) has an entry outside 0...\(dim)") }
                known += s
            }
        }
        if let u = unknown {
            guard known <= dim else { throw .invalid("size_splits \(sizes) add up to more than the axis size \(dim)") }
            sizes[u] = dim - known
        } else {
            guard known == dim else {
                throw .invalid("size_splits \(sizes) add up to \(known), not the axis size \(dim)")
            }
        }
        return try splitPlans(&context, input: input, axis: axis, sizes: sizes, keepAxis: true)
    }

    /// UNPACK: `num` outputs, one per index of `axis` (which must have size `num`),
    /// each with that axis removed.
    static let unpack: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        var num = 0, axis = 0
        if case .unpack(let n, let a) = context.op.options { num = n; axis = a }
        guard num >= 1 else { throw .invalid("num is \(num); expected at least 1") }
        try context.expectCounts(inputs: 1, outputs: num)
        let input = try context.input(0)
        let a = try ShapeSupport.normalizedAxis(axis, rank: input.rank)
        guard input.shape[a] == num else {
            throw .invalid("dimension \(a) of shape \(input.shape) has size \(input.shape[a]), but num is \(num)")
        }
        return try splitPlans(&context, input: input, axis: a, sizes: Array(repeating: 1, count: num), keepAxis: false)
    }

    /// The axis held by a constant single-value axis tensor, normalized for `rank`.
    static func singleAxis(_ tensor: TensorState, rank: Int) throws(KernelError) -> Int {
        let values = try ShapeSupport.constantIntegers(tensor, role: "axis")
        guard values.count == 1 else {
            throw .invalid("the axis tensor must hold exactly one value, found \(values.count)")
        }
        return try ShapeSupport.normalizedAxis(values[0], rank: rank)
    }

    /// Sets each output's shape and builds one copy per output: part `k` covers
    /// `sizes[k]` consecutive indices of `axis`.
    static func splitPlans(_ context: inout PrepareContext, input: TensorState, axis: Int, sizes: [Int], keepAxis: Bool)
        throws(KernelError) -> any PreparedKernel
    {
        let outer = input.shape[..<axis].reduce(1, *)
        let inner = input.shape[(axis + 1)...].reduce(1, *)
        let dim = input.shape[axis]
        var steps: [CopyPlansKernel.Step] = []
        var start = 0
        for (k, part) in sizes.enumerated() {
            // TFLite's SPLIT and SPLIT_V give every output the input's type at prepare
            // (UNPACK, which also comes here, checks that they agree, as ours then does).
            if keepAxis { try context.deriveOutputType(k, input.type) }
            let output = try context.output(k)
            let size = try ShapeSupport.sameType(input, output, context)
            var shape = input.shape
            if keepAxis { shape[axis] = part } else { shape.remove(at: axis) }
            try context.setOutputShape(k, shape)
            let block = part * inner
            let plan = StridedCopyPlan(
                counts: [outer, block], srcStrides: [dim * inner * size, size],
                dstStrides: [block * size, size],
                srcOffset: start * inner * size, dstOffset: 0, elementSize: size)
            steps.append(.init(source: input.index, destination: output.index, plan: plan))
            start += part
        }
        return CopyPlansKernel(steps: steps)
    }
}
