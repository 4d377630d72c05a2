import TFLiteModel

/// RIGHT_SHIFT: `y = a >> clamp(b, 0, bits - 1)` on two broadcast integer operands of one
/// type (int8, uint8, int16, uint16, int32, uint32), as TFLite clamps the shift amount to
/// the type's width. Signed values shift arithmetically (the sign is copied in), unsigned
/// ones logically.
enum RightShift {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        let (a, b, output, broadcast) = try context.optionlessBroadcastOperands()
        guard a.type == output.type else { throw context.unsupportedTypes() }
        let operands = BinaryElementwise.Operands(a: a.index, b: b.index, output: output.index, broadcast: broadcast)
        switch a.type {
        case .int8: return BinaryMath.make(RightShiftS8.self, operands)
        case .uint8: return BinaryMath.make(RightShiftU8.self, operands)
        case .int16: return BinaryMath.make(RightShiftS16.self, operands)
        case .uint16: return BinaryMath.make(RightShiftU16.self, operands)
        case .int32: return BinaryMath.make(RightShiftS32.self, operands)
        case .uint32: return BinaryMath.make(RightShiftU32.self, operands)
        default: throw context.unsupportedTypes()
        }
    }
}

/// `x >> clamp(s, 0, T.bitWidth - 1)`.
@inline(__always)
func clampedRightShift<T: FixedWidthInteger>(_ x: T, _ s: T) -> T {
    let amount = s < 0 ? 0 : (s > T(T.bitWidth - 1) ? T(T.bitWidth - 1) : s)
    return x >> amount
}

enum RightShiftS8: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int8, _ b: Int8) -> Int8 { clampedRightShift(a, b) }
}

enum RightShiftU8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { clampedRightShift(a, b) }
}

enum RightShiftS16: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int16, _ b: Int16) -> Int16 { clampedRightShift(a, b) }
}

enum RightShiftU16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { clampedRightShift(a, b) }
}

enum RightShiftS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { clampedRightShift(a, b) }
}

enum RightShiftU32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { clampedRightShift(a, b) }
}
