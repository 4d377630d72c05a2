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
#endif

/// The float functions' references in double precision.
private func reference(_ f: FloatFunction, _ x: Float) -> Double {
    let v = Double(x)
    switch f {
    case .exp: return exp(v)
    case .sigmoid: return 1 / (1 + exp(-v))
    case .tanh: return tanh(v)
    case .gelu: return 0.5 * v * (1 + erf(v / 2.0.squareRoot()))
    case .geluTanh: return 0.5 * v * (1 + tanh((2 / Double.pi).squareRoot() * (v + 0.044715 * v * v * v)))
    case .elu: return v > 0 ? v : expm1(v)
    case .log: return log(v)
    case .sin: return sin(v)
    case .cos: return cos(v)
    case .reciprocalSquareRoot: return 1 / v.squareRoot()
    }
}

/// The allowed error: `exp` relative (4 ulp), the others absolute, relative to `max(1, |y|)`
/// (GELU's looser: see ``FloatMath/erf(_:)``'s use in ``FloatMath/gelu(_:)``).
private func withinTolerance(_ f: FloatFunction, _ got: Float, _ want: Double) -> Bool {
    if want.isNaN { return got.isNaN }
    if want.isInfinite { return Double(got) == want }
    switch f {
    case .exp:
        if want < Double(Float.leastNormalMagnitude) { return Double(got) <= Double(Float.leastNormalMagnitude) }
        if want > Double(Float.greatestFiniteMagnitude) { return got == .infinity }
        return abs(Double(got) - want) <= 4 * Double(Float(want).ulp)
    case .gelu:
        // `1 + erf(x/√2)` cancels for x near -5, which scales erf's error by |x|/2.
        return abs(Double(got) - want) <= 1e-6 * max(1, abs(want))
    default:
        return abs(Double(got) - want) <= 6e-7 * max(1, abs(want))
    }
}

/// Inputs across every branch: a sweep, random values, the clamps' edges and specials.
private func inputs() -> [Float] {
    var rng = SplitMix64(seed: 11)
    var x = stride(from: Float(-100), through: 100, by: 0.0173).map { $0 }
    x += stride(from: Float(-1), through: 1, by: 0.000_37).map { $0 }
    x += [0, -0.0, 1e-30, -1e-30, 1e-8, -1e-8, 3.92, -3.92, 5.5, -5.5, 9, -9, 18, -18, 87.3, -87.3, 88.7, -88.7]
    x += [-87.336_544, 88.722_839, 88.72, 89, -104, 0.5, -0.5]
    x += (0 ..< 2000).map { _ in Float.random(in: -30 ... 30, using: &rng) }
    return x
}

/// (`ln`, `sin`, `cos` and `1/√x` have their own sweeps in FloatMathLogTrigTests.swift.)
private let functions: [FloatFunction] = [.exp, .sigmoid, .tanh, .gelu, .geluTanh, .elu]

/// Runs `kernel` on `x` at every offset 0...7 of a buffer and with lengths around the
/// vector width, and checks each result and that nothing past the end is written.
private func check(
    _ name: String, _ f: FloatFunction, _ x: [Float],
    _ kernel: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void
) {
    for offset in 0 ..< 8 {
        for count in [x.count, 0, 1, 7, 8, 9, 15, 17, 31, 33] where count <= x.count {
            var input = [Float](repeating: 0, count: offset) + x
            var out = [Float](repeating: 99, count: offset + count + 5)
            input.withUnsafeMutableBufferPointer { xb in
                out.withUnsafeMutableBufferPointer { yb in
                    kernel(xb.baseAddress! + offset, yb.baseAddress! + offset, count)
                }
            }
            #expect(out[..<offset].allSatisfy { $0 == 99 } && out[(offset + count)...].allSatisfy { $0 == 99 })
            var bad = 0
            for i in 0 ..< count where !withinTolerance(f, out[offset + i], reference(f, x[i])) {
                if bad < 3 { Issue.record("\(name) \(f)(\(x[i])) = \(out[offset + i]), want \(reference(f, x[i]))") }
                bad += 1
            }
            #expect(bad == 0)
        }
    }
}

