#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension UnaryMath {
    /// The 8-bit kernel of `kind`, where TFLite has one: int8 ABS, LOG and ELU, int8 and
    /// uint8 GELU. Each is a function of the code alone, so it is tabulated at prepare
    /// for all 256 codes and evaluated as a lookup (``LookupTableKernel``).
    ///
    /// - ABS: `|x − z_x|`, rescaled by `MBQM(·, s_x/s_y)` when the scales differ, plus
    ///   `z_y`, clamped to the type.
    /// - LOG, ELU, GELU: TFLite's float table (``UnaryActivation/lookupTable``) of the
    ///   function; LOG maps inputs ≤ 0 to the lowest representable output.
    static func quantized<T: QuantizedByte>(
        _: T.Type, _ kind: Kind, _ operands: Operands, approximateGelu: Bool,
        input: TensorState, output: TensorState, level: KernelLevel
    ) throws(KernelError) -> (any PreparedKernel)? {
        let signed = T.lowest < 0
        switch kind {
        case .abs, .log, .elu: guard signed else { return nil }
        case .gelu: break
        default: return nil
        }
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        let table: [UInt8]
        switch kind {
        case .abs:
            table = try AbsQ8(input: qx, output: qy, lower: T.lowest, upper: T.highest).table(T.self)
        case .log:
            let lowest = Float(T.lowest - qy.zeroPoint) * qy.scale
            table = UnaryActivation.lookupTable(T.self, input: qx, output: qy) { $0 <= 0 ? lowest : logf($0) }
        case .elu:
            table = UnaryActivation.lookupTable(T.self, input: qx, output: qy) { $0 < 0 ? expf($0) - 1 : $0 }
        case .gelu:
            let gelu: (Float) -> Float = approximateGelu ? { GeluTanhF32().apply($0) } : { GeluErfF32().apply($0) }
            table = UnaryActivation.lookupTable(T.self, input: qx, output: qy, gelu)
        default:
            return nil
        }
        return LookupTableKernel(
            input: operands.input, output: operands.output, count: operands.count, table: table, level: level)
    }
}

/// Quantized ABS: `|x − z_x|`, requantized only when the input and output scales differ.
struct AbsQ8: QuantizedUnaryOp {
    let zeroX: Int32, zeroY: Int32
    /// `s_x/s_y`, nil when the scales are equal (TFLite then skips the multiply).
    let rescale: QuantizedMultiplier?
    let lower: Int32, upper: Int32

    init(input: QuantizedOperand, output: QuantizedOperand, lower: Int32, upper: Int32) throws(KernelError) {
        zeroX = input.zeroPoint
        zeroY = output.zeroPoint
        rescale = input.scale == output.scale ? nil : QuantizedMultiplier(Double(input.scale / output.scale))
        // |x − z_x| ≤ 255 < 2^8: a left shift past 22 could overflow the 32-bit product.
        if let rescale, rescale.exponent > 22 {
            throw .invalid("ABS input scale \(input.scale) is too large for output scale \(output.scale)")
        }
        self.lower = lower
        self.upper = upper
    }

    @inline(__always)
    func apply(_ x: Int32) -> Int32 {
        let magnitude = Swift.abs(x - zeroX)
        let y = (rescale?.apply(magnitude) ?? magnitude) + zeroY
        return Swift.min(Swift.max(y, lower), upper)
    }
}
