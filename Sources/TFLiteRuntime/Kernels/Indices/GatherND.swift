import TFLiteModel

/// GATHER_ND: `out[t, ...] = params[indices[t, 0], …, indices[t, K−1], ...]` for each
/// index tuple `t` (the last dimension `K ≤ rank(params)` of `indices`); the output shape
/// is `indices.shape[..<last] + params.shape[K...]`. Indices come from run-time data:
/// each is checked against its dimension and one out of range fails the invoke, as
/// TFLite does. Moves bytes, so every fixed-size type works.
enum GatherNDKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let params = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(params, output, context)
        let tuples = try IndexTuples(try context.input(1), indexing: params.shape, role: "params")
        let indices = try context.input(1)
        let shape = Array(indices.shape.dropLast()) + Array(params.shape[tuples.length...])
        try ShapeSupport.requireRank(shape, role: "the output")
        try context.setOutputShape(0, shape)
        return GatherND(
            params: params.index, output: output.index, tuples: tuples,
            sliceBytes: try ShapeSupport.product(params.shape[tuples.length...] + [size], role: "the slices"))
    }
}

struct GatherND: PreparedKernel {
    let params: Int
    let output: Int
    let tuples: IndexTuples
    let sliceBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let src = UnsafeRawPointer(context.raw(params))
        let dst = context.raw(output)
        for t in 0 ..< tuples.count {
            let slice = try tuples.slice(t, in: context)
            (dst + t * sliceBytes).copyMemory(from: src + slice * sliceBytes, byteCount: sliceBytes)
        }
    }
}
