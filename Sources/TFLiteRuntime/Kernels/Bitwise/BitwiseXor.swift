import TFLiteModel

/// BITWISE_XOR: `y = a ^ b` on two broadcast integer operands of one type (int8, uint8,
/// int16, uint16, int32, uint32). Signed and unsigned operands of a width share a kernel:
/// exclusive or does not look at the sign.
enum BitwiseXor {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        let (a, b, output, broadcast) = try context.optionlessBroadcastOperands()
        guard a.type == output.type else { throw context.unsupportedTypes() }
        let operands = BinaryElementwise.Operands(a: a.index, b: b.index, output: output.index, broadcast: broadcast)
        switch a.type {
        case .int8, .uint8: return BinaryMath.make(XorU8.self, operands)
        case .int16, .uint16: return BinaryMath.make(XorU16.self, operands)
        case .int32, .uint32: return BinaryMath.make(XorU32.self, operands)
        default: throw context.unsupportedTypes()
        }
    }
}

enum XorU8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a ^ b }
}

enum XorU16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { a ^ b }
}

enum XorU32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { a ^ b }
}

extension UInt16: ClampableScalar {}
extension UInt32: ClampableScalar {}
extension UInt64: ClampableScalar {}
extension Double: ClampableScalar {}
