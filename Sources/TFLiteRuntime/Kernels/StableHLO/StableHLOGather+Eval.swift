import TFLiteModel

struct StableHLOGatherKernel: PreparedKernel {
    let operand: Int, indices: Int, output: Int
    let plan: GatherPlan
    let elementSize: Int
    let wideIndices: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        switch elementSize {
        case 1: gather(context, UInt8.self)
        case 2: gather(context, UInt16.self)
        case 4: gather(context, UInt32.self)
        default: gather(context, UInt64.self)
        }
    }

    /// For each batch position: the clamped start, then every element of the slice.
    @inline(__always)
    private func gather<T>(_ context: EvalContext, _: T.Type) {
        let p = plan
        let x = UnsafePointer(context.pointer(operand, as: T.self))
        let y = context.pointer(output, as: T.self)
        let rawIndices = UnsafeRawPointer(context.raw(indices))
        let rank = p.operandShape.count
        var operandStrides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) {
            operandStrides[d] = operandStrides[d + 1] * p.operandShape[d + 1]
        }
        var outputStrides = [Int](repeating: 1, count: p.outputShape.count)
        for d in stride(from: p.outputShape.count - 2, through: 0, by: -1) {
            outputStrides[d] = outputStrides[d + 1] * p.outputShape[d + 1]
        }
        let batches = p.batchShape.reduce(1, *)
        let sliceCount = p.keptSliceDims.reduce(1) { $0 * p.sliceSizes[$1] }
        guard batches > 0, sliceCount > 0, p.outputShape.reduce(1, *) > 0 else { return }
        let wide = wideIndices
        context.parallel.forEachChunk(batches, cost: sliceCount) { range in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(rank, 1)) { start in
                for batch in range {
                    // Decompose the batch position; find its index vector and output base.
                    var rest = batch, indexBase = 0, outBase = 0
                    for d in stride(from: p.batchShape.count - 1, through: 0, by: -1) {
                        let i = rest % p.batchShape[d]
                        rest /= p.batchShape[d]
                        indexBase += i * p.batchStrides[d]
                        outBase += i * outputStrides[p.batchPositions[d]]
                    }
                    for d in 0 ..< rank { start[d] = 0 }
                    for k in 0 ..< p.vectorLength {
                        let at = indexBase + k * p.vectorStride
                        let v =
                            wide
                            ? Int(rawIndices.load(fromByteOffset: 8 * at, as: Int64.self))
                            : Int(rawIndices.load(fromByteOffset: 4 * at, as: Int32.self))
                        let d = p.startIndexMap[k]
                        start[d] = Swift.max(0, Swift.min(v, p.operandShape[d] - p.sliceSizes[d]))
                    }
                    var inBase = 0
                    for d in 0 ..< rank { inBase += start[d] * operandStrides[d] }
                    for e in 0 ..< sliceCount {
                        var rest = e, inAt = inBase, outAt = outBase
                        for j in stride(from: p.keptSliceDims.count - 1, through: 0, by: -1) {
                            let d = p.keptSliceDims[j]
                            let i = rest % p.sliceSizes[d]
                            rest /= p.sliceSizes[d]
                            inAt += i * operandStrides[d]
                            outAt += i * outputStrides[p.offsetPositions[j]]
                        }
                        y[outAt] = x[inAt]
                    }
                }
            }
        }
    }
}
