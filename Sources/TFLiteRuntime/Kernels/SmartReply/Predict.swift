import TFLiteModel

/// `Predict` (TFLite's Smart Reply operator): the replies a set of hash signatures votes
/// for. Input 0 holds the message's int32 signatures; inputs 1-3 the model: sorted int32
/// keys, and per key `items` int32 labels with float32 weights. For each signature found
/// among the keys (binary search: the first key not below it, as `std::lower_bound`), each
/// of its labels gains its weight divided by the number of signatures (summed in float32,
/// signatures in order). The labels are ranked by total, highest first (ties by label, where
/// LiteRT's order is unspecified), and the first `num_output` (custom options: an int32,
/// then the float32 `weight_threshold`) fill the two outputs; a place with no label, or
/// whose total is below the threshold, gets label -1 and weight 0.
enum PredictKernel {
    static let customName = "Predict"

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 4, outputs: 2)
        guard let options = context.op.customOptions?.bytes, options.count == 8 else {
            throw .invalid("its custom options must be 8 bytes (num_output, weight_threshold)")
        }
        let outputs = Int(Int32(littleEndian: options.loadUnaligned(fromByteOffset: 0, as: Int32.self)))
        let threshold = Float(
            bitPattern: UInt32(littleEndian: options.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        guard outputs >= 0 else { throw .invalid("num_output is \(outputs)") }
        let (lookup, keys, labels, weights) = (
            try context.input(0), try context.input(1), try context.input(2), try context.input(3)
        )
        guard lookup.type == .int32, keys.type == .int32, labels.type == .int32, weights.type == .float32,
            try context.output(0).type == .int32, try context.output(1).type == .float32
        else { throw context.unsupportedTypes() }
        guard lookup.rank == 1, keys.rank == 1, labels.rank == 2, weights.rank == 2, labels.shape[0] == keys.shape[0],
            weights.shape == labels.shape
        else {
            throw .invalid(
                "signatures \(lookup.shape), keys \(keys.shape), labels \(labels.shape), weights \(weights.shape): expected [n], [k], [k, m], [k, m]"
            )
        }
        try context.setOutputShape(0, [outputs])
        try context.setOutputShape(1, [outputs])
        context.declareWork([lookup.shape[0], labels.shape[1]])
        return Predict(
            lookup: lookup.index, keys: keys.index, labels: labels.index, weights: weights.index,
            outputLabels: try context.outputIndex(0), outputWeights: try context.outputIndex(1),
            signatures: lookup.shape[0], rows: keys.shape[0], items: labels.shape[1], outputs: outputs,
            threshold: threshold)
    }
}

struct Predict: PreparedKernel {
    let lookup: Int
    let keys: Int
    let labels: Int
    let weights: Int
    let outputLabels: Int
    let outputWeights: Int
    let signatures: Int
    let rows: Int
    let items: Int
    let outputs: Int
    let threshold: Float

    /// The first position whose key is not below `value` (`std::lower_bound`).
    static func lowerBound(_ value: Int32, in keys: UnsafePointer<Int32>, count: Int) -> Int {
        var first = 0
        var remaining = count
        while remaining > 0 {
            let step = remaining / 2
            if keys[first + step] < value {
                first += step + 1
                remaining -= step + 1
            } else {
                remaining = step
            }
        }
        return first
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let signature = context.pointer(lookup, as: Int32.self)
        let key = context.pointer(keys, as: Int32.self)
        let label = context.pointer(labels, as: Int32.self)
        let weight = context.pointer(weights, as: Float.self)
        var totals: [Int32: Float] = [:]
        let divisor = Float(signatures)
        for i in 0 ..< signatures {
            let row = Self.lowerBound(signature[i], in: key, count: rows)
            guard row < rows, key[row] == signature[i] else { continue }
            for j in 0 ..< items {
                totals[label[row * items + j], default: 0] += weight[row * items + j] / divisor
            }
        }
        let ranked = totals.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        let outLabels = context.pointer(outputLabels, as: Int32.self)
        let outWeights = context.pointer(outputWeights, as: Float.self)
        for i in 0 ..< outputs {
            if i < ranked.count, !(ranked[i].value < threshold) {
                outLabels[i] = ranked[i].key
                outWeights[i] = ranked[i].value
            } else {
                outLabels[i] = -1
                outWeights[i] = 0
            }
        }
    }
}
