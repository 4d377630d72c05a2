import TFLiteModel

/// STABLEHLO_GATHER: StableHLO's general gather (spec/stablehlo.md).
///
/// The result's dimensions are the batch dimensions (those of the start indices without
/// `index_vector_dim`) and, at the positions `offset_dims`, the slice dimensions not in
/// `collapsed_slice_dims`. For each batch position the start index vector (along
/// `index_vector_dim`, or one value when that is the indices' rank) is scattered into
/// operand dimensions by `start_index_map`, clamped to `[0, dim - slice_size]`, and the
/// slice of `slice_sizes` at that start is copied out.
///
/// Inputs: 0 the operand (any 8-, 16-, 32- or 64-bit type), 1 the start indices (int32 or
/// int64).
enum StableHLOGather {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        guard case .stablehloGather(let o) = context.op.options2 else {
            throw .invalid("StablehloGatherOptions are missing")
        }
        let operand = try context.input(0)
        let indices = try context.input(1)
        let output = try context.output(0)
        guard output.type == operand.type, let size = operand.type.byteSize, [1, 2, 4, 8].contains(size) else {
            throw context.unsupportedTypes()
        }
        guard indices.type == .int32 || indices.type == .int64 else { throw context.unsupportedTypes() }
        let plan = try GatherPlan(
            operand: operand.shape, indices: indices.shape, options: o, outputRank: output.rank)
        try context.setOutputShape(0, plan.outputShape)
        return StableHLOGatherKernel(
            operand: operand.index, indices: indices.index, output: output.index, plan: plan, elementSize: size,
            wideIndices: indices.type == .int64)
    }
}

/// The validated geometry of a gather.
struct GatherPlan: Hashable, Sendable {
    let operandShape: [Int]
    let outputShape: [Int]
    /// Batch positions (product of the batch dimensions) and their shape.
    let batchShape: [Int]
    /// Index-vector length and the stride between its elements in the indices tensor.
    let vectorLength: Int
    /// For each batch dimension, its stride in the indices tensor; and the offset stride of
    /// the index vector.
    let batchStrides: [Int], vectorStride: Int
    /// Operand dimension each index-vector element starts.
    let startIndexMap: [Int]
    let sliceSizes: [Int]
    /// The slice's dimensions that appear in the output (not collapsed), in order.
    let keptSliceDims: [Int]
    /// Output position of each batch dimension and of each kept slice dimension.
    let batchPositions: [Int], offsetPositions: [Int]
    /// Row-major element strides of the operand and of the output.
    let operandStrides: [Int], outputStrides: [Int]

    init(operand: [Int], indices: [Int], options o: StablehloGatherOptions, outputRank: Int) throws(KernelError) {
        let rank = operand.count
        func dims(_ list: [Int64], _ role: String, below limit: Int) throws(KernelError) -> [Int] {
            var out: [Int] = []
            for v in list {
                guard v >= 0, v < Int64(limit) else {
                    throw .invalid("\(role) value \(v) is out of range 0..<\(limit)")
                }
                guard !out.contains(Int(v)) else { throw .invalid("\(role) repeats \(v)") }
                out.append(Int(v))
            }
            return out
        }
        guard o.sliceSizes.count == rank else {
            throw .invalid("slice_sizes has \(o.sliceSizes.count) values for an operand of rank \(rank)")
        }
        var sizes: [Int] = []
        for (d, s) in o.sliceSizes.enumerated() {
            guard s >= 0, s <= Int64(operand[d]) else {
                throw .invalid("slice size \(s) of dimension \(d) does not fit in the operand's \(operand[d])")
            }
            sizes.append(Int(s))
        }
        let collapsed = try dims(o.collapsedSliceDims, "collapsed_slice_dims", below: rank)
        for d in collapsed where sizes[d] > 1 {
            throw .invalid("collapsed dimension \(d) has slice size \(sizes[d]); it must be at most 1")
        }
        let map = try dims(o.startIndexMap, "start_index_map", below: rank)
        guard o.indexVectorDim >= 0, o.indexVectorDim <= Int64(indices.count) else {
            throw .invalid("index_vector_dim \(o.indexVectorDim) is out of range 0...\(indices.count)")
        }
        let vectorDim = Int(o.indexVectorDim)
        let vectorLength = vectorDim == indices.count ? 1 : indices[vectorDim]
        guard vectorLength == map.count else {
            throw .invalid("the index vectors hold \(vectorLength) values but start_index_map has \(map.count)")
        }
        var indexStrides = [Int](repeating: 1, count: indices.count)
        for d in stride(from: indices.count - 2, through: 0, by: -1) {
            indexStrides[d] = indexStrides[d + 1] * indices[d + 1]
        }
        var batchShape: [Int] = [], batchStrides: [Int] = []
        for d in 0 ..< indices.count where d != vectorDim {
            batchShape.append(indices[d])
            batchStrides.append(indexStrides[d])
        }
        let kept = (0 ..< rank).filter { !collapsed.contains($0) }
        let resultRank = batchShape.count + kept.count
        let offsets = try dims(o.offsetDims, "offset_dims", below: Swift.max(resultRank, 1))
        guard offsets.count == kept.count, offsets == offsets.sorted() else {
            throw .invalid("offset_dims \(offsets) must list \(kept.count) ascending result dimensions")
        }
        guard resultRank == outputRank else {
            throw .invalid("the result has rank \(resultRank) but the output tensor has rank \(outputRank)")
        }
        var shape: [Int] = [], batchPositions: [Int] = []
        var nextBatch = 0, nextKept = 0
        for r in 0 ..< resultRank {
            if offsets.contains(r) {
                shape.append(sizes[kept[nextKept]])
                nextKept += 1
            } else {
                shape.append(batchShape[nextBatch])
                batchPositions.append(r)
                nextBatch += 1
            }
        }
        operandShape = operand
        outputShape = shape
        self.batchShape = batchShape
        self.vectorLength = vectorLength
        self.batchStrides = batchStrides
        vectorStride = vectorDim == indices.count ? 0 : indexStrides[vectorDim]
        startIndexMap = map
        sliceSizes = sizes
        keptSliceDims = kept
        self.batchPositions = batchPositions
        offsetPositions = offsets
        var strides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * operand[d + 1] }
        operandStrides = strides
        var outStrides = [Int](repeating: 1, count: shape.count)
        for d in stride(from: shape.count - 2, through: 0, by: -1) { outStrides[d] = outStrides[d + 1] * shape[d + 1] }
        outputStrides = outStrides
    }
}
