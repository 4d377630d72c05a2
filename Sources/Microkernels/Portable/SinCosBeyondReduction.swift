#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
// A target compiled without its C library's module (the bare aarch64 builds that check
// the microkernels' instruction levels): the same C functions, bound by symbol. A
// `(Float) -> Float` function passes and returns its value in the first floating-point
// register under both the C and the Swift calling conventions.
@_silgen_name("sinf") private func sinf(_ x: Float) -> Float
@_silgen_name("cosf") private func cosf(_ x: Float) -> Float
#endif

/// The C library's `sinf` (or `cosf`) of every `y[i]` with `|y[i]| > 1`: after the sine
/// or cosine loop of ``FloatMapLoops``, those are the inputs beyond
/// ``FloatMath/sinCosReductionLimit`` (and ±∞), which ``FloatMath/sin(_:)`` returns
/// unchanged; every computed value is within `[-1, 1]`. Called only when the loop saw one.
@inline(never)
public func sinCosBeyondReduction(_ y: UnsafeMutablePointer<Float>, count: Int, cosine: Bool) {
    for i in 0 ..< count where Swift.abs(y[i]) > 1 {
        y[i] = cosine ? cosf(y[i]) : sinf(y[i])
    }
}
