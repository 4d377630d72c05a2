import TFLiteModel

/// FILL: a tensor of shape `dims` (input 0, int32 or int64, constant: the shape must be
/// known at prepare) with every element equal to the scalar `value` (input 1, read at
/// run time). The value's type is the output's; quantized values must share the output's
/// quantization, as in TFLite.
enum FillKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let value = try context.input(1)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(value, output, context)
        guard value.elementCount == 1 else { throw .invalid("the value must be a scalar, found shape \(value.shape)") }
        try ShapeSupport.requireSameQuantization([value], output: output)
        let dims = try ShapeSupport.constantIntegers(try context.input(0), role: "dims")
        guard dims.allSatisfy({ $0 >= 0 }) else { throw .invalid("dims \(dims) has a negative dimension") }
        try ShapeSupport.requireRank(dims, role: "the output")
        try context.setOutputShape(0, dims)
        return Fill(value: value.index, output: output.index, count: dims.reduce(1, *), elementSize: size)
    }
}

struct Fill: PreparedKernel {
    let value: Int
    let output: Int
    let count: Int
    let elementSize: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let src = UnsafeRawPointer(context.raw(value))
        let dst = context.raw(output)
        guard count > 0 else { return }
        dst.copyMemory(from: src, byteCount: elementSize)
        // Doubling copies: the filled prefix is copied after itself.
        var filled = 1
        while filled < count {
            let n = Swift.min(filled, count - filled)
            (dst + filled * elementSize).copyMemory(from: dst, byteCount: n * elementSize)
            filled += n
        }
    }
}
