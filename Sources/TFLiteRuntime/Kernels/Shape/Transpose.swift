import TFLiteModel

/// TRANSPOSE, DEPTH_TO_SPACE and SPACE_TO_DEPTH: permutations of axes, the last two of
/// an NHWC tensor viewed as six axes.
enum TransposeKernels {
    /// TRANSPOSE: `output.shape[i] = input.shape[perm[i]]`, with `perm` a constant
    /// INT32/INT64 permutation of `0..<rank` (rank ≤ 6).
    static let transpose: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        try ShapeSupport.requireRank(input.shape, max: 6, role: "the input")
        let permTensor = try context.input(1)
        guard permTensor.rank == 1 else { throw .invalid("perm must be 1-D, found shape \(permTensor.shape)") }
        let perm = try ShapeSupport.constantIntegers(permTensor, role: "perm")
        guard perm.count == input.rank, Set(perm) == Set(0 ..< input.rank) else {
            throw .invalid("perm \(perm) is not a permutation of 0..<\(input.rank)")
        }
        let shape = perm.map { input.shape[$0] }
        try context.setOutputShape(0, shape)
        let inStrides = ShapeSupport.strides(input.shape)
        let plan = StridedCopyPlan(
            counts: shape, srcStrides: perm.map { inStrides[$0] * size },
            dstStrides: ShapeSupport.strides(shape).map { $0 * size },
            srcOffset: 0, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }

    /// DEPTH_TO_SPACE: `out[b, h·bs + i, w·bs + j, c] = in[b, h, w, (i·bs + j)·C' + c]`
    /// where `C' = C / bs²`.
    static let depthToSpace: KernelPrepare = {
        (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        var blockSize = 0
        if case .depthToSpace(let b) = context.op.options { blockSize = b }
        let (input, output, size) = try nhwc(&context, blockSize: blockSize)
        let (n, h, w, c) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let bs = blockSize
        let (bb, o) = bs.multipliedReportingOverflow(by: bs)
        guard !o, c % bb == 0 else {
            throw .invalid("depth \(c) is not divisible by block_size² (block_size \(bs))")
        }
        let (oh, o1) = h.multipliedReportingOverflow(by: bs)
        let (ow, o2) = w.multipliedReportingOverflow(by: bs)
        guard !o1, !o2 else { throw .invalid("the output of block_size \(bs) on \(input.shape) is too large") }
        let oc = c / bb
        try context.setOutputShape(0, [n, oh, ow, oc])
        // Output order (b, h, i, w, j, c) read from the input viewed as [N, H, W, bs, bs, C'].
        let s = ShapeSupport.strides(input.shape)
        let counts = [n, h, bs, w, bs, oc]
        let src = [s[0], s[1], bs * oc, s[2], oc, 1]
        return permutedCopy(input: input, output: output, size: size, counts: counts, srcStrides: src)
    }

    /// SPACE_TO_DEPTH: `out[b, h, w, (i·bs + j)·C + c] = in[b, h·bs + i, w·bs + j, c]`;
    /// height and width must be multiples of `bs`.
    static let spaceToDepth: KernelPrepare = {
        (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        var blockSize = 0
        if case .spaceToDepth(let b) = context.op.options { blockSize = b }
        let (input, output, size) = try nhwc(&context, blockSize: blockSize)
        let (n, h, w, c) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let bs = blockSize
        guard h % bs == 0, w % bs == 0 else {
            throw .invalid("height \(h) and width \(w) must be multiples of block_size \(bs)")
        }
        let (bb, o1) = bs.multipliedReportingOverflow(by: bs)
        let (oc, o2) = c.multipliedReportingOverflow(by: o1 ? 1 : bb)
        guard !o1, !o2 else { throw .invalid("the output of block_size \(bs) on \(input.shape) is too large") }
        try context.setOutputShape(0, [n, h / bs, w / bs, oc])
        // Output order (b, h, w, i, j, c) read from the input at (b, h·bs + i, w·bs + j, c).
        let s = ShapeSupport.strides(input.shape)
        let counts = [n, h / bs, w / bs, bs, bs, c]
        let src = [s[0], bs * s[1], bs * s[2], s[1], s[2], 1]
        return permutedCopy(input: input, output: output, size: size, counts: counts, srcStrides: src)
    }

    /// Common checks of the block ops: one 4-D input, same types, block size ≥ 1.
    private static func nhwc(_ context: inout PrepareContext, blockSize: Int) throws(KernelError) -> (
        TensorState, TensorState, Int
    ) {
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        guard input.rank == 4 else { throw .invalid("the input must be 4-D (NHWC), found shape \(input.shape)") }
        guard blockSize >= 1 else { throw .invalid("block_size is \(blockSize); expected at least 1") }
        return (input, output, size)
    }

    /// A copy walking the output contiguously with the given element strides into the input.
    private static func permutedCopy(
        input: TensorState, output: TensorState, size: Int, counts: [Int], srcStrides: [Int]
    ) -> any PreparedKernel {
        let plan = StridedCopyPlan(
            counts: counts, srcStrides: srcStrides.map { $0 * size },
            dstStrides: ShapeSupport.strides(counts).map { $0 * size },
            srcOffset: 0, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }
}
