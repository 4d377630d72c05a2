import TFLiteModel

/// TILE: the input repeated `multiples[d]` times along each dimension d (input 1,
/// constant int32 or int64, one value ≥ 0 per dimension): `out[i] = in[i mod in.shape]`,
/// `out.shape[d] = in.shape[d] · multiples[d]`. One strided copy over twice the rank:
/// each dimension splits into (repeat, position), the repeat reading with stride 0.
enum TileKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        try ShapeSupport.requireRank(input.shape, role: "the input")
        let multiples = try ShapeSupport.constantIntegers(try context.input(1), role: "multiples")
        guard multiples.count == input.rank else {
            throw .invalid("multiples has \(multiples.count) values for an input of rank \(input.rank)")
        }
        var shape: [Int] = []
        for (d, m) in multiples.enumerated() {
            let (n, overflow) = input.shape[d].multipliedReportingOverflow(by: m)
            guard m >= 0, !overflow else {
                throw .invalid("multiples \(multiples) are invalid or too large for input \(input.shape)")
            }
            shape.append(n)
        }
        try context.setOutputShape(0, shape)
        // Nothing to copy; also keeps the stride products below (which skip no factor) small.
        guard !shape.contains(0) else { return CopyPlansKernel(steps: []) }
        let inStrides = ShapeSupport.strides(input.shape), outStrides = ShapeSupport.strides(shape)
        var counts: [Int] = [], src: [Int] = [], dst: [Int] = []
        for d in 0 ..< input.rank {
            counts += [multiples[d], input.shape[d]]
            src += [0, inStrides[d] * size]
            dst += [input.shape[d] * outStrides[d] * size, outStrides[d] * size]
        }
        let plan = StridedCopyPlan(
            counts: counts, srcStrides: src, dstStrides: dst, srcOffset: 0, dstOffset: 0, elementSize: size)
        return CopyPlansKernel(steps: [.init(source: input.index, destination: output.index, plan: plan)])
    }
}
