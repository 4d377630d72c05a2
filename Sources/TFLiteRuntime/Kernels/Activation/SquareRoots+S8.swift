import TFLiteModel

/// int8 SQRT and RSQRT, TFLite's reference arithmetic tabulated over the 256 codes at
/// prepare. A code below the input zero point is a negative number, which has no square
/// root: TFLite fails the invoke there, and so does ``NonNegativeLookupS8Kernel``.
enum SquareRootsS8 {
    /// The fixed-point scale of RSQRT's intermediate `2^20/√d`.
    static let intermediateShift = 20

    /// SQRT, computed in Float: `f = s_x · Float(v − z_x)`, `y = Int32(√f / s_y)`
    /// (truncated toward zero, not rounded) `+ z_y`, clamped.
    static func sqrt(input: QuantizedOperand, output: QuantizedOperand, operands: UnaryActivation.Operands)
        -> NonNegativeLookupS8Kernel
    {
        table(input: input, operands: operands, operator: "SQRT") { d in
            let root = (input.scale * Float(d)).squareRoot() / output.scale
            // `root` is ≥ 0; past Int32 (a tiny output scale) the C++ conversion is
            // undefined, and the clamp below makes it the largest code either way.
            let truncated = root < 2_147_483_520 ? Int32(root) : Int32.max
            return truncated &+ output.zeroPoint
        }
    }

    /// RSQRT, in integers. With `d = v − z_x`: `d = 0` gives 127, the type's largest code,
    /// whatever the output's zero point; otherwise the fixed-point `1/√d` of
    /// ``FixedPoint/inverseSqrtMultiplier(_:)``, `(M_d, e_d)`, gives
    /// `t = MBQM(1, M_d, e_d + 20)` (that is `2^20/√d`) and `y = MBQM(t, M, e − 20) + z_y`,
    /// clamped, where `M, e = QuantizeMultiplier(1 / Double(√s_x · s_y))` (the square root
    /// and the product in Float, as in TFLite).
    static func rsqrt(input: QuantizedOperand, output: QuantizedOperand, operands: UnaryActivation.Operands)
        throws(KernelError) -> NonNegativeLookupS8Kernel
    {
        let (mantissa, exponent) = FixedPoint.quantizeMultiplier(
            1 / Double(input.scale.squareRoot() * output.scale))
        // A right shift past 31 is undefined in TFLite's rounding division.
        guard exponent - intermediateShift >= -31 else {
            throw .invalid("RSQRT's output scale \(output.scale) is too large for input scale \(input.scale)")
        }
        return table(input: input, operands: operands, operator: "RSQRT") { d in
            guard d > 0 else { return 127 }
            let (inverse, shift) = FixedPoint.inverseSqrtMultiplier(d)
            let t = FixedPoint.multiplyByQuantizedMultiplier(1, inverse, shift + intermediateShift)
            return FixedPoint.multiplyByQuantizedMultiplier(t, mantissa, exponent - intermediateShift)
                &+ output.zeroPoint
        }
    }

    /// The kernel whose table holds `clamp(f(v − z_x))` for every code `v ≥ z_x`.
    static func table(
        input: QuantizedOperand, operands: UnaryActivation.Operands, operator name: String,
        _ f: (Int32) -> Int32
    ) -> NonNegativeLookupS8Kernel {
        var table = [UInt8](repeating: 0, count: 256)
        for v in input.zeroPoint ... 127 {
            table[Int(UInt8(truncatingIfNeeded: v))] = UInt8(truncatingIfNeeded: Int8.clamping(f(v - input.zeroPoint)))
        }
        return NonNegativeLookupS8Kernel(
            lookup: LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count, table: table),
            zeroPoint: Int8(truncatingIfNeeded: input.zeroPoint), operatorName: name)
    }
}

/// A lookup over int8 codes that fails the invoke when any code lies below `zeroPoint`
/// (a negative input).
struct NonNegativeLookupS8Kernel: PreparedKernel {
    let lookup: LookupTableKernel
    let zeroPoint: Int8
    let operatorName: String

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(lookup.input, as: Int8.self))
        for i in 0 ..< lookup.count where x[i] < zeroPoint {
            throw .invalid("\(operatorName) is only defined for non-negative inputs; element \(i) is code \(x[i])")
        }
        try lookup.eval(context)
    }
}
