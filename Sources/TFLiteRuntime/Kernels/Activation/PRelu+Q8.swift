import TFLiteModel

extension PRelu {
    /// uint8/int8 PRELU as TFLite's reference kernel: with `d = x − z_x`,
    /// `y = z_y + (d ≥ 0 ? MBQM(d, s_x/s_y) : MBQM(d·(α − z_α), s_x·s_α/s_y))`, clamped to
    /// the type (both ratios formed in Float). Alpha broadcasts into the input's shape;
    /// TFLite requires the output to keep the input's shape, and so do we.
    static func quantized<T: QuantizedByte>(
        _: T.Type, input: TensorState, alpha: TensorState, output: TensorState,
        broadcast: Broadcast
    ) throws(KernelError) -> any PreparedKernel {
        guard broadcast.outputShape == input.shape else {
            throw .invalid("alpha \(alpha.shape) must broadcast into the input's shape \(input.shape)")
        }
        let qx = try QuantizedOperand(input, role: "input")
        let qa = try QuantizedOperand(alpha, role: "alpha")
        let qy = try QuantizedOperand(output, role: "output")
        let op = PReluQ8(
            zeroX: qx.zeroPoint, zeroAlpha: qa.zeroPoint, zeroY: qy.zeroPoint,
            positive: QuantizedMultiplier(Double(qx.scale / qy.scale)),
            negative: QuantizedMultiplier(Double(qx.scale * qa.scale / qy.scale)),
            lower: T.lowest, upper: T.highest)
        return BinaryQ8Kernel<PReluQ8>(
            signed: T.lowest < 0, a: input.index, b: alpha.index, output: output.index,
            broadcast: broadcast, op: op)
    }
}

struct PReluQ8: QuantizedBinaryOp {
    let zeroX: Int32, zeroAlpha: Int32, zeroY: Int32
    let positive: QuantizedMultiplier
    let negative: QuantizedMultiplier
    let lower: Int32, upper: Int32

    @inline(__always)
    func apply(_ x: Int32, _ alpha: Int32) -> Int32 {
        let d = x - zeroX
        let y = zeroY + (d >= 0 ? positive.apply(d) : negative.apply(d * (alpha - zeroAlpha)))
        return Swift.min(Swift.max(y, lower), upper)
    }
}
