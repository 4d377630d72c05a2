import TFLiteModel

/// STABLEHLO_SHIFT_LEFT: `y = a << b` elementwise over int8, int16 or int32 operands of one
/// element count, paired by position (TFLite checks no shapes), shaped like `a`. A shift by a negative amount or by the type's width or more gives 0 (StableHLO's
/// rule; TFLite's C++ shift leaves those undefined).
enum StableHLOShiftLeft {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        let o = try context.sameShapeOperands(pairedByPosition: true)
        switch context.tensors[o.a].type {
        case .int8: return BinaryMath.make(ShiftLeftS8.self, o)
        case .int16: return BinaryMath.make(ShiftLeftS16.self, o)
        case .int32: return BinaryMath.make(ShiftLeftS32.self, o)
        default: throw context.unsupportedTypes()
        }
    }
}

@inline(__always)
func shiftedLeft<T: FixedWidthInteger>(_ x: T, _ s: T) -> T {
    s < 0 || s >= T(T.bitWidth) ? 0 : x << s
}

enum ShiftLeftS8: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int8, _ b: Int8) -> Int8 { shiftedLeft(a, b) }
}
enum ShiftLeftS16: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int16, _ b: Int16) -> Int16 { shiftedLeft(a, b) }
}
enum ShiftLeftS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { shiftedLeft(a, b) }
}
