#if arch(x86_64)
import Microkernels

/// ``BilinearRows`` for x86-64-v3: the same loops vectorized 32 bytes wide.
@inline(never)
public func bilinearRowS8AVX2(
    _ top: UnsafePointer<Int8>, _ bottom: UnsafePointer<Int8>, ty: Int32, lower: UnsafePointer<Int>,
    upper: UnsafePointer<Int>, weights: UnsafePointer<Int64>, width: Int, depth: Int, _ out: UnsafeMutablePointer<Int8>
) {
    BilinearRows.s8(
        top, bottom, ty: ty, lower: lower, upper: upper, weights: weights, width: width, depth: depth, out)
}

@inline(never)
public func bilinearRowU8AVX2(
    _ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, ty: Float, lower: UnsafePointer<Int>,
    upper: UnsafePointer<Int>, weights: UnsafePointer<Float>, width: Int, depth: Int, _ out: UnsafeMutablePointer<UInt8>
) {
    BilinearRows.u8(
        top, bottom, ty: ty, lower: lower, upper: upper, weights: weights, width: width, depth: depth, out)
}

@inline(never)
public func bilinearRowF32AVX2(
    _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, ty: Float, lower: UnsafePointer<Int>,
    upper: UnsafePointer<Int>, weights: UnsafePointer<Float>, width: Int, depth: Int, _ out: UnsafeMutablePointer<Float>
) {
    BilinearRows.f32(
        top, bottom, ty: ty, lower: lower, upper: upper, weights: weights, width: width, depth: depth, out)
}
#endif
