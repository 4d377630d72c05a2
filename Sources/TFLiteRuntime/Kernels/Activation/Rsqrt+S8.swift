import TFLiteModel

/// int8 RSQRT, TFLite's reference arithmetic, tabulated over the 256 codes at prepare.
///
/// For a code `v` with `d = v − z_x`:
/// - `d < 0` has no square root: TFLite fails the invoke, and so does this kernel.
/// - `d = 0` gives 127, the type's largest code, whatever the output's zero point.
/// - otherwise `1/√d` comes from the fixed-point Newton iteration of
///   ``FixedPoint/inverseSqrtMultiplier(_:)`` as `(M_d, e_d)`;
///   `t = MBQM(1, M_d, e_d + 20)` is `2^20/√d`, and `y = MBQM(t, M, e − 20) + z_y`,
///   clamped, with `M, e = QuantizeMultiplier(1 / Double(√s_x · s_y))` (the square root
///   and the product in Float, as in TFLite).
struct RsqrtS8Kernel: PreparedKernel {
    let lookup: LookupTableKernel
    /// Codes below the input zero point are negative numbers.
    let zeroPoint: Int8

    /// The fixed-point scale of the intermediate `2^20/√d`.
    static let intermediateShift = 20

    static func prepare(input: QuantizedOperand, output: QuantizedOperand, operands: UnaryActivation.Operands)
        throws(KernelError) -> RsqrtS8Kernel
    {
        let (mantissa, exponent) = FixedPoint.quantizeMultiplier(
            1 / Double(input.scale.squareRoot() * output.scale))
        // A right shift past 31 is undefined in TFLite's rounding division.
        guard exponent - intermediateShift >= -31 else {
            throw .invalid("RSQRT's output scale \(output.scale) is too large for input scale \(input.scale)")
        }
        var table = [UInt8](repeating: 0, count: 256)
        for v in Int32(input.zeroPoint) ... 127 {
            let d = v - input.zeroPoint
            var y: Int32 = 127
            if d > 0 {
                let (inverse, shift) = FixedPoint.inverseSqrtMultiplier(d)
                let t = FixedPoint.multiplyByQuantizedMultiplier(1, inverse, shift + intermediateShift)
                y =
                    FixedPoint.multiplyByQuantizedMultiplier(t, mantissa, exponent - intermediateShift)
                    &+ output.zeroPoint
            }
            table[Int(UInt8(truncatingIfNeeded: v))] = UInt8(truncatingIfNeeded: Int8.clamping(y))
        }
        return RsqrtS8Kernel(
            lookup: LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count, table: table),
            zeroPoint: Int8(truncatingIfNeeded: input.zeroPoint))
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(lookup.input, as: Int8.self))
        for i in 0 ..< lookup.count where x[i] < zeroPoint {
            throw .invalid("RSQRT is only defined for non-negative inputs; element \(i) is code \(x[i])")
        }
        try lookup.eval(context)
    }
}
