import TFLiteModel

extension ClampActivation {
    /// RELU, RELU6 and RELU_N1_TO_1 on uint8/int8, as TFLite's reference kernel: the
    /// input is always requantized to the output's scale,
    /// `y = clamp(z_y + MBQM(x − z_x, s_x/s_y))` (ratio formed in Float), between
    /// `max(qmin, z_y + round(lower/s_y))` and `min(qmax, z_y + round(upper/s_y))`
    /// (Float, ties away from zero; an infinite upper bound is `qmax`).
    static func quantized<T: QuantizedByte>(_: T.Type, input: TensorState, output: TensorState,
                                            lower: Float, upper: Float) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        func bound(_ f: Float) -> Int32 {
            let r = (f / qy.scale).rounded(.toNearestOrAwayFromZero)
            // Clamped before the integer conversion; the result is clamped to the type anyway.
            return qy.zeroPoint &+ Int32(Swift.max(Swift.min(r, 1e9), -1e9))
        }
        let lo = Swift.max(T.lowest, bound(lower))
        let hi = upper == .infinity ? T.highest : Swift.min(T.highest, bound(upper))
        let op = RequantizeClampQ8(zeroX: qx.zeroPoint, zeroY: qy.zeroPoint,
                                   multiplier: QuantizedMultiplier(Double(qx.scale / qy.scale)), lower: lo, upper: hi)
        return QuantizedUnaryKernel<T, RequantizeClampQ8>(input: input.index, output: output.index,
                                                         count: input.elementCount, op: op)
    }
}

/// `y = clamp(z_y + MBQM(x − z_x, M))`.
struct RequantizeClampQ8: QuantizedUnaryOp {
    let zeroX: Int32, zeroY: Int32
    let multiplier: QuantizedMultiplier
    let lower: Int32, upper: Int32

    @inline(__always)
    func apply(_ x: Int32) -> Int32 {
        let y = zeroY + multiplier.apply(x - zeroX)
        return Swift.min(Swift.max(y, lower), upper)
    }
}

/// An integer function of one 8-bit code, returning the clamped output code.
protocol QuantizedUnaryOp: Sendable {
    func apply(_ x: Int32) -> Int32
}

/// `output[i] = Op(input[i])` over 8-bit codes, split over threads in contiguous chunks.
struct QuantizedUnaryKernel<T: QuantizedByte, Op: QuantizedUnaryOp>: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    let op: Op

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let op = self.op
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
            for i in range { y[i] = T(truncatingIfNeeded: op.apply(x[i].code)) }
        }
    }
}

/// `output[i] = table[input[i]]`: an 8-bit function tabulated at prepare, indexed by
/// the code's bit pattern.
struct LookupTableKernel<T: QuantizedByte>: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    /// 256 entries, indexed by `UInt8(truncatingIfNeeded: code)`.
    let table: [T]

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(input)).assumingMemoryBound(to: UInt8.self)
        let y = context.pointer(output, as: T.self)
        table.withUnsafeBufferPointer { table in
            let t = table.baseAddress.unsafelyUnwrapped
            context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                for i in range { y[i] = t[Int(x[i])] }
            }
        }
    }
}
