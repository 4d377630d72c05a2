import TFLiteModel

/// REVERSE_V2: the input with the order of elements reversed along each of `axes`
/// (input 1, constant int32 or int64, negative counting from the end, each at most once).
/// A strided copy reading those axes with negative strides from their last element.
enum ReverseV2Kernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        try ShapeSupport.requireRank(input.shape, role: "the input")
        var axes = Set<Int>()
        for a in try ShapeSupport.constantIntegers(try context.input(1), role: "axis") {
            let axis = try ShapeSupport.normalizedAxis(a, rank: input.rank)
            guard axes.insert(axis).inserted else { throw .invalid("axis \(a) is given twice") }
        }
        try context.setOutputShape(0, input.shape)
        guard !input.shape.contains(0) else { return CopyPlansKernel(steps: []) }
        var src = ShapeSupport.strides(input.shape).map { $0 * size }
        var offset = 0
        for a in axes {
            offset += (input.shape[a] - 1) * src[a]
            src[a] = -src[a]
        }
        let plan = StridedCopyPlan(
            counts: input.shape, srcStrides: src,
            dstStrides: ShapeSupport.strides(input.shape).map { $0 * size },
            srcOffset: offset, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }
}
