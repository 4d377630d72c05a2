import TFLiteModel

/// QUANTIZE to uint8/int8, per tensor, as TFLite's reference kernel:
/// - float32 → q: `q = clamp(Int32(round(x / s_y)) + z_y)`, the division in Float and
///   round half away from zero. TFLite leaves out-of-range and NaN conversions
///   undefined; we saturate (±∞ go to the type's bounds) and send NaN to `z_y`.
/// - uint8/int8 → uint8/int8: `q = clamp(MBQM(x − z_x, Double(s_x)/Double(s_y)) + z_y)`,
///   which covers int8 ↔ uint8 with equal scales (zero points 128 apart) exactly.
enum Quantize {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        try context.setOutputShape(0, input.shape)
        func make<Y: QuantizedByte>(_: Y.Type) throws(KernelError) -> any PreparedKernel {
            let qy = try QuantizedOperand(output, role: "output")
            switch input.type {
            case .float32:
                return QuantizeF32(
                    signed: Y.isSigned, input: input.index, output: output.index, count: input.elementCount,
                    quantization: qy)
            case .uint8:
                return try requantize(UInt8.self, Y.self, input: input, output: qy, outputIndex: output.index)
            case .int8:
                return try requantize(Int8.self, Y.self, input: input, output: qy, outputIndex: output.index)
            default:
                throw context.unsupportedTypes()
            }
        }
        switch output.type {
        case .uint8: return try make(UInt8.self)
        case .int8: return try make(Int8.self)
        default: throw context.unsupportedTypes()
        }
    }

    static func requantize<X: QuantizedByte, Y: QuantizedByte>(
        _: X.Type, _: Y.Type, input: TensorState, output: QuantizedOperand,
        outputIndex: Int
    ) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        let multiplier = QuantizedMultiplier(Double(qx.scale) / Double(output.scale))
        guard multiplier.exponent <= 22 else {
            // (x − z_x)·2^e would overflow Int32 (|x − z_x| ≤ 255).
            throw .invalid("input scale \(qx.scale) is too large for output scale \(output.scale)")
        }
        return RequantizeQ8(
            signedInput: X.isSigned, signedOutput: Y.isSigned, input: input.index, output: outputIndex,
            count: input.elementCount, zeroX: qx.zeroPoint, zeroY: output.zeroPoint, multiplier: multiplier)
    }
}

// The code types are stored flags, not generic parameters: the witness of a generic
// kernel's `eval` is the unspecialized body, which clamped and stored each code through
// witnesses; `eval`
// dispatches to the specializations of `run` instead.

struct QuantizeF32: Quantized8Kernel {
    let signed: Bool
    let input: Int
    let output: Int
    let count: Int
    let quantization: QuantizedOperand

    func run<Y: Quantized8>(_ context: EvalContext, _: Y.Type) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Y.self)
        let scale = quantization.scale, zero = quantization.zeroPoint
        // `halfAwayFromZero` saturates at ±(2^22 − 1), far outside the codes, so the clamp
        // gives what the unbounded rounding gave. The loop vectorizes
        // (`rounded(.toNearestOrAwayFromZero)` was a libm call per element).
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
            for i in range { y[i] = Y.clamping(Rounding.halfAwayFromZero(x[i] / scale) &+ zero) }
        }
    }
}

struct RequantizeQ8: PreparedKernel {
    /// int8 (else uint8) input and output codes.
    let signedInput: Bool, signedOutput: Bool
    let input: Int
    let output: Int
    let count: Int
    let zeroX: Int32
    let zeroY: Int32
    let multiplier: QuantizedMultiplier

    func eval(_ context: EvalContext) throws(KernelError) {
        switch (signedInput, signedOutput) {
        case (false, false): run(context, UInt8.self, UInt8.self)
        case (false, true): run(context, UInt8.self, Int8.self)
        case (true, false): run(context, Int8.self, UInt8.self)
        case (true, true): run(context, Int8.self, Int8.self)
        }
    }

    private func run<X: QuantizedByte, Y: QuantizedByte>(_ context: EvalContext, _: X.Type, _: Y.Type) {
        let x = UnsafePointer(context.pointer(input, as: X.self))
        let y = context.pointer(output, as: Y.self)
        let (zeroX, zeroY, multiplier) = (self.zeroX, self.zeroY, self.multiplier)
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
            for i in range { y[i] = Y.clamping(multiplier.apply(x[i].code - zeroX) &+ zeroY) }
        }
    }
}
