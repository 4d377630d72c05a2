import TFLiteModel

/// SHAPE: the input's dimensions as a 1-D INT32 or INT64 tensor (`out_type`, which must
/// match the output tensor's type).
///
/// The result depends only on the input's shape, which is fixed once prepared, so the
/// output becomes a constant right here: shape arithmetic downstream
/// (STRIDED_SLICE → PACK → RESHAPE) then folds at prepare like any constant expression.
enum ShapeKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        // TFLite's SHAPE gives the output the type `out_type` names at prepare (without
        // options, the file's type decides).
        if case .shape(let outType) = context.op.options {
            guard outType == .int32 || outType == .int64 else {
                throw .invalid("out_type \(outType) is not INT32 or INT64")
            }
            try context.deriveOutputType(0, outType)
        }
        let output = try context.output(0)
        var bytes: [UInt8] = []
        switch output.type {
        case .int32:
            guard input.shape.allSatisfy({ $0 <= Int(Int32.max) }) else {
                throw .invalid("the input shape \(input.shape) does not fit in INT32")
            }
            bytes = input.shape.map { Int32($0) }.withUnsafeBytes { Array($0) }
        case .int64:
            bytes = input.shape.map { Int64($0) }.withUnsafeBytes { Array($0) }
        default:
            throw context.unsupportedTypes()
        }
        try context.setOutputShape(0, [input.rank])
        if try context.setOutputConstant(0, bytes: bytes) {
            return NoWorkKernel()
        }
        return ConstantBytesKernel(output: output.index, bytes: bytes)
    }
}

/// An operator whose outputs were all made constant at prepare.
struct NoWorkKernel: PreparedKernel {
    func eval(_ context: EvalContext) throws(KernelError) {}
}

/// Writes bytes computed at prepare into the output.
struct ConstantBytesKernel: PreparedKernel {
    let output: Int
    let bytes: [UInt8]

    func eval(_ context: EvalContext) throws(KernelError) {
        let dst = context.raw(output)
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress, raw.count > 0 { dst.copyMemory(from: base, byteCount: raw.count) }
        }
    }
}
