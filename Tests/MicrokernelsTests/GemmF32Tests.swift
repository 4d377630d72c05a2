import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// `clamp(bias + A·Bᵀ)` in Double, the definition the float GEMMs are held to.
private func referenceGemmF32(
    m: Int, n: Int, k: Int, a: [Float], w: [Float], bias: [Float]?,
    lower: Float, upper: Float
) -> [Float] {
    var c = [Float](repeating: 0, count: m * n)
    for i in 0 ..< m {
        for j in 0 ..< n {
            var s = Double(bias?[j] ?? 0)
            for d in 0 ..< k { s += Double(a[i * k + d]) * Double(w[j * k + d]) }
            c[i * n + j] = Swift.min(Swift.max(Float(s), lower), upper)
        }
    }
    return c
}

@Test func gemmF32PackingPutsBiasFirst() {
    let n = 17, k = 2
    let w: [Float] = (0 ..< n * k).map { Float($0) }
    let bias: [Float] = (0 ..< n).map { Float(-1 - $0) }
    var packed = [Float](repeating: .nan, count: GemmF32Layout.packedCount(n: n, k: k) ?? 0)
    #expect(packed.count == 2 * 16 * 3)
    w.withUnsafeBufferPointer { wp in
        bias.withUnsafeBufferPointer { bp in
            packed.withUnsafeMutableBufferPointer { p in
                GemmF32Layout.pack(weights: wp.baseAddress!, bias: bp.baseAddress!, n: n, k: k, into: p.baseAddress!)
            }
        }
    }
    #expect(packed[0] == -1 && packed[15] == -16) // bias of columns 0...15
    #expect(packed[16] == 0 && packed[17] == 2) // depth 0 of columns 0 and 1
    #expect(packed[32] == 1) // depth 1 of column 0
    #expect(packed[48] == -17 && packed[49] == 0) // panel 1: column 16's bias, then padding
    #expect(packed[64] == 32 && packed[80] == 33)
}

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func gemmF32AVX2MatchesDefinition() {
    var rng = SplitMix64(seed: 7)
    let shapes: [(Int, Int, Int)] = [
        (1, 1, 1), (5, 16, 3), (6, 17, 8), (13, 40, 27), (100, 33, 64), (200, 96, 16), (7, 1001, 5),
    ]
    for (m, n, k) in shapes {
        for (withBias, lower, upper) in [(false, -Float.infinity, Float.infinity), (true, 0, 6)] {
            let a = (0 ..< m * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let w = (0 ..< n * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let bias = withBias ? (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) } : nil
            var packed = [Float](repeating: .nan, count: GemmF32Layout.packedCount(n: n, k: k) ?? 0)
            w.withUnsafeBufferPointer { wp in
                packed.withUnsafeMutableBufferPointer { p in
                    if let bias {
                        bias.withUnsafeBufferPointer {
                            GemmF32Layout.pack(
                                weights: wp.baseAddress!, bias: $0.baseAddress, n: n, k: k, into: p.baseAddress!)
                        }
                    } else {
                        GemmF32Layout.pack(weights: wp.baseAddress!, bias: nil, n: n, k: k, into: p.baseAddress!)
                    }
                }
            }
            let ldc = n + 2
            var c = [Float](repeating: 42, count: m * ldc)
            a.withUnsafeBufferPointer { ap in
                packed.withUnsafeBufferPointer { p in
                    c.withUnsafeMutableBufferPointer { cp in
                        gemmF32x6x16AVX2(
                            m: m, n: n, k: k, a: ap.baseAddress!, lda: k, packedB: p.baseAddress!, lower: lower,
                            upper: upper,
                            c: cp.baseAddress!, ldc: ldc)
                    }
                }
            }
            let expected = referenceGemmF32(m: m, n: n, k: k, a: a, w: w, bias: bias, lower: lower, upper: upper)
            for i in 0 ..< m {
                for j in 0 ..< ldc {
                    let got = c[i * ldc + j]
                    if j < n {
                        #expect(
                            abs(got - expected[i * n + j]) <= 1e-5 * Float(k + 1), "m \(m) n \(n) k \(k) C[\(i), \(j)]")
                    } else {
                        #expect(got == 42, "m \(m) n \(n) k \(k): wrote past column \(n - 1)")
                    }
                }
            }
        }
    }
}
#endif

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func gemvF32AVX2MatchesDefinition() {
    var rng = SplitMix64(seed: 11)
    for (n, k) in [(1, 1), (3, 7), (4, 8), (5, 9), (13, 64), (1001, 37), (9, 1280)] {
        for (withBias, lower, upper) in [(false, -Float.infinity, Float.infinity), (true, -1, 1)] {
            let x = (0 ..< k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let ldw = k + 3
            let w = (0 ..< n * ldw).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let bias = (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            var y = [Float](repeating: .nan, count: n + 1)
            x.withUnsafeBufferPointer { xp in
                w.withUnsafeBufferPointer { wp in
                    bias.withUnsafeBufferPointer { bp in
                        y.withUnsafeMutableBufferPointer { yp in
                            gemvF32AVX2(
                                n: n, k: k, x: xp.baseAddress!, w: wp.baseAddress!, ldw: ldw,
                                bias: withBias ? bp.baseAddress! : nil, lower: lower, upper: upper, y: yp.baseAddress!)
                        }
                    }
                }
            }
            for o in 0 ..< n {
                var s = Double(withBias ? bias[o] : 0)
                for d in 0 ..< k { s += Double(w[o * ldw + d]) * Double(x[d]) }
                let expected = Swift.min(Swift.max(Float(s), lower), upper)
                #expect(abs(y[o] - expected) <= 1e-5 * Float(k + 1), "n \(n) k \(k) y[\(o)]")
            }
            #expect(y[n].isNaN, "n \(n) k \(k): wrote past the last output")
        }
    }
}
#endif
