import TFLiteModel

/// Shared validation for the data-movement kernels. These kernels never look at values,
/// only at bytes, so they accept every type with a fixed element size and require the
/// input and output types to match.
enum ShapeSupport {
    /// Highest rank a data-movement output may have (the runtime's rank cap).
    static let maxRank = 8

    /// Element size of `tensor`, or an unsupported-types error for strings and other
    /// types whose storage size does not follow from the shape.
    static func elementSize(_ tensor: TensorState, _ context: PrepareContext) throws(KernelError) -> Int {
        guard let size = tensor.type.byteSize else { throw context.unsupportedTypes() }
        return size
    }

    /// Requires `input` and `output` to have the same fixed-size type; returns its size.
    static func sameType(_ input: TensorState, _ output: TensorState, _ context: PrepareContext) throws(KernelError)
        -> Int
    {
        guard input.type == output.type else { throw context.unsupportedTypes() }
        return try elementSize(input, context)
    }

    /// The values of an int32 or int64 tensor that must be known at prepare (a model
    /// constant or a folded result). `role` names the input in messages.
    static func constantIntegers(_ tensor: TensorState, role: String) throws(KernelError) -> [Int] {
        guard let data = tensor.constant else {
            throw .valueNeeded(
                tensor: tensor.index,
                "the \(role) tensor (tensor \(tensor.index)) is needed at prepare and is only known at run time")
        }
        let count = tensor.elementCount
        switch tensor.type {
        case .int32:
            let values = data.typed(Int32.self)
            guard values.count >= count else {
                throw .invalid("the \(role) tensor holds fewer bytes than its shape \(tensor.shape) needs")
            }
            return (0 ..< count).map { Int(values[$0]) }
        case .int64:
            let values = data.typed(Int64.self)
            guard values.count >= count else {
                throw .invalid("the \(role) tensor holds fewer bytes than its shape \(tensor.shape) needs")
            }
            return (0 ..< count).map { Int(values[$0]) }
        default:
            throw .types("the \(role) tensor has type \(tensor.type); expected INT32 or INT64")
        }
    }

    /// The product of `dims` with overflow checks. A file's shape is validated as a whole
    /// (a zero anywhere makes its product 0), so a product of some of its dimensions, e.g.
    /// those after an axis of `[0, 2^40, 2^40]`, can still overflow; `role` names them.
    static func product(_ dims: ArraySlice<Int>, role: String) throws(KernelError) -> Int {
        guard let n = Shape.elementCount(Array(dims)) else {
            throw .invalid("\(role) \(Array(dims)) hold too many elements")
        }
        return n
    }

    /// `axis` made non-negative for a dimension count of `rank` (negative counts from
    /// the end), or an error naming the valid range.
    static func normalizedAxis(_ axis: Int, rank: Int, role: String = "axis") throws(KernelError) -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < rank else {
            throw .invalid("\(role) \(axis) is out of range for rank \(rank) (expected \(-rank)..<\(rank))")
        }
        return a
    }

    /// Row-major strides, in elements, of `shape`.
    static func strides(_ shape: [Int]) -> [Int] {
        var result = [Int](repeating: 1, count: shape.count)
        var s = 1
        for d in shape.indices.reversed() {
            result[d] = s
            s *= shape[d]
        }
        return result
    }

    /// Requires every per-tensor quantization in `inputs` to equal the output's (scale
    /// and zero point), for ops that copy codes without requantizing.
    static func requireSameQuantization(_ inputs: [TensorState], output: TensorState) throws(KernelError) {
        for t in inputs where !sameQuantization(t, output) {
            throw .invalid(
                "input tensor \(t.index) is quantized with scale \(t.scale ?? 0), zero point \(t.zeroPoint ?? 0) but the output uses scale \(output.scale ?? 0), zero point \(output.zeroPoint ?? 0); inputs must be quantized like the output here, as in TFLite"
            )
        }
    }

    static func sameQuantization(_ a: TensorState, _ b: TensorState) -> Bool {
        let qa = a.quantization.map { ($0.scales, $0.zeroPoints) }
        let qb = b.quantization.map { ($0.scales, $0.zeroPoints) }
        switch (qa, qb) {
        case (nil, nil): return true
        case (let x?, let y?): return x.0 == y.0 && x.1 == y.1
        default:
            // One side unquantized: only equal if the other is the identity mapping.
            let q = qa ?? qb
            return q.map { $0.0.allSatisfy { $0 == 1 } && $0.1.allSatisfy { $0 == 0 } } ?? true
        }
    }

    static func requireRank(_ shape: [Int], max: Int = maxRank, role: String) throws(KernelError) {
        guard shape.count <= max else {
            throw .invalid("\(role) has rank \(shape.count); at most \(max) is supported")
        }
    }
}

extension PrepareContext {
    /// Makes output `i` a constant holding `bytes`, for outputs that depend only on
    /// shapes (SHAPE): later operators then see a constant and fold in turn, as the
    /// engine does for operators whose inputs are all constant. Returns false (leaving
    /// the output to the arena) for variables.
    mutating func setOutputConstant(_ i: Int, bytes: [UInt8]) throws(KernelError) -> Bool {
        let t = try outputIndex(i)
        guard !tensors[t].isVariable, tensors[t].byteCount == bytes.count else { return false }
        let buffer = bytes.withUnsafeBytes { AlignedBuffer(copying: $0) }
        tensors[t].storage = .constant(ConstantBytes(owned: buffer))
        return true
    }
}
