// The scalar functions of the StableHLO elementwise kernels. Each is its own non-generic
// type so that its loop is specialized (``BinaryElementOp``): the witness of a generic
// type's conformance would be unspecialized code.

enum AddF16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        HalfPrecision.bits(from: HalfPrecision.float(fromBits: a) + HalfPrecision.float(fromBits: b))
    }
}
enum MulF16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        HalfPrecision.bits(from: HalfPrecision.float(fromBits: a) * HalfPrecision.float(fromBits: b))
    }
}
enum MaxF16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        HalfPrecision.float(fromBits: a) < HalfPrecision.float(fromBits: b) ? b : a
    }
}
enum MinF16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        HalfPrecision.float(fromBits: b) < HalfPrecision.float(fromBits: a) ? b : a
    }
}
enum AddFloat: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a + b }
}
enum MulFloat: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a * b }
}
enum AddDouble: BinaryElementOp {
    @inline(__always) static func apply(_ a: Double, _ b: Double) -> Double { a + b }
}
enum MulDouble: BinaryElementOp {
    @inline(__always) static func apply(_ a: Double, _ b: Double) -> Double { a * b }
}
enum AddWrap8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a &+ b }
}
enum AddWrap16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { a &+ b }
}
enum AddWrap32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { a &+ b }
}
enum AddWrap64: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt64, _ b: UInt64) -> UInt64 { a &+ b }
}
// The low bits of a product do not depend on signedness.
enum MulWrap8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a &* b }
}
enum MulWrap16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { a &* b }
}
enum MulWrap32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { a &* b }
}
enum MulWrap64: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt64, _ b: UInt64) -> UInt64 { a &* b }
}
enum BitAnd8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a & b }
}
enum BitAnd16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { a & b }
}
enum BitAnd32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { a & b }
}
enum BitAnd64: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt64, _ b: UInt64) -> UInt64 { a & b }
}
/// Bool bytes: true when either is nonzero, stored as 1.
enum OrBool: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { (a | b) != 0 ? 1 : 0 }
}
/// Bool bytes: true when both are nonzero, stored as 1.
enum AndBool: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a != 0 && b != 0 ? 1 : 0 }
}
// MAXIMUM is `a < b ? b : a` and MINIMUM `b < a ? b : a`, one type per scalar type.
enum HLOMaxF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a < b ? b : a }
}
enum HLOMinF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { b < a ? b : a }
}
enum HLOMaxF64: BinaryElementOp {
    @inline(__always) static func apply(_ a: Double, _ b: Double) -> Double { a < b ? b : a }
}
enum HLOMinF64: BinaryElementOp {
    @inline(__always) static func apply(_ a: Double, _ b: Double) -> Double { b < a ? b : a }
}
enum HLOMaxS8: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int8, _ b: Int8) -> Int8 { a < b ? b : a }
}
enum HLOMinS8: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int8, _ b: Int8) -> Int8 { b < a ? b : a }
}
enum HLOMaxU8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a < b ? b : a }
}
enum HLOMinU8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { b < a ? b : a }
}
enum HLOMaxS16: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int16, _ b: Int16) -> Int16 { a < b ? b : a }
}
enum HLOMinS16: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int16, _ b: Int16) -> Int16 { b < a ? b : a }
}
enum HLOMaxU16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { a < b ? b : a }
}
enum HLOMinU16: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt16, _ b: UInt16) -> UInt16 { b < a ? b : a }
}
enum HLOMaxS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { a < b ? b : a }
}
enum HLOMinS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { b < a ? b : a }
}
enum HLOMaxU32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { a < b ? b : a }
}
enum HLOMinU32: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt32, _ b: UInt32) -> UInt32 { b < a ? b : a }
}
enum HLOMaxS64: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int64, _ b: Int64) -> Int64 { a < b ? b : a }
}
enum HLOMinS64: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int64, _ b: Int64) -> Int64 { b < a ? b : a }
}
enum HLOMaxU64: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt64, _ b: UInt64) -> UInt64 { a < b ? b : a }
}
enum HLOMinU64: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt64, _ b: UInt64) -> UInt64 { b < a ? b : a }
}
