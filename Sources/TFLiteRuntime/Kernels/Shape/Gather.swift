import TFLiteModel

/// GATHER: picks slices of `params` along `axis` by the INT32/INT64 `indices`.
///
/// With `batch_dims` leading axes shared by `params` and `indices` (negative counts
/// from the end of `indices`; `batch_dims ≤ axis`):
/// `out[b, o, i, r] = params[b, o, indices[b, i], r]`, so the output shape is
/// `params.shape[..<axis] + indices.shape[batch_dims...] + params.shape[(axis+1)...]`.
/// Indices come from run-time data: eval checks each one lies in `0..<params.shape[axis]`.
enum GatherKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let params = try context.input(0)
        let indices = try context.input(1)
        // TFLite's GATHER gives the output the params' type at prepare.
        try context.deriveOutputType(0, params.type)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(params, output, context)
        guard indices.type == .int32 || indices.type == .int64 else { throw context.unsupportedTypes() }
        var axis = 0, batchDims = 0
        if case .gather(let a, let b) = context.op.options { axis = a; batchDims = b }
        let a = try ShapeSupport.normalizedAxis(axis, rank: params.rank)
        let b = batchDims < 0 ? batchDims + indices.rank : batchDims
        guard b >= 0, b <= indices.rank, b <= a else {
            throw .invalid(
                "batch_dims \(batchDims) must be in 0...\(Swift.min(indices.rank, a)) (at most the indices' rank \(indices.rank) and the axis \(a))"
            )
        }
        guard params.shape[..<b] == indices.shape[..<b] else {
            throw .invalid(
                "the first \(b) dimensions of params \(params.shape) and indices \(indices.shape) must match (batch_dims)"
            )
        }
        let shape = Array(params.shape[..<a]) + Array(indices.shape[b...]) + Array(params.shape[(a + 1)...])
        try ShapeSupport.requireRank(shape, role: "the output")
        try context.setOutputShape(0, shape)
        let inner = params.shape[(a + 1)...].reduce(1, *)
        return GatherBytes(
            params: params.index, indices: indices.index, output: output.index,
            wideIndices: indices.type == .int64,
            batches: params.shape[..<b].reduce(1, *),
            outer: params.shape[b ..< a].reduce(1, *),
            axisSize: params.shape[a],
            indicesPerBatch: indices.shape[b...].reduce(1, *),
            sliceBytes: inner * size)
    }
}

/// Gather of `sliceBytes`-sized slices; see ``GatherKernel``.
struct GatherBytes: PreparedKernel {
    let params: Int
    let indices: Int
    let output: Int
    let wideIndices: Bool
    let batches: Int
    let outer: Int
    let axisSize: Int
    let indicesPerBatch: Int
    let sliceBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let src = UnsafeRawPointer(context.raw(params))
        let idx = UnsafeRawPointer(context.raw(indices))
        var dst = context.raw(output)
        for b in 0 ..< batches {
            for o in 0 ..< outer {
                let base = src + ((b * outer + o) * axisSize) * sliceBytes
                for i in 0 ..< indicesPerBatch {
                    let k = b * indicesPerBatch + i
                    let index =
                        wideIndices
                        ? Int(idx.load(fromByteOffset: 8 * k, as: Int64.self))
                        : Int(idx.load(fromByteOffset: 4 * k, as: Int32.self))
                    guard index >= 0, index < axisSize else {
                        throw .invalid(
                            "index \(index) (at position \(k) of the indices) is out of range 0..<\(axisSize)")
                    }
                    dst.copyMemory(from: base + index * sliceBytes, byteCount: sliceBytes)
                    dst += sliceBytes
                }
            }
        }
    }
}
