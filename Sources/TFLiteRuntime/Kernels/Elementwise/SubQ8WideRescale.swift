import TFLiteModel

/// 8-bit SUB whose output rescale factor `2·max(s_a, s_b) / (2^20·s_y)` exceeds 1: an
/// output scale far below the inputs', as calibration gives `relu(a − b)` when `a − b` was
/// never positive. LiteRT's SUB runs such models (its ADD refuses them); its kernel passes
/// a negative exponent to the rounding right shift, so the result is whatever the x86-64
/// build computes. This kernel reproduces that build bit for bit (spec/quantized-elementwise.md,
/// "SUB with a rescale factor above 1"):
///
/// `x = SRDHM(a' − b', M)` with `a'`, `b'` the operands at the common scale as for any
/// 8-bit SUB and `(M, s)` the factor's mantissa and exponent (`s ≥ 1`); then
/// - elements of TFLite's vectorized loop (operands of one shape, the first `n − n mod 4`
///   elements): `q = x ≥ 0 ? 1 : −1`;
/// - the others (the last `n mod 4`, and every element of a broadcast): the scalar rounding
///   shift with the exponent `−s` masked as x86 shifts mask it: `mask = low 32 bits of
///   2^((−s) mod 64) − 1`, `q = (x >> ((−s) mod 32)) + ((x & mask) > (mask >> 1) + [x < 0])`;
///
/// and `y = clamp(q + z_y)` to the fused activation's range.
struct SubQ8WideRescale: PreparedKernel {
    let signed: Bool
    let a: Int
    let b: Int
    let output: Int
    let broadcast: Broadcast
    /// Output elements computed by TFLite's vectorized loop: `count − count mod 4` when the
    /// operands have one shape (after padding with leading 1s), else 0.
    let vectorized: Int
    let mantissa: Int32
    let shift: Int
    let zeroY: Int32
    let lower: Int32
    let upper: Int32
    /// Each code's operand at the common scale, `MBQM((code − z)·2^20, s/(2·max))`, for
    /// a and b: 256 entries each, indexed by the code's bit pattern.
    let scaledA: [Int32]
    let scaledB: [Int32]

    init(
        signed: Bool, operands: BinaryElementwise.Operands, shapeA: [Int], shapeB: [Int], a qa: QuantizedOperand,
        b qb: QuantizedOperand, zeroY: Int32, rescale: Double, lower: Int32, upper: Int32
    ) {
        self.signed = signed
        a = operands.a
        b = operands.b
        output = operands.output
        broadcast = operands.broadcast
        let rank = Swift.max(shapeA.count, shapeB.count)
        let padded = { (s: [Int]) in [Int](repeating: 1, count: rank - s.count) + s }
        vectorized = padded(shapeA) == padded(shapeB) ? broadcast.elementCount & ~3 : 0
        (mantissa, shift) = FixedPoint.quantizeMultiplier(rescale)
        self.zeroY = zeroY
        self.lower = lower
        self.upper = upper
        let twiceMax = Double(2 * Swift.max(qa.scale, qb.scale))
        let ma = QuantizedMultiplier(Double(qa.scale) / twiceMax), mb = QuantizedMultiplier(Double(qb.scale) / twiceMax)
        var ta = [Int32](repeating: 0, count: 256), tb = [Int32](repeating: 0, count: 256)
        for bits in 0 ..< 256 {
            let code = signed ? Int32(Int8(truncatingIfNeeded: bits)) : Int32(bits)
            ta[bits] = ma.apply((code - qa.zeroPoint) << Int32(AddSubQ8.leftShift))
            tb[bits] = mb.apply((code - qb.zeroPoint) << Int32(AddSubQ8.leftShift))
        }
        scaledA = ta
        scaledB = tb
    }

    /// The output code of element `o` from the two operand bit patterns.
    @inline(__always)
    func code(_ o: Int, _ ca: UInt8, _ cb: UInt8) -> UInt8 {
        let x = FixedPoint.saturatingRoundingDoublingHighMul(scaledA[Int(ca)] &- scaledB[Int(cb)], mantissa)
        let q: Int32
        if o < vectorized {
            q = x < 0 ? -1 : 1
        } else {
            let e = -shift
            let mask = Int32(truncatingIfNeeded: (Int64(1) &<< Int64(e & 63)) &- 1)
            let threshold = (mask >> 1) &+ (x < 0 ? 1 : 0)
            q = (x >> Int32(e & 31)) &+ ((x & mask) > threshold ? 1 : 0)
        }
        let y = Swift.min(Swift.max(q &+ zeroY, lower), upper)
        return UInt8(truncatingIfNeeded: y)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        // Codes move as bytes: the tables are indexed by bit pattern and the clamp bounds
        // are in the type's range, so the low byte is the code.
        let pa = UnsafePointer(context.pointer(a, as: UInt8.self))
        let pb = UnsafePointer(context.pointer(b, as: UInt8.self))
        let py = context.pointer(output, as: UInt8.self)
        let (sa, sb) = broadcast.innerStrides
        let broadcast = self.broadcast
        context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: 1 << 11) { range in
            broadcast.forEachRun(in: range) { o, ia, ib, n in
                for k in 0 ..< n { py[o + k] = code(o + k, pa[ia + k * sa], pb[ib + k * sb]) }
            }
        }
    }
}
