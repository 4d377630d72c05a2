extension Comparison {
    /// TFLite's rescaled value of every uint8/int8 code of `tensor`:
    /// `MBQM((q − z) · 2^8, M)`, with `(M, e) = QuantizeMultiplier(scale)` applied as a
    /// rounding high multiply and a rounding right shift by `−e`. The `2^8` keeps the
    /// rounding below the resolution of either operand, so two codes on different
    /// scales compare in the order of their real values unless they are within about
    /// 2^-8 LSB of each other. Indexed by the code's bit pattern.
    ///
    /// TFLite applies the multiplier as if it were below one; a scale of 1 or more would
    /// shift left by a negative amount there (undefined), so it is refused.
    static func codeTable(_ tensor: TensorState, role: String) throws(KernelError) -> [Int32] {
        let q = try QuantizedOperand(tensor, role: role)
        let multiplier = QuantizedMultiplier(Double(q.scale))
        guard multiplier.exponent <= 0 else {
            throw .invalid("\(role) has scale \(q.scale); quantized comparisons need scales below 1")
        }
        let (lo, hi): (Int32, Int32) = tensor.type == .uint8 ? (0, 255) : (-128, 127)
        var table = [Int32](repeating: 0, count: 256)
        for code in lo ... hi {
            table[Int(UInt8(truncatingIfNeeded: code))] = multiplier.apply((code - q.zeroPoint) * 256)
        }
        return table
    }
}
