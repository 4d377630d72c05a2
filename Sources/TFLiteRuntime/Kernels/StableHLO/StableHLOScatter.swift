import TFLiteModel

/// STABLEHLO_SCATTER: StableHLO's `scatter` with one operand, as LiteRT runs it
/// (spec/stablehlo.md). The result starts as a copy of the operand; then, for every
/// element of the updates in row-major order, the target element is found and combined
/// with the update by the update computation (``StableHLOComputation``: replace, or the
/// one STABLEHLO_ADD, _MULTIPLY, _MAXIMUM or _MINIMUM of that subgraph). Updates whose
/// target lies outside the operand are skipped.
///
/// The target of update element `u`: its scatter dimensions (those not in
/// `update_window_dims`) give a position in the indices (all dimensions but
/// `index_vector_dim`), whose index vector places start `k` on operand dimension
/// `scatter_dims_to_operand_dims[k]`; its window dimensions give offsets along the operand
/// dimensions not in `inserted_window_dims`, in order. Target = start + offsets.
///
/// Inputs: 0 the operand, 1 the indices (int32 or int64), 2 the updates. Types: float16,
/// float32, float64, int8/16/32/64, uint8/16/32/64.
enum StableHLOScatter {
    static let computations: [BuiltinOperator: StableHLOComputation.Operation] = [
        .stablehloAdd: .add, .stablehloMultiply: .multiply, .stablehloMaximum: .maximum,
        .stablehloMinimum: .minimum,
    ]

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        guard case .stablehloScatter(let o) = context.op.options2 else {
            throw .invalid("StablehloScatterOptions are missing")
        }
        let operation = try StableHLOComputation.recognise(
            context, subgraph: o.updateComputationSubgraph, role: "update", accepted: computations, allowsEmpty: true)
        let operand = try context.input(0)
        let indices = try context.input(1)
        let updates = try context.input(2)
        let output = try context.output(0)
        guard output.type == operand.type, updates.type == operand.type,
            let combine = ScatterCombine(operation, operand.type)
        else { throw context.unsupportedTypes() }
        guard indices.type == .int32 || indices.type == .int64 else { throw context.unsupportedTypes() }
        let plan = try ScatterPlan(operand: operand.shape, indices: indices.shape, updates: updates.shape, options: o)
        try context.setOutputShape(0, operand.shape)
        context.allowOutputToShareInput(0)
        context.declareWork([plan.updateCount, plan.vectorLength + plan.operandShape.count])
        return StableHLOScatterKernel(
            operand: operand.index, indices: indices.index, updates: updates.index, output: output.index, plan: plan,
            combine: combine, wideIndices: indices.type == .int64,
            targets: context.requestScratch(
                bytes: Swift.min(ScatterPlan.chunk, plan.updateCount) * MemoryLayout<Int>.stride))
    }
}

/// The validated geometry of a scatter: how each update element finds its target.
struct ScatterPlan: Hashable, Sendable {
    /// Update elements whose targets are computed at a time (the scratch holds one chunk).
    static let chunk = 4096

    let operandShape: [Int], operandStrides: [Int]
    let updatesShape: [Int]
    let updateCount: Int
    /// Per updates dimension: the operand dimension it offsets (a window dimension), or
    /// nil (a scatter dimension).
    let windowTarget: [Int?]
    /// Per updates dimension: the element stride of its index in the indices tensor
    /// (scatter dimensions; 0 for window dimensions).
    let indexStride: [Int]
    /// Index-vector length, the stride between its elements, and the operand dimension
    /// each element starts.
    let vectorLength: Int, vectorStride: Int
    let startTarget: [Int]

    init(operand: [Int], indices: [Int], updates: [Int], options o: StablehloScatterOptions) throws(KernelError) {
        let rank = operand.count
        func dims(_ list: [Int64], _ role: String, below limit: Int, ascending: Bool) throws(KernelError) -> [Int] {
            var out: [Int] = []
            for v in list {
                guard v >= 0, v < Int64(limit) else {
                    throw .invalid("\(role) value \(v) is out of range 0..<\(limit)")
                }
                guard !out.contains(Int(v)) else { throw .invalid("\(role) repeats \(v)") }
                guard !ascending || out.last.map({ $0 < Int(v) }) ?? true else {
                    throw .invalid("\(role) \(list) is not in ascending order")
                }
                out.append(Int(v))
            }
            return out
        }
        let windowDims = try dims(o.updateWindowDims, "update_window_dims", below: updates.count, ascending: true)
        let inserted = try dims(o.insertedWindowDims, "inserted_window_dims", below: rank, ascending: true)
        let toOperand = try dims(
            o.scatterDimsToOperandDims, "scatter_dims_to_operand_dims", below: rank, ascending: false)
        guard windowDims.count + inserted.count == rank else {
            throw .invalid(
                "update_window_dims (\(windowDims.count)) and inserted_window_dims (\(inserted.count)) must together count the operand's rank \(rank)"
            )
        }
        guard o.indexVectorDim >= 0, o.indexVectorDim <= Int64(indices.count) else {
            throw .invalid("index_vector_dim \(o.indexVectorDim) is out of range 0...\(indices.count)")
        }
        let vectorDim = Int(o.indexVectorDim)
        let vectorLength = vectorDim == indices.count ? 1 : indices[vectorDim]
        guard vectorLength == toOperand.count else {
            throw .invalid(
                "the index vectors hold \(vectorLength) values but scatter_dims_to_operand_dims has \(toOperand.count)")
        }
        var indexStrides = [Int](repeating: 1, count: indices.count)
        for d in stride(from: indices.count - 2, through: 0, by: -1) {
            indexStrides[d] = indexStrides[d + 1] * indices[d + 1]
        }
        let batchDims = (0 ..< indices.count).filter { $0 != vectorDim }
        let scatterDims = (0 ..< updates.count).filter { !windowDims.contains($0) }
        guard scatterDims.map({ updates[$0] }) == batchDims.map({ indices[$0] }) else {
            throw .invalid(
                "the updates' scatter dimensions \(scatterDims.map { updates[$0] }) differ from the indices' batch dimensions \(batchDims.map { indices[$0] })"
            )
        }
        let windowOperandDims = (0 ..< rank).filter { !inserted.contains($0) }
        var windowTarget = [Int?](repeating: nil, count: updates.count)
        var indexStride = [Int](repeating: 0, count: updates.count)
        for (j, d) in windowDims.enumerated() { windowTarget[d] = windowOperandDims[j] }
        for (j, d) in scatterDims.enumerated() { indexStride[d] = indexStrides[batchDims[j]] }
        var strides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * operand[d + 1] }
        operandShape = operand
        operandStrides = strides
        updatesShape = updates
        updateCount = updates.reduce(1, *)
        self.windowTarget = windowTarget
        self.indexStride = indexStride
        self.vectorLength = vectorLength
        vectorStride = vectorDim == indices.count ? 0 : indexStrides[vectorDim]
        startTarget = toOperand
    }
}
