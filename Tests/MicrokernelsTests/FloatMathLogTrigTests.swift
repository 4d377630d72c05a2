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

/// The map loops of every level this CPU runs.
private func mapLevels() -> [(String, (FloatFunction, UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void)]
{
    var levels: [(String, (FloatFunction, UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void)] = [
        ("portable", { floatMapPortable($0, $1, $2, count: $3) })
    ]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { levels.append(("avx2", { floatMapAVX2($0, $1, $2, count: $3) })) }
    #endif
    return levels
}

/// `f` of every element of `x` through `kernel`.
private func run(
    _ f: FloatFunction, _ x: [Float],
    _ kernel: (FloatFunction, UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void
) -> [Float] {
    var y = [Float](repeating: 0, count: x.count)
    x.withUnsafeBufferPointer { xb in
        y.withUnsafeMutableBufferPointer { yb in kernel(f, xb.baseAddress!, yb.baseAddress!, x.count) }
    }
    return y
}

/// `|got - want|` in units of the last place of the float nearest `want` (subnormal ulps
/// below the normal range).
private func ulps(_ got: Float, _ want: Double) -> Double {
    let nearest = Float(want)
    let ulp = nearest == 0 ? Double(Float.leastNonzeroMagnitude) : Double(nearest.ulp)
    return abs(Double(got) - want) / ulp
}

/// Every `stride`-th positive float bit pattern in `bits`, as floats.
private func floats(_ bits: ClosedRange<UInt32>, stride step: UInt32) -> [Float] {
    Swift.stride(from: bits.lowerBound, through: bits.upperBound, by: Int(step)).map { Float(bitPattern: $0) }
}

@Test func logIsWithinTwoUlpOverTheWholeRange() {
    // Every 509th positive float: subnormals, normals up to the largest finite.
    let x =
        floats(1 ... 0x7F7F_FFFF, stride: 509) + [1, 2, 0.5, Float(0.5).squareRoot(), Float(2).squareRoot(), 0x1p-126]
    for (name, kernel) in mapLevels() {
        let y = run(.log, x, kernel)
        var worst = 0.0, worstAt: Float = 0
        for (v, got) in zip(x, y) {
            let e = ulps(got, doubleLog(Double(v)))
            if e > worst { (worst, worstAt) = (e, v) }
        }
        #expect(worst <= 2, "\(name) ln: \(worst) ulp at \(worstAt)")
    }
}

@Test func logSpecialValues() {
    let x: [Float] = [
        0, -0.0, -1, -.leastNonzeroMagnitude, -.infinity, .infinity, .nan, -.nan, 1, .leastNonzeroMagnitude,
    ]
    for (name, kernel) in mapLevels() {
        let y = run(.log, x, kernel)
        #expect(y[0] == -.infinity && y[1] == -.infinity, "\(name) ln(±0) = \(y[0]), \(y[1])")
        #expect(y[2 ... 4].allSatisfy { $0.isNaN } && y[6].isNaN && y[7].isNaN, "\(name) ln(<0), ln(NaN): \(y)")
        #expect(y[5] == .infinity && y[8] == 0, "\(name) ln(∞) = \(y[5]), ln(1) = \(y[8])")
        #expect(abs(Double(y[9]) - doubleLog(Double(Float.leastNonzeroMagnitude))) < 1e-5, "\(name) \(y[9])")
    }
}

/// Sine and cosine against double precision up to the reduction limit: absolute error at
/// most 1.5e-7 everywhere, and within 2 ulp where no reduction happens (`|x| < π/4`).
@Test(arguments: [FloatFunction.sin, .cos])
func sinCosAreAccurateUpToTheReductionLimit(_ f: FloatFunction) {
    let limit = FloatMath<SeparateMultiplyAdd>.sinCosReductionLimit
    let positive = floats(0 ... limit.bitPattern, stride: 331)
    let mirrored: [Float] = positive.map { -$0 }
    let near: [Float] = stride(from: Float(-20), through: 20, by: 0.001).map { $0 }
    let x = positive + mirrored + near
    let cosine = f == .cos
    for (name, kernel) in mapLevels() {
        let y = run(f, x, kernel)
        var worst = 0.0, worstAt: Float = 0, worstUlps = 0.0, worstUlpsAt: Float = 0
        for (v, got) in zip(x, y) {
            let want = cosine ? doubleCos(Double(v)) : doubleSin(Double(v))
            let e = abs(Double(got) - want)
            if e > worst { (worst, worstAt) = (e, v) }
            if abs(v) < 0.78, ulps(got, want) > worstUlps { (worstUlps, worstUlpsAt) = (ulps(got, want), v) }
        }
        #expect(worst <= 1.5e-7, "\(name) \(f): error \(worst) at \(worstAt)")
        #expect(worstUlps <= 2, "\(name) \(f): \(worstUlps) ulp at \(worstUlpsAt)")
    }
}

/// Beyond the reduction limit the loops hand the element to the C library: its results,
/// bit for bit; ±∞ and NaN give NaN.
@Test(arguments: [FloatFunction.sin, .cos])
func sinCosBeyondTheLimitUseTheCLibrary(_ f: FloatFunction) {
    var x: [Float] = [6433.5, -6434, 1e4, -3.0e5, 1e30, -.greatestFiniteMagnitude, 12345.678, 0.25]
    x += stride(from: Float(6000), through: 7000, by: 0.37).map { $0 }
    let special: [Float] = [.infinity, -.infinity, .nan]
    for (name, kernel) in mapLevels() {
        let y = run(f, x + special, kernel)
        for (v, got) in zip(x, y) where abs(v) > FloatMath<SeparateMultiplyAdd>.sinCosReductionLimit {
            let want = f == .sin ? sinf(v) : cosf(v)
            #expect(got.bitPattern == want.bitPattern, "\(name) \(f)(\(v)) = \(got), C library \(want)")
        }
        #expect(y.suffix(3).allSatisfy { $0.isNaN }, "\(name) \(f)(±∞, NaN) = \(Array(y.suffix(3)))")
    }
}

/// The portable level's `1 / x.squareRoot()` is within 1.5 ulp (two correct roundings);
/// AVX2's estimate and Newton step within 4 (``reciprocalSquareRootAVX2(_:_:count:)``).
@Test func reciprocalSquareRootIsAccurate() {
    let x =
        floats(1 ... 0x7F7F_FFFF, stride: 1021) + [
            Float(bitPattern: 1), Float(bitPattern: 0x0040_0000), Float(bitPattern: 0x007F_FFFF), 0x1p-126,
        ]
    for (name, kernel) in mapLevels() {
        let y = run(.reciprocalSquareRoot, x, kernel)
        let worst = zip(x, y).map { ulps($1, 1 / Double($0).squareRoot()) }.max() ?? 0
        #expect(worst <= (name == "portable" ? 1.5 : 4), "\(name) 1/√x: \(worst) ulp")
        let s = run(.reciprocalSquareRoot, [0, -0.0, .infinity, -1, -.infinity, .nan, 4], kernel)
        #expect(s[0] == .infinity && s[1] == -.infinity && s[2] == 0 && abs(s[6] - 0.5) < 1e-6, "\(name) \(s)")
        #expect(s[3 ... 5].allSatisfy { $0.isNaN }, "\(name) \(s)")
    }
}

/// Every length 0...15 (every vector tail) at several offsets: each element as the whole
/// sweep's bound says, nothing outside the output written.
@Test(arguments: [FloatFunction.log, .sin, .cos, .reciprocalSquareRoot])
func tailsAndOffsets(_ f: FloatFunction) {
    var rng = SplitMix64(seed: 5)
    let pool = (0 ..< 40).map { _ in
        Float.random(in: f == .log || f == .reciprocalSquareRoot ? 0.001 ... 50 : -50 ... 50, using: &rng)
    }
    for (name, kernel) in mapLevels() {
        for offset in 0 ..< 4 {
            for count in 0 ... 15 {
                let x = Array(pool[offset ..< offset + count])
                var out = [Float](repeating: 99, count: offset + count + 4)
                // One element past the end, so the buffer of an empty row has an address.
                (x + [1]).withUnsafeBufferPointer { xb in
                    out.withUnsafeMutableBufferPointer { kernel(f, xb.baseAddress!, $0.baseAddress! + offset, count) }
                }
                #expect(out[..<offset].allSatisfy { $0 == 99 } && out[(offset + count)...].allSatisfy { $0 == 99 })
                for (i, v) in x.enumerated() {
                    let d = Double(v)
                    let want: Double =
                        switch f {
                        case .log: doubleLog(d)
                        case .sin: doubleSin(d)
                        case .cos: doubleCos(d)
                        default: 1 / d.squareRoot()
                        }
                    #expect(abs(Double(out[offset + i]) - want) <= 5e-7 * max(1, abs(want)), "\(name) \(f)(\(v))")
                }
            }
        }
    }
}

/// LOG_SOFTMAX rows against double precision: every length 1...40, the stack block's
/// edges and long rows, in place too.
@Test func logSoftmaxRowsMatchDoubleReference() {
    var rng = SplitMix64(seed: 9)
    var kernels: [(String, (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void)] = [
        ("portable", { logSoftmaxRowF32Portable($0, $1, count: $2) })
    ]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { kernels.append(("avx2", { logSoftmaxRowF32AVX2($0, $1, count: $2) })) }
    #endif
    for (name, kernel) in kernels {
        for count in Array(1 ... 40) + [255, 256, 257, 1000, 4099] {
            let x = (0 ..< count).map { _ in Float.random(in: -30 ... 30, using: &rng) }
            let top = Double(x.max()!)
            let logSum = doubleLog(x.map { doubleExp(Double($0) - top) }.reduce(0, +))
            var y = [Float](repeating: 0, count: count + 3)
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeMutableBufferPointer { kernel(xb.baseAddress!, $0.baseAddress!, count) }
            }
            let worst =
                zip(y, x).map { abs(Double($0) - (Double($1) - top - logSum)) / max(1, abs(Double($1) - top - logSum)) }
                .max() ?? 0
            #expect(worst <= 1e-6, "\(name) log softmax of \(count): error \(worst)")
            #expect(y[count...].allSatisfy { $0 == 0 })
            var inPlace = x
            inPlace.withUnsafeMutableBufferPointer { kernel($0.baseAddress!, $0.baseAddress!, count) }
            #expect(inPlace == Array(y[..<count]), "\(name) in place")
        }
    }
}

private func doubleLog(_ x: Double) -> Double { log(x) }
private func doubleSin(_ x: Double) -> Double { sin(x) }
private func doubleCos(_ x: Double) -> Double { cos(x) }
private func doubleExp(_ x: Double) -> Double { exp(x) }
