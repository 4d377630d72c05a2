import TFLiteModel

/// REVERSE_SEQUENCE: for each index `b` along `batch_dim`, reverses the first
/// `seq_lengths[b]` elements along `seq_dim` and copies the rest unchanged.
///
/// `seq_lengths` (input 1, INT32 or INT64, one per batch entry) is read at run time; a
/// length of 0 or less reverses nothing, and a length past the `seq_dim` size is an error
/// at invoke (TFLite checks only the first length). Types as TFLite's kernel: float32,
/// uint8, int16, int32, int64; codes are copied, never requantized.
enum ReverseSequenceKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let lengths = try context.input(1)
        let output = try context.output(0)
        guard input.type == output.type else { throw context.unsupportedTypes() }
        let size: Int
        switch input.type {
        case .float32, .int32: size = 4
        case .uint8: size = 1
        case .int16: size = 2
        case .int64: size = 8
        default: throw context.unsupportedTypes()
        }
        guard lengths.type == .int32 || lengths.type == .int64 else { throw context.unsupportedTypes() }
        guard case .reverseSequence(let seqAxis, let batchAxis) = context.op.options else {
            throw .invalid("ReverseSequenceOptions are missing")
        }
        guard seqAxis >= 0, seqAxis < input.rank, batchAxis >= 0, batchAxis < input.rank, seqAxis != batchAxis else {
            throw .invalid(
                "seq_dim \(seqAxis) and batch_dim \(batchAxis) must be different axes in 0..<\(input.rank)")
        }
        guard lengths.rank == 1, lengths.shape[0] == input.shape[batchAxis] else {
            throw .invalid(
                "seq_lengths has shape \(lengths.shape); it must be [\(input.shape[batchAxis])], one length per entry of batch_dim \(batchAxis)"
            )
        }
        try context.setOutputShape(0, input.shape)
        let first = Swift.min(seqAxis, batchAxis), second = Swift.max(seqAxis, batchAxis)
        return ReverseSequence(
            input: input.index, lengths: lengths.index, output: output.index, wideLengths: lengths.type == .int64,
            outer: try ShapeSupport.product(input.shape[..<first], role: "the dimensions before \(first)"),
            firstSize: input.shape[first],
            middle: try ShapeSupport.product(input.shape[(first + 1) ..< second], role: "the middle dimensions"),
            secondSize: input.shape[second],
            innerBytes: try ShapeSupport.product(input.shape[(second + 1)...], role: "the inner dimensions") * size,
            sequenceFirst: seqAxis == first)
    }
}

/// The input viewed as `[outer, firstSize, middle, secondSize, inner]`, where `first` and
/// `second` are the sequence and batch axes in order. Each run of `innerBytes` moves whole.
struct ReverseSequence: PreparedKernel {
    let input: Int
    let lengths: Int
    let output: Int
    let wideLengths: Bool
    let outer: Int
    let firstSize: Int
    let middle: Int
    let secondSize: Int
    let innerBytes: Int
    /// The sequence axis is the first of the two (else the batch axis is).
    let sequenceFirst: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        let l = UnsafeRawPointer(context.raw(lengths))
        let batches = sequenceFirst ? secondSize : firstSize
        let sequence = sequenceFirst ? firstSize : secondSize
        for b in 0 ..< batches {
            let n = length(l, b)
            guard n <= sequence else {
                throw .invalid("seq_lengths[\(b)] is \(n), longer than the sequence dimension (\(sequence))")
            }
        }
        let x = UnsafeRawPointer(context.raw(input))
        let y = context.raw(output)
        let firstSize = self.firstSize, middle = self.middle, secondSize = self.secondSize
        let innerBytes = self.innerBytes, sequenceFirst = self.sequenceFirst
        context.parallel.forEachChunk(outer * firstSize, cost: middle * secondSize * innerBytes) { range in
            for row in range {
                let o = row / firstSize, p = row % firstSize
                for m in 0 ..< middle {
                    for q in 0 ..< secondSize {
                        let (s, b) = sequenceFirst ? (p, q) : (q, p)
                        let n = length(l, b)
                        let t = s < n ? n - 1 - s : s
                        let (tp, tq) = sequenceFirst ? (t, q) : (p, t)
                        let from = (((o * firstSize + p) * middle + m) * secondSize + q) * innerBytes
                        let to = (((o * firstSize + tp) * middle + m) * secondSize + tq) * innerBytes
                        (y + to).copyMemory(from: x + from, byteCount: innerBytes)
                    }
                }
            }
        }
    }

    @inline(__always)
    private func length(_ l: UnsafeRawPointer, _ b: Int) -> Int {
        wideLengths
            ? Int(l.load(fromByteOffset: 8 * b, as: Int64.self))
            : Int(l.load(fromByteOffset: 4 * b, as: Int32.self))
    }
}
