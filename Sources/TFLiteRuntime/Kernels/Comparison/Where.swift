import TFLiteModel

/// WHERE with one input: the coordinates of the input's true (nonzero) elements. The
/// output is int64 of shape `[n, rank]`, where `n` counts the true elements; row `k` holds
/// the row-major multi-index of the `k`-th true element, so rows come in row-major order.
///
/// "True" means nonzero: any nonzero byte for bool, int8 and uint8 (codes, not dequantized
/// values), a nonzero value for int32, uint32 and int64, and `x != 0` for float32, so NaN
/// is true and `-0.0` is false. The input must have rank 1 or more.
///
/// `n` depends on the input's values. A constant input (or an empty one) fixes it at
/// prepare; otherwise the kernel is a ``DynamicShapeKernel`` and the engine asks for `n`
/// at invoke.
enum WhereKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let truth: WhereTruth
        switch input.type {
        case .bool, .int8, .uint8: truth = .nonzero8
        case .int32, .uint32: truth = .nonzero32
        case .int64: truth = .nonzero64
        case .float32: truth = .float32
        default:
            throw .types(
                "the condition has type \(input.type.name); WHERE takes BOOL, FLOAT32, INT32, UINT32, INT64, INT8 or UINT8"
            )
        }
        guard input.rank >= 1 else { throw .invalid("the condition is a scalar; WHERE needs rank 1 or more") }
        guard let count = Shape.elementCount(input.shape) else {
            throw .invalid("the condition shape \(input.shape) is invalid")
        }
        // TFLite sets the output type at prepare (spec/derived-output-types.md).
        try context.deriveOutputType(0, .int64)
        let output = try context.output(0)
        // Partial products of an empty shape can overflow ([0, 2^40, 2^40]); its strides are never used.
        let strides = count > 0 ? ShapeSupport.strides(input.shape) : [Int](repeating: 1, count: input.rank)
        let kernel = WhereCoordinates(
            truth: truth, input: input.index, output: output.index, count: count, strides: strides)
        if let constant = input.constant {
            // A sparse constant stores fewer bytes than its dense shape (DENSIFY expands it).
            guard input.sparsity == nil, let bytes = input.byteCount, constant.bytes.count >= bytes else {
                throw .invalid("the constant condition is sparse or holds fewer bytes than its shape \(input.shape)")
            }
            let n = constant.bytes.baseAddress.map { kernel.trueCount(at: $0) } ?? 0
            try context.setOutputShape(0, [n, input.rank])
            return kernel
        }
        if count == 0 {
            try context.setOutputShape(0, [0, input.rank])
            return kernel
        }
        return WhereDynamic(coordinates: kernel)
    }
}

/// How WHERE reads an element as true or false.
enum WhereTruth: Sendable {
    /// One byte, true unless all bits are zero (bool, int8, uint8).
    case nonzero8
    /// Four bytes, true unless zero (int32, uint32).
    case nonzero32
    /// Eight bytes, true unless zero (int64).
    case nonzero64
    /// float32 compared with zero: NaN is true, both zeros false.
    case float32
}

/// WHERE with its output shape fixed at prepare (constant or empty input): writes the
/// coordinates of the true elements.
struct WhereCoordinates: PreparedKernel {
    let truth: WhereTruth
    let input: Int
    let output: Int
    /// Elements of the input.
    let count: Int
    /// Row-major strides of the input, in elements.
    let strides: [Int]

    func eval(_ context: EvalContext) throws(KernelError) {
        let source = UnsafeRawPointer(context.raw(input))
        let destination = context.pointer(output, as: Int64.self)
        switch truth {
        case .nonzero8: write(source.assumingMemoryBound(to: UInt8.self), destination) { $0 != 0 }
        case .nonzero32: write(source.assumingMemoryBound(to: UInt32.self), destination) { $0 != 0 }
        case .nonzero64: write(source.assumingMemoryBound(to: UInt64.self), destination) { $0 != 0 }
        case .float32: write(source.assumingMemoryBound(to: Float.self), destination) { $0 != 0 }
        }
    }

    /// The number of true elements of the input at `base`.
    func trueCount(at base: UnsafeRawPointer) -> Int {
        switch truth {
        case .nonzero8: count(base.assumingMemoryBound(to: UInt8.self)) { $0 != 0 }
        case .nonzero32: count(base.assumingMemoryBound(to: UInt32.self)) { $0 != 0 }
        case .nonzero64: count(base.assumingMemoryBound(to: UInt64.self)) { $0 != 0 }
        case .float32: count(base.assumingMemoryBound(to: Float.self)) { $0 != 0 }
        }
    }

    @inline(__always)
    private func count<T>(_ values: UnsafePointer<T>, _ isTrue: (T) -> Bool) -> Int {
        var n = 0
        for i in 0 ..< count where isTrue(values[i]) { n += 1 }
        return n
    }

    /// Writes one row per true element: its flat index split by the strides.
    @inline(__always)
    private func write<T>(_ values: UnsafePointer<T>, _ rows: UnsafeMutablePointer<Int64>, _ isTrue: (T) -> Bool) {
        var next = rows
        for i in 0 ..< count where isTrue(values[i]) {
            var rest = i
            for stride in strides {
                next.pointee = Int64(rest / stride)
                rest %= stride
                next += 1
            }
        }
    }
}

/// WHERE of an input computed at run time: the engine reads the row count from
/// ``outputShapes(_:)``, gives the output that much memory, then calls `eval`, which
/// writes exactly those rows since the input has not changed in between.
struct WhereDynamic: DynamicShapeKernel {
    let coordinates: WhereCoordinates

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [[coordinates.trueCount(at: UnsafeRawPointer(context.raw(coordinates.input))), coordinates.strides.count]]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try coordinates.eval(context)
    }
}
