import TFLiteModel

extension ClampActivation {
    /// RELU, RELU6 and RELU_N1_TO_1 on uint8/int8, as TFLite's reference kernel: the
    /// input is always requantized to the output's scale,
    /// `y = clamp(z_y + MBQM(x − z_x, s_x/s_y))` (ratio formed in Float), between
    /// `max(qmin, z_y + round(lower/s_y))` and `min(qmax, z_y + round(upper/s_y))`
    /// (Float, ties away from zero; an infinite upper bound is `qmax`).
    /// Evaluated once per code at prepare, into a table.
    static func quantized<T: QuantizedByte>(
        _: T.Type, input: TensorState, output: TensorState,
        lower: Float, upper: Float, level: KernelLevel
    ) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        func bound(_ f: Float) -> Int32 {
            let r = (f / qy.scale).rounded(.toNearestOrAwayFromZero)
            // Clamped before the integer conversion; the result is clamped to the type anyway.
            return qy.zeroPoint &+ Int32(Swift.max(Swift.min(r, 1e9), -1e9))
        }
        let lo = Swift.max(T.lowest, bound(lower))
        let hi = upper == .infinity ? T.highest : Swift.min(T.highest, bound(upper))
        let multiplier = QuantizedMultiplier(Double(qx.scale / qy.scale))
        let op = RequantizeClampQ8(
            zeroX: qx.zeroPoint, zeroY: qy.zeroPoint, multiplier: multiplier, lower: lo, upper: hi)
        return LookupTableKernel(
            input: input.index, output: output.index, count: input.elementCount, table: op.table(T.self),
            level: level,
            linear: .init(signed: T.isSigned, zeroX: qx.zeroPoint, lower: lo, upper: hi, slope: multiplier.real))
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

extension QuantizedUnaryOp {
    /// `apply` on every code of `T`, for ``LookupTableKernel``. Tabulated at prepare: a
    /// kernel generic over the op and the code type ran its loop unspecialized, and even
    /// specialized, the requantization costs tens of times a table lookup (BENCHMARKS.md,
    /// "Findings").
    func table<T: QuantizedByte>(_: T.Type) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 256)
        for code in T.lowest ... T.highest {
            table[Int(UInt8(truncatingIfNeeded: code))] = UInt8(truncatingIfNeeded: apply(code))
        }
        return table
    }
}
