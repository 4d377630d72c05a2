import Microkernels

/// Constant weights of the LSTM kernels, concatenated per gate at prepare so that one
/// matrix product computes every gate: rows `[gate 0's nCell rows | gate 1's | ...]`.
enum LSTMPacking {
    /// Floats of `tensors` (each `[rows, depth]`, constant) stacked into one `[Σ rows, depth]`
    /// matrix, row-major, or in the matrix-vector microkernel's layout (`GemvF32Layout`)
    /// when `gemv`.
    static func floats(
        _ context: PrepareContext, _ tensors: [TensorState], rows: Int, depth: Int, gemv: Bool
    ) throws(KernelError) -> PackedBuffer {
        let sources = try constantFloats(tensors, count: try ConvCheck.product([rows, depth], "LSTM weights"))
        let total = try ConvCheck.product([sources.count, rows], "LSTM weights")
        let count: Int
        if gemv {
            guard let packed = GemvF32Layout.packedCount(n: total, k: depth) else {
                throw .invalid("LSTM packed weights overflow")
            }
            count = packed
        } else {
            count = try ConvCheck.product([total, depth], "LSTM weights")
        }
        let bytes = try ConvCheck.product([Swift.max(count, 1), MemoryLayout<Float>.stride], "LSTM weights")
        return try context.pack(bytes: bytes) { raw in
            let out = raw.bindMemory(to: Float.self, capacity: Swift.max(count, 1))
            let plain = UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(total * depth, 1))
            defer { plain.deallocate() }
            for (g, source) in sources.enumerated() {
                guard let base = source.baseAddress else { continue }
                (plain + g * rows * depth).update(from: base, count: rows * depth)
            }
            if gemv {
                GemvF32Layout.pack(weights: plain, n: total, k: depth, into: out)
            } else {
                out.update(from: plain, count: total * depth)
            }
            return 0
        }
    }

    /// Bytes of `tensors` (each `count` elements of `T`, constant) stacked in order.
    static func stacked<T>(
        _ context: PrepareContext, _ tensors: [TensorState], count: Int, as _: T.Type
    ) throws(KernelError) -> PackedBuffer {
        var sources: [UnsafeBufferPointer<T>] = []
        for t in tensors {
            guard let c = t.constant else { throw .invalid("LSTM weights must be constant (tensor \(t.index))") }
            let values = c.typed(T.self)
            guard values.count >= count else {
                throw .invalid("tensor \(t.index) holds \(values.count) values; \(count) needed")
            }
            sources.append(values)
        }
        let total = try ConvCheck.product([sources.count, count], "LSTM weights")
        let bytes = try ConvCheck.product([Swift.max(total, 1), MemoryLayout<T>.stride], "LSTM weights")
        return try context.pack(bytes: bytes) { raw in
            let out = raw.bindMemory(to: T.self, capacity: Swift.max(total, 1))
            for (g, source) in sources.enumerated() {
                guard let base = source.baseAddress else { continue }
                (out + g * count).update(from: base, count: count)
            }
            return 0
        }
    }

    static func constantFloats(_ tensors: [TensorState], count: Int) throws(KernelError) -> [UnsafeBufferPointer<Float>]
    {
        var sources: [UnsafeBufferPointer<Float>] = []
        for t in tensors {
            guard t.type == .float32 else {
                throw .types("LSTM weights of type \(t.type) with float weights elsewhere")
            }
            guard let c = t.constant else { throw .invalid("LSTM weights must be constant (tensor \(t.index))") }
            let values = c.typed(Float.self)
            guard values.count >= count else {
                throw .invalid("tensor \(t.index) holds \(values.count) values; \(count) needed")
            }
            sources.append(values)
        }
        return sources
    }
}

/// How one LSTM direction walks its sequence: row `(t, b)` of the input and of the
/// output (`[time, batch, ·]` when time-major, `[batch, time, ·]` otherwise).
struct LSTMSequence: Sendable {
    let maxTime: Int, nBatch: Int
    let timeMajor: Bool
    /// Backward directions visit the times from last to first.
    let forward: Bool

    @inline(__always)
    func row(time t: Int, batch b: Int) -> Int { timeMajor ? t * nBatch + b : b * maxTime + t }

    @inline(__always)
    func time(step: Int) -> Int { forward ? step : maxTime - 1 - step }
}
