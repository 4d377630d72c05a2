import TFLiteModel

/// ZEROS_LIKE: zeros of the input's shape and type (float32, int32 or int64).
enum ZerosLikeKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == output.type, [.float32, .int32, .int64].contains(input.type) else {
            throw context.unsupportedTypes()
        }
        try context.setOutputShape(0, input.shape)
        return Zeros(output: output.index, bytes: input.byteCount ?? 0)
    }
}

struct Zeros: PreparedKernel {
    let output: Int
    let bytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        context.raw(output).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }
}
