import TFLiteModel

extension BinaryMath {
    /// int8 and int16 FLOOR_DIV and FLOOR_MOD, which TFLite computes on the stored values
    /// (any quantization parameters are ignored, as in TFLite): the same floor division
    /// and modulus as int32, zero divisors failing the invoke. `T.min / −1` wraps to
    /// `T.min`, as TFLite's conversion of the quotient does.
    static func narrow(
        _ kind: Kind, _ type: ElementType, _ operands: BinaryElementwise.Operands, divisorCount: Int
    ) -> (any PreparedKernel)? {
        switch (kind, type) {
        case (.floorDiv, .int8):
            return CheckedOperandKernel(
                inner: make(FloorDivS8.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
        case (.floorMod, .int8):
            return CheckedOperandKernel(
                inner: make(FloorModS8.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
        case (.floorDiv, .int16):
            return CheckedOperandKernel(
                inner: make(FloorDivS16.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
        case (.floorMod, .int16):
            return CheckedOperandKernel(
                inner: make(FloorModS16.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
        default:
            return nil
        }
    }
}

extension Int8: ClampableScalar {}
extension Int16: ClampableScalar {}

enum FloorDivS8: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int8, _ b: Int8) -> Int8 { floorDivide(a, b) }
}

enum FloorModS8: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int8, _ b: Int8) -> Int8 { floorModulo(a, b) }
}

enum FloorDivS16: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int16, _ b: Int16) -> Int16 { floorDivide(a, b) }
}

enum FloorModS16: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int16, _ b: Int16) -> Int16 { floorModulo(a, b) }
}
