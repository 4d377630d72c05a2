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
        guard let source = CastKernel.Element(input.type), let destination = CastKernel.Element(output.type) else {
            throw context.unsupportedTypes()
        }
        if source == .float32 && destination == .int32 {
            return CastF32ToI32Kernel(
                input: input.index, output: output.index, count: input.elementCount, level: context.kernelLevel)
        }
        return CastKernel(
            source: source, destination: destination, input: input.index, output: output.index,
            count: input.elementCount)
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

/// Float → integer: truncate toward zero; NaN → 0; saturate out of range. (float32 →
/// int32 has its own vector kernel, ``CastF32ToI32Kernel``, with the same results.)
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
        // Through Int64 (exact: t is integral and in range): `Self(t)` here is the generic
        // FixedWidthInteger conversion, a bit-by-bit algorithm, where
        // Int64's own initializer is one instruction.
        if t >= upper {
            self = Self.max
        } else if t < lower {
            self = Self.min
        } else {
            self = Self(truncatingIfNeeded: Int64(t))
        }
    }
}
extension Int64: SaturatingIntegerCast {}
extension Int32: SaturatingIntegerCast {}
extension Int16: SaturatingIntegerCast {}
extension Int8: SaturatingIntegerCast {}
extension UInt8: SaturatingIntegerCast {}

/// The element types are stored, not generic parameters: the witness of a generic
/// kernel's `eval` is the unspecialized body, which converted each element through
/// witnesses; `eval` picks the specialization of `convert` for the
/// pair of types.
struct CastKernel: PreparedKernel {
    enum Element {
        case float32, float16, int64, int32, int16, int8, uint8, bool

        init?(_ type: ElementType) {
            switch type {
            case .float32: self = .float32
            case .float16: self = .float16
            case .int64: self = .int64
            case .int32: self = .int32
            case .int16: self = .int16
            case .int8: self = .int8
            case .uint8: self = .uint8
            case .bool: self = .bool
            default: return nil
            }
        }
    }

    let source: Element
    let destination: Element
    let input: Int
    let output: Int
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        switch source {
        case .float32: convert(from: Float.self, context)
        case .float16: convert(from: HalfBits.self, context)
        case .int64: convert(from: Int64.self, context)
        case .int32: convert(from: Int32.self, context)
        case .int16: convert(from: Int16.self, context)
        case .int8: convert(from: Int8.self, context)
        case .uint8: convert(from: UInt8.self, context)
        case .bool: convert(from: BoolByte.self, context)
        }
    }

    private func convert<S: CastElement>(from _: S.Type, _ context: EvalContext) {
        switch destination {
        case .float32: convert(S.self, Float.self, context)
        case .float16: convert(S.self, HalfBits.self, context)
        case .int64: convert(S.self, Int64.self, context)
        case .int32: convert(S.self, Int32.self, context)
        case .int16: convert(S.self, Int16.self, context)
        case .int8: convert(S.self, Int8.self, context)
        case .uint8: convert(S.self, UInt8.self, context)
        case .bool: convert(S.self, BoolByte.self, context)
        }
    }

    private func convert<S: CastElement, D: CastElement>(_: S.Type, _: D.Type, _ context: EvalContext) {
        let x = context.pointer(input, as: S.self)
        let y = context.pointer(output, as: D.self)
        if S.castIsFloating {
            for i in 0 ..< count { y[i] = D(castFrom: x[i].castFloat) }
        } else {
            for i in 0 ..< count { y[i] = D(castFrom: x[i].castInteger) }
        }
    }
}
