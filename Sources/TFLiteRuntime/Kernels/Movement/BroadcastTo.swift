import TFLiteModel

/// BROADCAST_TO: the input broadcast to `shape` (input 1, constant int32 or int64, rank
/// at least the input's and at most 8). Dimensions align at the right; each input
/// dimension must equal the target's or be 1, and a 1 is read with stride 0.
enum BroadcastToKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        let shape = try ShapeSupport.constantIntegers(try context.input(1), role: "shape")
        try ShapeSupport.requireRank(shape, role: "the output")
        guard shape.count >= input.rank, shape.allSatisfy({ $0 >= 0 }) else {
            throw .invalid("cannot broadcast shape \(input.shape) to \(shape)")
        }
        let lead = shape.count - input.rank
        let inStrides = ShapeSupport.strides(input.shape)
        var src: [Int] = []
        for d in 0 ..< shape.count {
            guard d >= lead else { src.append(0); continue }
            let n = input.shape[d - lead]
            guard n == shape[d] || n == 1 else { throw .invalid("cannot broadcast shape \(input.shape) to \(shape)") }
            src.append(n == 1 ? 0 : inStrides[d - lead] * size)
        }
        try context.setOutputShape(0, shape)
        guard !shape.contains(0) else { return CopyPlansKernel(steps: []) }
        let plan = StridedCopyPlan(
            counts: shape, srcStrides: src, dstStrides: ShapeSupport.strides(shape).map { $0 * size },
            srcOffset: 0, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }
}
