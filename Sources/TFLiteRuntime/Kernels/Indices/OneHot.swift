import TFLiteModel

/// ONE_HOT: `indices` (INT32 or INT64, any shape) gain a new axis of size `depth`;
/// `out[..., j, ...] = (indices[...] == j) ? on_value : off_value`.
///
/// - `axis` (options) places the new axis; -1 means last, any other value must lie in
///   `0...rank(indices)` (TFLite accepts no other negative axis).
/// - `depth` (input 1) is a one-element INT32 tensor and must be ≥ 0. When it is computed
///   at run time the output shape is known only at invoke (``DynamicShapeKernel``).
/// - `on_value` and `off_value` (inputs 2 and 3) are one-element tensors of the output's
///   type: float32, int32, int64, int8, uint8 or bool. Their bytes are copied, so quantized
///   values keep their codes.
/// - An int64 index is compared after truncation to 32 bits, as TFLite's kernel does; an
///   index outside `0..<depth` selects nothing, so its row is all `off_value`.
enum OneHotKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 4, outputs: 1)
        let indices = try context.input(0)
        let depth = try context.input(1)
        let on = try context.input(2)
        let off = try context.input(3)
        // TFLite gives the output the values' type at prepare.
        try context.deriveOutputType(0, on.type)
        let output = try context.output(0)
        let size: Int
        switch on.type {
        case .float32, .int32: size = 4
        case .int64: size = 8
        case .int8, .uint8, .bool: size = 1
        default: throw context.unsupportedTypes()
        }
        guard off.type == on.type, indices.type == .int32 || indices.type == .int64, depth.type == .int32 else {
            throw context.unsupportedTypes()
        }
        guard depth.elementCount == 1, on.elementCount == 1, off.elementCount == 1 else {
            throw .invalid(
                "depth, on_value and off_value must hold one element each, found shapes \(depth.shape), \(on.shape), \(off.shape)"
            )
        }
        // Without an options table TFLite's parameters are zeroed: axis 0.
        var axis = 0
        if case .oneHot(let a) = context.op.options { axis = a }
        let newAxis = axis == -1 ? indices.rank : axis
        guard newAxis >= 0, newAxis <= indices.rank else {
            throw .invalid(
                "axis \(axis) is out of range for indices of rank \(indices.rank) (expected -1...\(indices.rank))")
        }
        try ShapeSupport.requireRank(indices.shape + [0], role: "the output")
        let prefix = try ShapeSupport.product(indices.shape[..<newAxis], role: "the dimensions before the axis")
        let kernel = OneHot(
            indices: indices.index, depthTensor: depth.index, on: on.index, off: off.index, output: output.index,
            wideIndices: indices.type == .int64, elementSize: size, shape: indices.shape, axis: newAxis,
            prefix: prefix, suffix: prefix == 0 ? 0 : indices.elementCount / prefix)
        guard let constant = depth.constant else { return OneHotDynamic(oneHot: kernel) }
        guard let value = constant.typed(Int32.self).first else { throw .invalid("the constant depth holds no value") }
        try context.setOutputShape(0, try kernel.outputShape(depth: Int(value)))
        return kernel
    }
}

/// ONE_HOT with its depth read from the depth tensor at invoke; see ``OneHotKernel``.
struct OneHot: PreparedKernel {
    let indices: Int
    let depthTensor: Int
    let on: Int
    let off: Int
    let output: Int
    let wideIndices: Bool
    let elementSize: Int
    /// The indices' shape and the position of the new axis in the output.
    let shape: [Int]
    let axis: Int
    /// Indices before the axis (rows) and after it (columns): the output is
    /// `[prefix, depth, suffix]` in row-major order.
    let prefix: Int
    let suffix: Int

    /// The output shape for `depth`, or an error naming a negative depth.
    func outputShape(depth: Int) throws(KernelError) -> [Int] {
        guard depth >= 0 else { throw .invalid("depth is \(depth); it must be 0 or more") }
        return Array(shape[..<axis]) + [depth] + Array(shape[axis...])
    }

    func depth(_ context: EvalContext) -> Int {
        Int(context.pointer(depthTensor, as: Int32.self).pointee)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let depth = self.depth(context)
        guard depth > 0, prefix > 0, suffix > 0 else { return }
        switch elementSize {
        case 1: fill(context, depth, UInt8.self)
        case 4: fill(context, depth, UInt32.self)
        default: fill(context, depth, UInt64.self)
        }
    }

    /// Every output element set to `off`, then `on` where the index names the row's position.
    @inline(__always)
    private func fill<T>(_ context: EvalContext, _ depth: Int, _: T.Type) {
        let y = context.pointer(output, as: T.self)
        let onValue = context.pointer(on, as: T.self).pointee
        let offValue = context.pointer(off, as: T.self).pointee
        let x = UnsafeRawPointer(context.raw(indices))
        let wide = wideIndices, suffix = self.suffix
        let rowCount = depth * suffix
        context.parallel.forEachChunk(prefix, cost: rowCount * MemoryLayout<T>.stride) { range in
            for i in range {
                let row = y + i * rowCount
                row.update(repeating: offValue, count: rowCount)
                for k in 0 ..< suffix {
                    let p = i * suffix + k
                    let j =
                        wide
                        ? Int(Int32(truncatingIfNeeded: x.load(fromByteOffset: 8 * p, as: Int64.self)))
                        : Int(x.load(fromByteOffset: 4 * p, as: Int32.self))
                    if j >= 0 && j < depth { row[j * suffix + k] = onValue }
                }
            }
        }
    }
}

/// ONE_HOT whose depth is computed at run time: the output shape is resolved at invoke.
struct OneHotDynamic: DynamicShapeKernel {
    let oneHot: OneHot

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [try oneHot.outputShape(depth: oneHot.depth(context))]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try oneHot.eval(context)
    }
}
