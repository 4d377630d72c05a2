#if arch(x86_64)
import Microkernels

/// ``FloatMapLoops/map(_:_:_:count:)`` for x86-64-v3: the loops of ``FloatMath`` widened to
/// eight lanes per `ymm`, each multiply-add one FMA.
@inline(never)
public func floatMapAVX2(
    _ function: FloatFunction, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int
) {
    FloatMapLoops<FusedMultiplyAdd>.map(function, x, y, count: count)
}

/// ``FloatMapLoops/softmaxRow(_:_:count:beta:)`` for x86-64-v3.
@inline(never)
public func softmaxRowF32AVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int, beta: Float) {
    FloatMapLoops<FusedMultiplyAdd>.softmaxRow(x, y, count: count, beta: beta)
}
#endif
