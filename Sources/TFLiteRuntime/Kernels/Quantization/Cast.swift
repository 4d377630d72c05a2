import TFLiteModel

/// CAST between float32, float16, int64, int32, int16, int8, uint8 and bool, elementwise,
/// with C++ `static_cast` semantics where those are defined:
/// - integer → narrower integer wraps (two's complement truncation);
/// - integer → float rounds to nearest; float32 → float16 rounds to nearest even;
/// - float → integer truncates toward zero. Where C++ leaves it undefined we choose:
///   NaN → 0, and out-of-range values saturate to the target's minimum or maximum;
/// - anything → bool is `x != 0` (NaN is true); bool → number is 0 or 1.
/// The types come from the tensors; CastOptions, when present, are not consulted.
enum Cast {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        try context.setOutputShape(0, input.shape)
        let count = input.elementCount
        let source: (any CastElement.Type)?
        switch input.type {
        case .float32: source = Float.self
        case .float16: source = HalfBits.self
        case .int64: source = Int64.self
        case .int32: source = Int32.self
        case .int16: source = Int16.self
        case .int8: source = Int8.self
        case .uint8: source = UInt8.self
        case .bool: source = BoolByte.self
        default: source = nil
        }
        guard let source, let kernel = kernel(from: source, to: output.type, input: input.index, output: output.index, count: count) else {
            throw context.unsupportedTypes()
        }
        return kernel
    }

    static func kernel<S: CastElement>(from _: S.Type, to type: ElementType, input: Int, output: Int, count: Int) -> (any PreparedKernel)? {
        switch type {
        case .float32: return CastKernel<S, Float>(input: input, output: output, count: count)
        case .float16: return CastKernel<S, HalfBits>(input: input, output: output, count: count)
        case .int64: return CastKernel<S, Int64>(input: input, output: output, count: count)
        case .int32: return CastKernel<S, Int32>(input: input, output: output, count: count)
        case .int16: return CastKernel<S, Int16>(input: input, output: output, count: count)
        case .int8: return CastKernel<S, Int8>(input: input, output: output, count: count)
        case .uint8: return CastKernel<S, UInt8>(input: input, output: output, count: count)
        case .bool: return CastKernel<S, BoolByte>(input: input, output: output, count: count)
        default: return nil
        }
    }
}

/// A tensor element CAST reads and writes. Floating types go through Float (exact for
/// float16 and float32), integer types and bool through Int64 (exact for all of them).
protocol CastElement {
    static var castIsFloating: Bool { get }
    var castFloat: Float { get }
    var castInteger: Int64 { get }
    init(castFrom value: Float)
    init(castFrom value: Int64)
}

/// float16 stored as its bit pattern.
struct HalfBits: CastElement {
    var bits: UInt16
    static var castIsFloating: Bool { true }
    var castFloat: Float { HalfPrecision.float(fromBits: bits) }
    var castInteger: Int64 { 0 }
    init(castFrom value: Float) { bits = HalfPrecision.bits(from: value) }
    // Via Float, as Eigen's half does.
    init(castFrom value: Int64) { bits = HalfPrecision.bits(from: Float(value)) }
}

/// TFLite's one-byte bool; any non-zero byte reads as true.
struct BoolByte: CastElement {
    var byte: UInt8
    static var castIsFloating: Bool { false }
    var castFloat: Float { 0 }
    var castInteger: Int64 { byte != 0 ? 1 : 0 }
    init(castFrom value: Float) { byte = value != 0 ? 1 : 0 }
    init(castFrom value: Int64) { byte = value != 0 ? 1 : 0 }
}

extension Float: CastElement {
    static var castIsFloating: Bool { true }
    var castFloat: Float { self }
    var castInteger: Int64 { 0 }
    init(castFrom value: Float) { self = value }
    init(castFrom value: Int64) { self = Float(value) }
}

/// Float → integer: truncate toward zero; NaN → 0; saturate out of range.
protocol SaturatingIntegerCast: FixedWidthInteger, CastElement {}
extension SaturatingIntegerCast {
    static var castIsFloating: Bool { false }
    var castFloat: Float { 0 }
    var castInteger: Int64 { Int64(self) }
    init(castFrom value: Int64) { self.init(truncatingIfNeeded: value) }
    init(castFrom value: Float) {
        if value.isNaN { self = 0; return }
        let t = value.rounded(.towardZero)
        // Self.max + 1 is a power of two, exactly representable as a Float.
        let upper = Float(sign: .plus, exponent: Self.bitWidth - (Self.isSigned ? 1 : 0), significand: 1)
        let lower = Self.isSigned ? -upper : 0
        if t >= upper { self = Self.max } else if t < lower { self = Self.min } else { self = Self(t) }
    }
}
extension Int64: SaturatingIntegerCast {}
extension Int32: SaturatingIntegerCast {}
extension Int16: SaturatingIntegerCast {}
extension Int8: SaturatingIntegerCast {}
extension UInt8: SaturatingIntegerCast {}

struct CastKernel<S: CastElement, D: CastElement>: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(input, as: S.self)
        let y = context.pointer(output, as: D.self)
        if S.castIsFloating {
            for i in 0 ..< count { y[i] = D(castFrom: x[i].castFloat) }
        } else {
            for i in 0 ..< count { y[i] = D(castFrom: x[i].castInteger) }
        }
    }
}
