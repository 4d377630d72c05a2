import TFLiteModel

/// `ExtractFeatures` (TFLite's Smart Reply operator): for each string of a STRING vector, a
/// feature id and a weight. The id is FarmHash's fingerprint of the string (an unsigned
/// 64-bit integer) modulo 1 000 000; the weight is the number of spaces plus one, as float32 (a gram of `k` words
/// weighs `k`). The markers `<S>`, `<E>` and `<S> <E>` get id 0 and weight 0. Outputs have
/// one element per string, and one (0, 0) element when there are none.
enum ExtractFeaturesKernel {
    static let customName = "ExtractFeatures"
    static let dimension: UInt64 = 1_000_000
    static let markers: [[UInt8]] = ["<S>", "<E>", "<S> <E>"].map { Array($0.utf8) }

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 2)
        let input = try context.input(0)
        guard input.type == .string, try context.output(0).type == .int32, try context.output(1).type == .float32
        else { throw context.unsupportedTypes() }
        let count = Swift.max(input.elementCount, 1)
        try context.setOutputShape(0, [count])
        try context.setOutputShape(1, [count])
        return ExtractFeatures(
            input: input.index, ids: try context.outputIndex(0), weights: try context.outputIndex(1))
    }
}

struct ExtractFeatures: PreparedKernel {
    let input: Int
    let ids: Int
    let weights: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let strings = context.strings(input)
        let id = context.pointer(ids, as: Int32.self)
        let weight = context.pointer(weights, as: Float.self)
        if strings.count == 0 {
            id[0] = 0
            weight[0] = 0
        }
        for i in 0 ..< strings.count {
            let s = strings[i]
            if ExtractFeaturesKernel.markers.contains(where: { $0.elementsEqual(s) }) {
                id[i] = 0
                weight[i] = 0
                continue
            }
            id[i] = Int32(truncatingIfNeeded: Fingerprint64.hash(s) % ExtractFeaturesKernel.dimension)
            weight[i] = Float(s.reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) } + 1)
        }
    }
}
