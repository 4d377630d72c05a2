#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
