import TFLiteModel

extension L2NormalizationKernel {
    /// int8/uint8 L2_NORMALIZATION, TFLite's reference arithmetic. The output is fixed at
    /// scale 1/128 (zero point 0 for int8, 128 for uint8), as TFLite requires. Per row,
    /// `S = Σ (q − z)²` (wrapping Int32), `(M, s) = inverseSqrtMultiplier(S)`, then
    /// - int8: `y = clamp(MBQM(q − z, M, s + 7))`;
    /// - uint8: `y = clamp(128 + RDBPOT(SRDHM(128·(q − z), M), −s))`.
    static func quantized(input: TensorState, output: TensorState, rows: Int, depth: Int) throws(KernelError)
        -> any PreparedKernel
    {
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        let signed = input.type == .int8
        guard qy.scale == 1.0 / 128, qy.zeroPoint == (signed ? 0 : 128) else {
            throw .invalid(
                "the output must have scale 1/128 and zero point \(signed ? 0 : 128), found \(qy.scale) and \(qy.zeroPoint)"
            )
        }
        return L2NormalizationQuantized(
            signed: signed, input: input.index, output: output.index, rows: rows, depth: depth,
            zeroPoint: qx.zeroPoint)
    }
}

struct L2NormalizationQuantized: PreparedKernel {
    let signed: Bool
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int
    let zeroPoint: Int32

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(input))
        let y = context.raw(output)
        for r in 0 ..< rows {
            let base = r * depth
            var sum: Int32 = 0
            for c in 0 ..< depth {
                let d = code(x, base + c) - zeroPoint
                sum = sum &+ d &* d
            }
            let (mantissa, shift) = FixedPoint.inverseSqrtMultiplier(sum)
            for c in 0 ..< depth {
                let d = code(x, base + c) - zeroPoint
                if signed {
                    let v = FixedPoint.multiplyByQuantizedMultiplier(d, mantissa, shift + 7)
                    y.storeBytes(of: Int8(Swift.min(Swift.max(v, -128), 127)), toByteOffset: base + c, as: Int8.self)
                } else {
                    let v =
                        128
                        + FixedPoint.roundingDivideByPOT(
                            FixedPoint.saturatingRoundingDoublingHighMul(128 * d, mantissa), -shift)
                    y.storeBytes(of: UInt8(Swift.min(Swift.max(v, 0), 255)), toByteOffset: base + c, as: UInt8.self)
                }
            }
        }
    }

    @inline(__always)
    private func code(_ x: UnsafeRawPointer, _ i: Int) -> Int32 {
        signed ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self))
    }
}
