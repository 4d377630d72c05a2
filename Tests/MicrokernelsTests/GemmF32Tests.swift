import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#endif

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
/// The level's float GEMM (``KernelLevel/avx2`` or above).
private func gemmF32(_ level: KernelLevel) -> (
    Int, Int, Int, UnsafePointer<Float>, Int, UnsafePointer<Float>, Float, Float, UnsafeMutablePointer<Float>, Int
) -> Void {
    level >= .avx512
        ? { gemmF32x8x32AVX512(m: $0, n: $1, k: $2, a: $3, lda: $4, packedB: $5, lower: $6, upper: $7, c: $8, ldc: $9) }
        : { gemmF32x6x16AVX2(m: $0, n: $1, k: $2, a: $3, lda: $4, packedB: $5, lower: $6, upper: $7, c: $8, ldc: $9) }
}

/// `w` (`n` rows of `k`) and `bias` packed by ``GemmF32Layout``.
private func packF32(_ w: [Float], bias: [Float]?, n: Int, k: Int) -> [Float] {
    var packed = [Float](repeating: .nan, count: GemmF32Layout.packedCount(n: n, k: k) ?? 0)
    w.withUnsafeBufferPointer { wp in
        packed.withUnsafeMutableBufferPointer { p in
            if let bias {
                bias.withUnsafeBufferPointer {
                    GemmF32Layout.pack(weights: wp.baseAddress!, bias: $0.baseAddress, n: n, k: k, into: p.baseAddress!)
                }
            } else {
                GemmF32Layout.pack(weights: wp.baseAddress!, bias: nil, n: n, k: k, into: p.baseAddress!)
            }
        }
    }
    return packed
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"), arguments: [KernelLevel.avx2, .avx512])
func gemmF32MatchesDefinition(level: KernelLevel) {
    guard level <= KernelLevel.host else { return }
    var rng = SplitMix64(seed: 7)
    for (m, n, k) in KernelCases.gemmF32 {
        for (withBias, lower, upper) in [(false, -Float.infinity, Float.infinity), (true, 0, 6)] {
            let a = (0 ..< m * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let w = (0 ..< n * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let bias = withBias ? (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) } : nil
            let packed = packF32(w, bias: bias, n: n, k: k)
            let ldc = n + 2
            var c = [Float](repeating: 42, count: m * ldc)
            a.withUnsafeBufferPointer { ap in
                packed.withUnsafeBufferPointer { p in
                    c.withUnsafeMutableBufferPointer { cp in
                        gemmF32(level)(m, n, k, ap.baseAddress!, k, p.baseAddress!, lower, upper, cp.baseAddress!, ldc)
                    }
                }
            }
            let expected = referenceGemmF32(m: m, n: n, k: k, a: a, w: w, bias: bias, lower: lower, upper: upper)
            for i in 0 ..< m {
                for j in 0 ..< ldc {
                    let got = c[i * ldc + j]
                    if j < n {
                        #expect(
                            abs(got - expected[i * n + j]) <= 1e-5 * Float(k + 1),
                            "\(level) m \(m) n \(n) k \(k) C[\(i), \(j)]")
                    } else {
                        #expect(got == 42, "\(level) m \(m) n \(n) k \(k): wrote past column \(n - 1)")
                    }
                }
            }
        }
    }
}

/// A NaN in a row reaches its outputs through the clamp, with or without an activation
/// range, as TFLite's `min(max(v, lower), upper)` passes it; other rows stay finite.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"), arguments: [KernelLevel.avx2, .avx512])
func gemmF32PassesNaNThroughTheClamp(level: KernelLevel) {
    guard level <= KernelLevel.host else { return }
    let m = 7, n = 21, k = 5
    var a = [Float](repeating: 0.5, count: m * k)
    a[3 * k + 2] = .nan
    let packed = packF32([Float](repeating: 1, count: n * k), bias: nil, n: n, k: k)
    for (lower, upper) in [(-Float.infinity, Float.infinity), (0, 6)] {
        var c = [Float](repeating: 0, count: m * n)
        a.withUnsafeBufferPointer { ap in
            packed.withUnsafeBufferPointer { p in
                c.withUnsafeMutableBufferPointer { cp in
                    gemmF32(level)(m, n, k, ap.baseAddress!, k, p.baseAddress!, lower, upper, cp.baseAddress!, n)
                }
            }
        }
        for i in 0 ..< m {
            for j in 0 ..< n {
                #expect(
                    i == 3 ? c[i * n + j].isNaN : c[i * n + j] == 2.5, "\(level) C[\(i), \(j)] in [\(lower), \(upper)]")
            }
        }
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"), arguments: [KernelLevel.avx2, .avx512])
func gemmF32RowSplitDoesNotChangeResults(level: KernelLevel) {
    guard level <= KernelLevel.host else { return }
    // Every output is one chain of FMAs in depth order whichever block computes it, so rows
    // computed in any split (as threads split tiles) are bit-identical to one call's.
    var rng = SplitMix64(seed: 19)
    let m = 45, n = 40, k = 33
    let a = (0 ..< m * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
    let w = (0 ..< n * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
    let bias = (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) }
    let packed = packF32(w, bias: bias, n: n, k: k)
    func run(splits: [Int]) -> [Float] {
        var c = [Float](repeating: 0, count: m * n)
        a.withUnsafeBufferPointer { ap in
            packed.withUnsafeBufferPointer { p in
                c.withUnsafeMutableBufferPointer { cp in
                    var first = 0
                    for count in splits {
                        gemmF32(level)(
                            count, n, k, ap.baseAddress! + first * k, k, p.baseAddress!, -.infinity, .infinity,
                            cp.baseAddress! + first * n, n)
                        first += count
                    }
                }
            }
        }
        return c
    }
    let whole = run(splits: [m])
    for splits in [[1, 44], [7, 7, 31], [23, 22], [3, 5, 9, 13, 15]] {
        #expect(run(splits: splits) == whole, "\(level) rows split as \(splits)")
    }
}
#endif

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func gemvF32AVX2MatchesDefinition() {
    var rng = SplitMix64(seed: 11)
    for (n, k) in KernelCases.gemvF32 {
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
/// The packed matrix-vector kernel does the row-major one's operations in the same order,
/// so both give the same bits, for any row count and from any block the rows start at.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func gemvF32x4PackedEqualsRowMajor() {
    var rng = SplitMix64(seed: 12)
    for (n, k) in KernelCases.gemvF32Packed {
        let x = (0 ..< k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
        let w = (0 ..< n * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
        let bias = (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) }
        var packed = [Float](repeating: .nan, count: GemvF32Layout.packedCount(n: n, k: k)!)
        var expected = [Float](repeating: .nan, count: n), got = [Float](repeating: .nan, count: n + 1)
        x.withUnsafeBufferPointer { xp in
            w.withUnsafeBufferPointer { wp in
                bias.withUnsafeBufferPointer { bp in
                    packed.withUnsafeMutableBufferPointer { pp in
                        GemvF32Layout.pack(weights: wp.baseAddress!, n: n, k: k, into: pp.baseAddress!)
                    }
                    expected.withUnsafeMutableBufferPointer { yp in
                        gemvF32AVX2(
                            n: n, k: k, x: xp.baseAddress!, w: wp.baseAddress!, ldw: k, bias: bp.baseAddress!,
                            lower: -0.5, upper: 0.5, y: yp.baseAddress!)
                    }
                    // Rows from 0, and from the second block when there is one.
                    for first in [0, 4] where first < n {
                        packed.withUnsafeBufferPointer { pp in
                            got.withUnsafeMutableBufferPointer { yp in
                                gemvF32x4PackedAVX2(
                                    n: n - first, k: k, x: xp.baseAddress!, packed: pp.baseAddress! + first * k,
                                    bias: bp.baseAddress! + first, lower: -0.5, upper: 0.5,
                                    y: yp.baseAddress! + first)
                            }
                        }
                        #expect(Array(got[first ..< n]) == Array(expected[first ..< n]), "n \(n) k \(k) from \(first)")
                    }
                }
            }
        }
        #expect(got[n].isNaN, "n \(n) k \(k): wrote past the last output")
    }
}
#endif
