#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2

/// TFLite's reference LOGISTIC in double precision: the value the kernel approximates.
private func referenceLogistic(_ x: Float) -> Double {
    if x > 16.619047164916992 { return 1 }
    if x < -9 { return doubleExp(Double(x)) }
    return 1 / (1 + doubleExp(-Double(x)))
}

private func doubleExp(_ x: Double) -> Double { exp(x) }

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func sigmoidF32AVX2MatchesReferenceWithinUlps() {
    var rng = SplitMix64(seed: 5)
    // A sweep across every branch and the saturation points, random values, specials.
    var inputs = stride(from: Float(-110), through: 110, by: 0.013).map { $0 }
    inputs += [-9, -9.000001, -8.999999, 16.619047, 16.61905, 0, -0.0, 1e-30, -1e-30, -87.3, -87.4, -104, 88]
    inputs += (0 ..< 1000).map { _ in Float.random(in: -20 ... 20, using: &rng) }
    inputs += [.infinity, -.infinity, .nan, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
    for count in [inputs.count, 1, 7, 9] {
        var out = [Float](repeating: 99, count: count + 3)
        inputs.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { o in sigmoidF32AVX2(x.baseAddress!, o.baseAddress!, count: count) }
        }
        #expect(out[count...].allSatisfy { $0 == 99 }, "count \(count): wrote past the end")
        for i in 0 ..< count {
            let x = inputs[i], y = out[i]
            if x.isNaN {
                #expect(y.isNaN)
                continue
            }
            let want = referenceLogistic(x)
            // Normal results within 4 ulp; results under the smallest normal float flush to 0.
            if want < Double(Float.leastNormalMagnitude) {
                #expect(y == 0 || abs(Double(y) - want) <= Double(Float.leastNormalMagnitude), "x \(x)")
            } else {
                let ulp = Double(Float(want).ulp)
                #expect(abs(Double(y) - want) <= 4 * ulp, "x \(x): \(y) vs \(want)")
            }
        }
    }
}
#endif
