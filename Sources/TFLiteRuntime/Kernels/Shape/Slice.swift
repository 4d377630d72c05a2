import TFLiteModel

/// SLICE: `output = input[begin₀ : begin₀+size₀, …]`. `begin` and `size` are constant
/// INT32/INT64 vectors with one entry per input axis; a size of -1 means "to the end".
/// Every slice must lie inside the input.
enum SliceKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        try ShapeSupport.requireRank(input.shape, role: "the input")
        let beginTensor = try context.input(1), sizeTensor = try context.input(2)
        guard beginTensor.rank == 1, sizeTensor.rank == 1 else {
            throw .invalid("begin and size must be 1-D, found shapes \(beginTensor.shape) and \(sizeTensor.shape)")
        }
        let begin = try ShapeSupport.constantIntegers(beginTensor, role: "begin")
        var sizes = try ShapeSupport.constantIntegers(sizeTensor, role: "size")
        guard begin.count == input.rank, sizes.count == input.rank else {
            throw .invalid("begin \(begin) and size \(sizes) must each have \(input.rank) entries (the input's rank)")
        }
        for d in 0 ..< input.rank {
            let dim = input.shape[d]
            guard begin[d] >= 0, begin[d] <= dim else {
                throw .invalid("begin \(begin[d]) is outside 0...\(dim) for dimension \(d) of shape \(input.shape)")
            }
            if sizes[d] == -1 { sizes[d] = dim - begin[d] }
            guard sizes[d] >= 0, sizes[d] <= dim - begin[d] else {
                throw .invalid("size \(sizes[d]) at begin \(begin[d]) runs past dimension \(d) of shape \(input.shape)")
            }
        }
        try context.setOutputShape(0, sizes)
        let inStrides = ShapeSupport.strides(input.shape)
        let outStrides = ShapeSupport.strides(sizes)
        let offset = zip(begin, inStrides).reduce(0) { $0 + $1.0 * $1.1 }
        let plan = StridedCopyPlan(
            counts: sizes, srcStrides: inStrides.map { $0 * size },
            dstStrides: outStrides.map { $0 * size },
            srcOffset: offset * size, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }
}
