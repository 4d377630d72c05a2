/// One uint8 CONCATENATION input whose quantization differs from the output's, written
/// into its slot with TFLite's `ConcatenationWithScaling` arithmetic, in Float:
/// `y = clamp(Int32(round(q·f + b)) + z_y, 0, 255)` with `f = s_x · (1/s_y)`,
/// `b = −z_x · f` and round half away from zero. Inputs quantized like the output are
/// copied instead (as TFLite does when scale and zero point are both equal).
struct ConcatenationRescale: Sendable {
    struct Factors: Sendable {
        let scale: Float
        let bias: Float
        let zeroPoint: Int32
    }

    let source: Int
    let outer: Int
    /// Elements of this input per outer index, and of the output.
    let block: Int
    let outputRow: Int
    let outputOffset: Int
    let factors: Factors

    /// Per input, the factors when it needs rescaling, else nil.
    static func inputs(_ inputs: [TensorState], output: TensorState) throws(KernelError) -> [Factors?] {
        let qy = try QuantizedOperand(output, role: "output")
        let inverse = 1 / qy.scale
        var result: [Factors?] = []
        for (k, t) in inputs.enumerated() {
            let qx = try QuantizedOperand(t, role: "input \(k)")
            if qx == qy {
                result.append(nil)
            } else {
                let f = qx.scale * inverse
                result.append(Factors(scale: f, bias: Float(-qx.zeroPoint) * f, zeroPoint: qy.zeroPoint))
            }
        }
        return result
    }

    func run(_ context: EvalContext, output: Int) {
        let x = context.pointer(source, as: UInt8.self)
        let y = context.pointer(output, as: UInt8.self)
        let f = factors
        for o in 0 ..< outer {
            let src = x + o * block, dst = y + o * outputRow + outputOffset
            for j in 0 ..< block {
                let r = (Float(src[j]) * f.scale + f.bias).rounded(.toNearestOrAwayFromZero)
                // |r| is bounded by 255·f + |b|; clamped before converting for huge factors.
                let v = Int32(Swift.max(Swift.min(r, 1e9), -1e9)) &+ f.zeroPoint
                dst[j] = UInt8(Swift.min(Swift.max(v, 0), 255))
            }
        }
    }
}