@Test func floatMapPortableMatchesDoubleReference() {
    let x = inputs()
    for f in functions { check("portable", f, x) { floatMapPortable(f, $0, $1, count: $2) } }
}

@Test func floatMapPropagatesNaNAndInfinities() {
    let x: [Float] = [.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
    var levels: [(String, (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int, FloatFunction) -> Void)] = [
        ("portable", { floatMapPortable($3, $0, $1, count: $2) })
    ]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { levels.append(("avx2", { floatMapAVX2($3, $0, $1, count: $2) })) }
    #endif
    for (name, kernel) in levels {
        for f in functions {
            var y = [Float](repeating: 0, count: x.count)
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeMutableBufferPointer { kernel(xb.baseAddress!, $0.baseAddress!, x.count, f) }
            }
            #expect(y[0].isNaN, "\(name) \(f)(NaN) = \(y[0])")
            let want: [Float] =
                switch f {
                case .exp: [.infinity, 0, .infinity, 0]
                case .sigmoid: [1, 0, 1, 0]
                case .tanh: [1, -1, 1, -1]
                case .gelu, .geluTanh: [.infinity, 0, .greatestFiniteMagnitude, 0]
                case .elu: [.infinity, -1, .greatestFiniteMagnitude, -1]
                case .log, .sin, .cos, .reciprocalSquareRoot: [] // FloatMathLogTrigTests.swift
                }
            // GELU(-∞) is NaN in the reference too (-∞ · 0); not compared.
            for (k, (got, w)) in zip(y[1...], want).enumerated()
            where !(got == w || (w == 0 && abs(got) < 1e-30)) && !(k == 1 && (f == .gelu || f == .geluTanh)) {
                Issue.record("\(name) \(f): \(Array(y[1...])) want \(want)")
                break
            }
        }
    }
}

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func floatMapAVX2MatchesDoubleReference() {
    let x = inputs()
    for f in functions { check("avx2", f, x) { floatMapAVX2(f, $0, $1, count: $2) } }
}
#endif

/// Softmax rows against Double: every row length from 1 to 40 and a long one, in place
/// too, for both levels.
@Test func softmaxRowsMatchDoubleReference() {
    var rng = SplitMix64(seed: 3)
    var kernels: [(String, (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int, Float) -> Void)] = [
        ("portable", { softmaxRowF32Portable($0, $1, count: $2, beta: $3) })
    ]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { kernels.append(("avx2", { softmaxRowF32AVX2($0, $1, count: $2, beta: $3) })) }
    #endif
    for (name, kernel) in kernels {
        for count in Array(1 ... 40) + [1000, 4099] {
            for beta: Float in [1, 0.37, 4, -0.5] {
                let x = (0 ..< count).map { _ in Float.random(in: -12 ... 12, using: &rng) }
                let top = Double(beta > 0 ? x.max()! : x.min()!)
                let e = x.map { exp(Double(beta) * (Double($0) - top)) }
                let sum = e.reduce(0, +)
                var y = [Float](repeating: 0, count: count + 3)
                x.withUnsafeBufferPointer { xb in
                    y.withUnsafeMutableBufferPointer { kernel(xb.baseAddress!, $0.baseAddress!, count, beta) }
                }
                let worst = zip(y, e).map { abs(Double($0) - $1 / sum) }.max() ?? 0
                #expect(worst <= 1e-6, "\(name) softmax of \(count), beta \(beta): error \(worst)")
                #expect(y[count...].allSatisfy { $0 == 0 })
                var inPlace = x
                inPlace.withUnsafeMutableBufferPointer { kernel($0.baseAddress!, $0.baseAddress!, count, beta) }
                #expect(inPlace == Array(y[..<count]), "\(name) in place")
            }
        }
    }
}
