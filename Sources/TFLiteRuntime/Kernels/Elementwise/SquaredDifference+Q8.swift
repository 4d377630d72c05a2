#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// int8 SQUARED_DIFFERENCE as TFLite's reference kernel computes it: both operands on the
/// common scale `2·max(s_a, s_b)` with 7 bits of headroom (`L = 7`),
///
///     a' = MBQM((a − z_a)·2^7, s_a / (2·max)),   b' = MBQM((b − z_b)·2^7, s_b / (2·max))
///     y  = clamp(MBQM((a' − b')², (2·max)² / (2^14·s_y)) + z_y, −128, 127)
///
/// with the multipliers from Double (the doubled maximum formed in Float, as TFLite does)
/// and every rescale below one. `|a' − b'| < 2^15`, so the square fits `Int32`.
struct SquaredDifferenceQ8: QuantizedBinaryOp {
    static let leftShift: Int32 = 7
    let zeroA: Int32, zeroB: Int32, zeroY: Int32
    let multiplierA: QuantizedMultiplier, multiplierB: QuantizedMultiplier, multiplierY: QuantizedMultiplier
    #if arch(x86_64)
    let avx2: BinaryQ8AVX2Parameters?
    #endif

    init(a: QuantizedOperand, b: QuantizedOperand, output: QuantizedOperand, level: KernelLevel) throws(KernelError) {
        let twiceMax = Double(2 * Swift.max(a.scale, b.scale))
        let realY = twiceMax * twiceMax / Double(Float(1 << (2 * Self.leftShift)) * output.scale)
        // TFLite's QuantizeMultiplierSmallerThanOneExp requires every rescale below one.
        guard realY < 1 else {
            throw .invalid(
                "output scale \(output.scale) is too small for input scales \(a.scale) and \(b.scale) (rescale factor \(realY) ≥ 1)"
            )
        }
        zeroA = a.zeroPoint
        zeroB = b.zeroPoint
        zeroY = output.zeroPoint
        multiplierA = QuantizedMultiplier(Double(a.scale) / twiceMax)
        multiplierB = QuantizedMultiplier(Double(b.scale) / twiceMax)
        multiplierY = QuantizedMultiplier(realY)
        #if arch(x86_64)
        let (ma, mb, my, za, zb, zy) = (multiplierA, multiplierB, multiplierY, zeroA, zeroB, zeroY)
        avx2 = binaryQ8AVX2Parameters(level) {
            BinaryQ8AVX2Parameters(
                operation: .squaredDifference, signed: true, zeroA: za, mantissaA: ma.mantissa,
                exponentA: ma.exponent, zeroB: zb, mantissaB: mb.mantissa, exponentB: mb.exponent,
                mantissaY: my.mantissa, exponentY: my.exponent, zeroY: zy, lower: -128, upper: 127)
        }
        #endif
    }

    @inline(__always)
    func apply(_ a: Int32, _ b: Int32) -> Int32 {
        let sa = multiplierA.apply((a - zeroA) << Self.leftShift)
        let sb = multiplierB.apply((b - zeroB) << Self.leftShift)
        let d = sa - sb
        let y = multiplierY.apply(d &* d) &+ zeroY
        return Swift.min(Swift.max(y, -128), 127)
    }

    func run(
        _ a: UnsafePointer<UInt8>, _ sa: Int, _ b: UnsafePointer<UInt8>, _ sb: Int,
        _ y: UnsafeMutablePointer<UInt8>, _ n: Int
    ) {
        scalarBinaryQ8(self, a, sa, b, sb, y, n)
    }

    func run(
        _ a: UnsafePointer<Int8>, _ sa: Int, _ b: UnsafePointer<Int8>, _ sb: Int,
        _ y: UnsafeMutablePointer<Int8>, _ n: Int
    ) {
        #if arch(x86_64)
        if let avx2, sa <= 1, sb <= 1 { return binaryQ8AVX2(a, sa, b, sb, y, count: n, avx2) }
        #endif
        scalarBinaryQ8(self, a, sa, b, sb, y, n)
    }
}
