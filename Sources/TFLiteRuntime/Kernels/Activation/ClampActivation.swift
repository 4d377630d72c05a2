import TFLiteModel

/// RELU, RELU6, RELU_N1_TO_1 and RELU_0_TO_1: `y = min(max(x, lower), upper)` elementwise.
enum ClampActivation {
    static func prepare(lower: Float, upper: Float) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 1, outputs: 1)
            let input = try context.input(0)
            let output = try context.output(0)
            guard input.type == output.type else { throw context.unsupportedTypes() }
            switch input.type {
            case .float32:
                try context.setOutputShape(0, input.shape)
                return ClampF32(
                    input: input.index, output: output.index, count: input.elementCount, lower: lower, upper: upper)
            case .uint8:
                try context.setOutputShape(0, input.shape)
                return try quantized(UInt8.self, input: input, output: output, lower: lower, upper: upper)
            case .int8:
                try context.setOutputShape(0, input.shape)
                return try quantized(Int8.self, input: input, output: output, lower: lower, upper: upper)
            default:
                throw context.unsupportedTypes()
            }
        }
    }
}

/// Float clamp. A plain loop over raw pointers, which the compiler vectorizes.
struct ClampF32: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    let lower: Float
    let upper: Float

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(input, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let lower = self.lower, upper = self.upper
        context.parallel.forEachChunk(count, cost: MemoryLayout<Float>.stride) { range in
            for i in range { y[i] = Swift.min(Swift.max(x[i], lower), upper) }
        }
    }
}
