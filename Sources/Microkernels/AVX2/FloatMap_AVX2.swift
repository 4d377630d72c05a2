#if arch(x86_64)
import Microkernels

/// ``FloatMapLoops/map(_:_:_:count:)`` for x86-64-v3: the loops of ``FloatMath`` widened to
/// eight lanes per `ymm`, each multiply-add one FMA; `exp`, `ln`, `sin`, `cos` and `1/√x`
/// through their intrinsic forms (FloatLanes_AVX2.swift).
@inline(never)
public func floatMapAVX2(
    _ function: FloatFunction, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int
) {
    switch function {
    case .exp: return expAVX2(x, y, count: count)
    case .log: return logAVX2(x, y, count: count)
    case .sin: return sinCosAVX2(x, y, count: count, cosine: false)
    case .cos: return sinCosAVX2(x, y, count: count, cosine: true)
    case .reciprocalSquareRoot: return reciprocalSquareRootAVX2(x, y, count: count)
    case .sigmoid, .tanh, .gelu, .geluTanh, .elu: break
    }
    FloatMapLoops<FusedMultiplyAdd>.map(function, x, y, count: count)
}

/// ``FloatMapLoops/softmaxRow(_:_:count:beta:)`` for x86-64-v3.
@inline(never)
public func softmaxRowF32AVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int, beta: Float) {
    FloatMapLoops<FusedMultiplyAdd>.softmaxRow(x, y, count: count, beta: beta)
}

/// ``FloatMapLoops/logSoftmaxRow(_:_:count:)`` for x86-64-v3.
@inline(never)
public func logSoftmaxRowF32AVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    FloatMapLoops<FusedMultiplyAdd>.logSoftmaxRow(x, y, count: count)
}
#endif
