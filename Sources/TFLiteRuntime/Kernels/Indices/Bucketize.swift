import TFLiteModel

/// BUCKETIZE: for each input element `x`, the number of leading `boundaries` (options) that
/// `x` is not below: `out = upper_bound(boundaries, x)`, an INT32 tensor of the input's
/// shape. With boundaries `[0, 10]`, `-1 → 0`, `0 → 1`, `5 → 1`, `10 → 2`.
///
/// The comparison is `x < boundary` in the input's type after C++'s conversions: float64
/// inputs compare with the boundaries widened to double; int32 and int64 inputs are
/// converted to float32 first (rounded to nearest), as TFLite's kernel does. The search is
/// the standard binary search for the upper bound, so a NaN input lands past every
/// boundary. The boundaries must be sorted (no boundary below its predecessor), else the
/// operator is rejected at prepare, as in TFLite.
enum BucketizeKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        try context.deriveOutputType(0, .int32)
        let output = try context.output(0)
        let element: BucketizeElement
        switch input.type {
        case .float32: element = .float32
        case .float64: element = .float64
        case .int32: element = .int32
        case .int64: element = .int64
        default: throw context.unsupportedTypes()
        }
        var boundaries: [Float] = []
        if case .bucketize(let b) = context.op.options { boundaries = b }
        for i in boundaries.indices.dropFirst() where boundaries[i] < boundaries[i - 1] {
            throw .invalid("the boundaries must be sorted; boundary \(i) (\(boundaries[i])) is below its predecessor")
        }
        try context.setOutputShape(0, input.shape)
        return Bucketize(
            input: input.index, output: output.index, count: input.elementCount, element: element,
            boundaries: boundaries)
    }
}

enum BucketizeElement: Sendable { case float32, float64, int32, int64 }

struct Bucketize: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    let element: BucketizeElement
    let boundaries: [Float]

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(input))
        let y = context.pointer(output, as: Int32.self)
        let count = self.count, element = self.element
        boundaries.withUnsafeBufferPointer { b in
            context.parallel.forEachChunk(count, cost: 4 * (b.count.bitWidth - b.count.leadingZeroBitCount + 1)) {
                range in
                switch element {
                case .float32:
                    for i in range {
                        let v = x.load(fromByteOffset: 4 * i, as: Float.self)
                        y[i] = Self.upperBound(b) { v < $0 }
                    }
                case .float64:
                    for i in range {
                        let v = x.load(fromByteOffset: 8 * i, as: Double.self)
                        y[i] = Self.upperBound(b) { v < Double($0) }
                    }
                case .int32:
                    for i in range {
                        let v = Float(x.load(fromByteOffset: 4 * i, as: Int32.self))
                        y[i] = Self.upperBound(b) { v < $0 }
                    }
                case .int64:
                    for i in range {
                        let v = Float(x.load(fromByteOffset: 8 * i, as: Int64.self))
                        y[i] = Self.upperBound(b) { v < $0 }
                    }
                }
            }
        }
    }

    /// The first position whose boundary `x` is below (`below(boundary)`), by halving the
    /// range as `std::upper_bound` does, so the result is the same even for unsorted
    /// (NaN) boundaries.
    @inline(__always)
    static func upperBound(_ b: UnsafeBufferPointer<Float>, _ below: (Float) -> Bool) -> Int32 {
        var first = 0, length = b.count
        while length > 0 {
            let half = length >> 1
            if below(b[first + half]) {
                length = half
            } else {
                first += half + 1
                length -= half + 1
            }
        }
        return Int32(truncatingIfNeeded: first)
    }
}
