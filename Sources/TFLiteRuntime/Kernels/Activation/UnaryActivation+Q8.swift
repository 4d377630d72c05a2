#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

extension UnaryActivation {
    /// The uint8/int8 kernel of `kind`, or nil where TFLite has none (uint8 EXP, SQRT and
    /// RSQRT).
    ///
    /// - int8 SQRT and RSQRT: TFLite's Float square root and fixed-point inverse square
    ///   root per code (``SquareRootsS8``); negative inputs fail the invoke.
    /// - LOGISTIC, TANH and int8 EXP: a 256-entry table built at prepare, as TFLite's
    ///   reference kernel does (see ``lookupTable(_:input:output:_:)``). LOGISTIC requires
    ///   an output scale of exactly 1/256.
    /// - LEAKY_RELU: `y = z_y + MBQM(x − z_x, x ≥ z_x ? s_x/s_y : s_x·α/s_y)`, clamped to
    ///   the type; a negative α multiplies by |α| and negates.
    /// - HARD_SWISH: TFLite's int16 fixed-point evaluation (``HardSwishQ8``).
    /// LEAKY_RELU and HARD_SWISH are evaluated once per code at prepare, into the same
    /// kind of table.
    static func quantized<T: QuantizedByte>(
        _: T.Type, _ kind: Kind, _ operands: Operands, alpha: Float,
        input: TensorState, output: TensorState, level: KernelLevel
    ) throws(KernelError) -> (any PreparedKernel)? {
        if (kind == .exp || kind == .sqrt || kind == .rsqrt) && !T.isSigned { return nil }
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        switch kind {
        case .logistic:
            guard Double(qy.scale) == 1.0 / 256 else {
                throw .invalid("LOGISTIC needs an output scale of 1/256 for \(output.type), found \(qy.scale)")
            }
            return LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count,
                table: lookupTable(T.self, input: qx, output: qy) { 1 / (1 + expf(-$0)) }, level: level)
        case .tanh:
            return LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count,
                table: lookupTable(T.self, input: qx, output: qy) { tanhf($0) }, level: level)
        case .exp:
            return LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count,
                table: lookupTable(T.self, input: qx, output: qy) { expf($0) }, level: level)
        case .leakyRelu:
            let identity = QuantizedMultiplier(Double(qx.scale / qy.scale))
            let alphaMultiplier = QuantizedMultiplier(Double(qx.scale * alpha / qy.scale))
            let op = LeakyReluQ8(
                zeroX: qx.zeroPoint, zeroY: qy.zeroPoint, identity: identity, alpha: alphaMultiplier,
                lower: T.lowest, upper: T.highest)
            return LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count,
                table: op.table(T.self), level: level,
                linear: .init(
                    signed: T.isSigned, zeroX: qx.zeroPoint, lower: T.lowest, upper: T.highest, slope: identity.real,
                    negativeSlope: alphaMultiplier.real))
        case .hardSwish:
            let op = try HardSwishQ8(input: qx, output: qy, lower: T.lowest, upper: T.highest)
            return LookupTableKernel(
                input: operands.input, output: operands.output, count: operands.count,
                table: op.table(T.self), level: level)
        case .rsqrt:
            return try SquareRootsS8.rsqrt(input: qx, output: qy, operands: operands)
        case .sqrt:
            return SquareRootsS8.sqrt(input: qx, output: qy, operands: operands)
        }
    }

    /// TFLite's 8-bit lookup table of `f`, all in Float: for every code `v`,
    /// `q = Int32(round(f(s_x · (v − z_x)) · (1/s_y)) + z_y)` (ties away from zero),
    /// clamped to the type, stored as its bit pattern at index `UInt8(truncatingIfNeeded: v)`.
    static func lookupTable<T: QuantizedByte>(
        _: T.Type, input: QuantizedOperand, output: QuantizedOperand,
        _ f: (Float) -> Float
    ) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 256)
        let inverseScale = 1 / output.scale
        for v in T.lowest ... T.highest {
            let y = f(input.scale * Float(v - input.zeroPoint))
            let rescaled = (y * inverseScale).rounded(.toNearestOrAwayFromZero)
            let shifted = rescaled + Float(output.zeroPoint)
            // NaN (an invalid scale cannot produce one; kept total) maps to the lowest code.
            let q = shifted.isNaN ? T.lowest : Int32(Swift.max(Swift.min(shifted, 1e9), -1e9))
            table[Int(UInt8(truncatingIfNeeded: v))] = UInt8(truncatingIfNeeded: T.clamping(q))
        }
        return table
    }
}

/// Quantized LEAKY_RELU: identity or α slope, each its own multiplier.
struct LeakyReluQ8: QuantizedUnaryOp {
    let zeroX: Int32, zeroY: Int32
    let identity: QuantizedMultiplier
    /// |α| as a multiplier, and whether α is negative.
    let alphaMantissa: Int32, alphaExponent: Int, alphaNegative: Bool
    let lower: Int32, upper: Int32

    init(
        zeroX: Int32, zeroY: Int32, identity: QuantizedMultiplier, alpha: QuantizedMultiplier, lower: Int32,
        upper: Int32
    ) {
        self.zeroX = zeroX; self.zeroY = zeroY; self.identity = identity
        alphaNegative = alpha.mantissa < 0
        alphaMantissa = alphaNegative ? 0 &- alpha.mantissa : alpha.mantissa
        alphaExponent = alpha.exponent
        self.lower = lower; self.upper = upper
    }

    @inline(__always)
    func apply(_ x: Int32) -> Int32 {
        let d = x - zeroX
        var y = zeroY
        if d >= 0 {
            y += identity.apply(d)
        } else {
            let scaled = FixedPoint.multiplyByQuantizedMultiplier(d, alphaMantissa, alphaExponent)
            y += alphaNegative ? -scaled : scaled
        }
        return Swift.min(Swift.max(y, lower), upper)
    }
}
