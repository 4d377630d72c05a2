#if arch(x86_64)
import Microkernels

/// ``PoolLoops`` for x86-64-v3: the same loops, vectorized 32 bytes (eight floats) wide.
@inline(never)
public func maxPoolQ8AVX2(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32
) {
    if signed {
        PoolLoops.maximum(
            x.assumingMemoryBound(to: Int8.self), y.assumingMemoryBound(to: Int8.self), g, rows: rows,
            lower: Int8(truncatingIfNeeded: lower), upper: Int8(truncatingIfNeeded: upper), clampsUpper: upper < 127)
    } else {
        PoolLoops.maximum(
            x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self), g, rows: rows,
            lower: UInt8(truncatingIfNeeded: lower), upper: UInt8(truncatingIfNeeded: upper), clampsUpper: upper < 255)
    }
}

/// ``PoolLoops/averageQ8(_:_:_:rows:lower:upper:sums:)`` for x86-64-v3.
@inline(never)
public func averagePoolQ8AVX2(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32, sums: UnsafeMutablePointer<Int32>
) {
    if signed {
        PoolLoops.averageQ8(
            x.assumingMemoryBound(to: Int8.self), y.assumingMemoryBound(to: Int8.self), g, rows: rows, lower: lower,
            upper: upper, sums: sums)
    } else {
        PoolLoops.averageQ8(
            x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self), g, rows: rows, lower: lower,
            upper: upper, sums: sums)
    }
}

/// The float pools for x86-64-v3.
@inline(never)
public func poolF32AVX2(
    average: Bool, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ g: PoolGeometry, rows: Range<Int>,
    lower: Float, upper: Float
) {
    if average {
        PoolLoops.averageF32(x, y, g, rows: rows, lower: lower, upper: upper)
    } else {
        PoolLoops.maximum(
            x, y, g, rows: rows, lower: lower > -.greatestFiniteMagnitude ? lower : -.greatestFiniteMagnitude,
            upper: upper, clampsUpper: upper < .infinity)
    }
}
#endif
