/// One uint8 CONCATENATION input whose quantization differs from the output's, written
/// into its slot with TFLite's `ConcatenationWithScaling` arithmetic, in Float:
/// `y = clamp(Int32(round(q·f + b)) + z_y, 0, 255)` with `f = s_x · (1/s_y)`,
/// `b = −z_x · f` and round half away from zero. Inputs quantized like the output are
/// copied instead (as TFLite does when scale and zero point are both equal).
struct ConcatenationRescale: Sendable {
    let source: Int
    let outer: Int
    /// Elements of this input per outer index, and of the output.
    let block: Int
    let outputRow: Int
    let outputOffset: Int
    /// The output code of each input code. `y` depends on the code alone, so the formula
    /// runs at prepare for the 256 codes: at eval it cost a libm `roundf` per element.
    let table: [UInt8]

    /// Per input, its code table when it needs rescaling, else nil.
    static func inputs(_ inputs: [TensorState], output: TensorState) throws(KernelError) -> [[UInt8]?] {
        let qy = try QuantizedOperand(output, role: "output")
        let inverse = 1 / qy.scale
        var result: [[UInt8]?] = []
        for (k, t) in inputs.enumerated() {
            let qx = try QuantizedOperand(t, role: "input \(k)")
            if qx == qy {
                result.append(nil)
            } else {
                let f = qx.scale * inverse
                result.append(table(scale: f, bias: Float(-qx.zeroPoint) * f, zeroPoint: qy.zeroPoint))
            }
        }
        return result
    }

    private static func table(scale: Float, bias: Float, zeroPoint: Int32) -> [UInt8] {
        (0 ... 255).map { (q: Int) -> UInt8 in
            let r = (Float(q) * scale + bias).rounded(.toNearestOrAwayFromZero)
            // |r| is bounded by 255·f + |b|; clamped before converting for huge factors.
            let v = Int32(Swift.max(Swift.min(r, 1e9), -1e9)) &+ zeroPoint
            return UInt8(Swift.min(Swift.max(v, 0), 255))
        }
    }

    func run(_ context: EvalContext, output: Int) {
        let x = context.pointer(source, as: UInt8.self)
        let y = context.pointer(output, as: UInt8.self)
        let (outer, block, outputRow, outputOffset) = (self.outer, self.block, self.outputRow, self.outputOffset)
        table.withUnsafeBufferPointer { table in
            for o in 0 ..< outer {
                let src = x + o * block, dst = y + o * outputRow + outputOffset
                for j in 0 ..< block { dst[j] = table[Int(src[j])] }
            }
        }
    }
}
