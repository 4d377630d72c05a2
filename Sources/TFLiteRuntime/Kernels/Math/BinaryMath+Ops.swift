#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `aᵇ` (C's `powf`).
enum PowF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { powf(a, b) }
}

/// `aᵇ` for `b ≥ 0` (checked before the loop), computed in Double as TFLite does and
/// truncated; a result outside Int32 becomes `Int32.min`, the value x86's conversion gives.
enum PowI32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 {
        let y = pow(Double(a), Double(b))
        return y > -2_147_483_649 && y < 2_147_483_648 ? Int32(y) : .min
    }
}

/// `⌊a / b⌋`
enum FloorDivF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { (a / b).rounded(.down) }
}

/// `a − b · ⌊a / b⌋` as TFLite computes it: C's `fmod` (sign of `a`), moved into `b`'s
/// sign by adding `b` when the signs differ and the remainder is not zero.
enum FloorModF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float {
        let r = a.truncatingRemainder(dividingBy: b)
        return r != 0 && (b < 0) != (r < 0) ? r + b : r
    }
}

/// `⌊a / b⌋` for `b ≠ 0` (checked before the loop): the truncated quotient, one less when
/// the division was inexact and the signs differ. `Int32.min / −1` wraps to `Int32.min`.
enum FloorDivI32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { floorDivide(a, b) }
}

/// The floor modulus for `b ≠ 0`: the remainder takes `b`'s sign.
enum FloorModI32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { floorModulo(a, b) }
}

enum FloorModI64: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int64, _ b: Int64) -> Int64 { floorModulo(a, b) }
}

/// Does not trap, even for a zero divisor (whose result is meaningless: callers check
/// divisors first) or `T.min / −1` (which wraps).
@inline(__always)
func floorDivide<T: FixedWidthInteger & SignedInteger>(_ a: T, _ b: T) -> T {
    let q = a.dividedReportingOverflow(by: b).partialValue
    let r = a.remainderReportingOverflow(dividingBy: b).partialValue
    return r != 0 && (a < 0) != (b < 0) ? q &- 1 : q
}

/// Does not trap, even for a zero divisor (whose result is meaningless: callers check
/// divisors first) or `T.min / −1` (which wraps).
@inline(__always)
func floorModulo<T: FixedWidthInteger & SignedInteger>(_ a: T, _ b: T) -> T {
    let r = a.remainderReportingOverflow(dividingBy: b).partialValue
    return r != 0 && (b < 0) != (r < 0) ? r &+ b : r
}

/// `a ∧ b` on bool bytes (nonzero is true), giving 0 or 1.
enum LogicalAndU8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a != 0 && b != 0 ? 1 : 0 }
}

/// `a ∨ b` on bool bytes, giving 0 or 1.
enum LogicalOrU8: BinaryElementOp {
    @inline(__always) static func apply(_ a: UInt8, _ b: UInt8) -> UInt8 { a != 0 || b != 0 ? 1 : 0 }
}
