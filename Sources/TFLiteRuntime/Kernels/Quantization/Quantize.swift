import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

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
                    quantization: qy, level: context.kernelLevel)
            case .uint8:
                return try requantize(
                    UInt8.self, Y.self, input: input, output: qy, outputIndex: output.index, level: context.kernelLevel)
            case .int8:
                return try requantize(
                    Int8.self, Y.self, input: input, output: qy, outputIndex: output.index, level: context.kernelLevel)
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

    /// The 8-bit to 8-bit form: a function of the input code alone, so a table of the 256
    /// results, which ``LookupTableKernel`` evaluates as one vector pass of 16-bit
    /// multiply-high arithmetic (``AffineByteMap``) where that reproduces it.
    static func requantize<X: QuantizedByte, Y: QuantizedByte>(
        _: X.Type, _: Y.Type, input: TensorState, output: QuantizedOperand,
        outputIndex: Int, level: KernelLevel
    ) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        let multiplier = QuantizedMultiplier(Double(qx.scale) / Double(output.scale))
        guard multiplier.exponent <= 22 else {
            // (x − z_x)·2^e would overflow Int32 (|x − z_x| ≤ 255).
            throw .invalid("input scale \(qx.scale) is too large for output scale \(output.scale)")
        }
        let op = RequantizeClampQ8(
            zeroX: qx.zeroPoint, zeroY: output.zeroPoint, multiplier: multiplier, lower: Y.lowest, upper: Y.highest)
        var table = [UInt8](repeating: 0, count: 256)
        for code in X.lowest ... X.highest {
            table[Int(UInt8(truncatingIfNeeded: code))] = UInt8(truncatingIfNeeded: op.apply(code))
        }
        return LookupTableKernel(
            input: input.index, output: outputIndex, count: input.elementCount, table: table, level: level,
            linear: .init(
                signed: X.isSigned, zeroX: qx.zeroPoint, lower: Y.lowest, upper: Y.highest, slope: multiplier.real))
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
    /// At `avx2` and up, with a scale whose reciprocal is a normal float: the AVX2 kernel
    /// (`quantizeF32AVX2`, the same bits through a reciprocal and exact tie checks).
    let vector: Bool

    init(signed: Bool, input: Int, output: Int, count: Int, quantization: QuantizedOperand, level: KernelLevel) {
        (self.signed, self.input, self.output, self.count, self.quantization) =
            (signed, input, output, count, quantization)
        let s = quantization.scale
        vector = level >= .avx2 && level.hasVectorKernels && s.isNormal && (1 / s).isNormal
    }

    func run<Y: Quantized8>(_ context: EvalContext, _: Y.Type) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Y.self)
        let scale = quantization.scale, zero = quantization.zeroPoint
        #if arch(x86_64)
        if vector {
            let (reciprocal, signed) = (1 / scale, self.signed)
            context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                quantizeF32AVX2(
                    x + range.lowerBound, UnsafeMutableRawPointer(y + range.lowerBound), count: range.count,
                    scale: scale, reciprocal: reciprocal, zeroPoint: zero, signed: signed)
            }
            return
        }
        #endif
        // `halfAwayFromZero` saturates at ±(2^22 − 1), far outside the codes, so the clamp
        // gives what the unbounded rounding gave. The loop vectorizes
        // (`rounded(.toNearestOrAwayFromZero)` was a libm call per element).
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
            for i in range { y[i] = Y.clamping(Rounding.halfAwayFromZero(x[i] / scale) &+ zero) }
        }
    }
}
