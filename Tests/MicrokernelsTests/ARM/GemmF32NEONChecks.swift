#if arch(arm64)
import Microkernels
import MicrokernelsNEON
import SeededRandom

/// `w` (`n` rows of `k`) and `bias` packed by ``GemmF32Layout`` in 12-column panels.
private func packF32x12(_ w: [Float], bias: [Float]?, n: Int, k: Int) -> [Float] {
    var packed = [Float](repeating: .nan, count: GemmF32Layout.packedCount(n: n, k: k, width: 12) ?? 0)
    w.withUnsafeBufferPointer { wp in
        packed.withUnsafeMutableBufferPointer { p in
            if let bias {
                bias.withUnsafeBufferPointer {
                    GemmF32Layout.pack(
                        weights: wp.baseAddress!, bias: $0.baseAddress, n: n, k: k, width: 12, into: p.baseAddress!)
                }
            } else {
                GemmF32Layout.pack(weights: wp.baseAddress!, bias: nil, n: n, k: k, width: 12, into: p.baseAddress!)
            }
        }
    }
    return packed
}

/// `gemmF32x8x12NEON` on `a` (`m × k`, row stride `k`), `c` with `ldc` columns.
private func gemmF32NEON(
    m: Int, n: Int, k: Int, a: [Float], packed: [Float], lower: Float, upper: Float, c: inout [Float], first: Int = 0,
    ldc: Int
) {
    a.withUnsafeBufferPointer { ap in
        packed.withUnsafeBufferPointer { p in
            c.withUnsafeMutableBufferPointer { cp in
                gemmF32x8x12NEON(
                    m: m, n: n, k: k, a: ap.baseAddress! + first * k, lda: k, packedB: p.baseAddress!, lower: lower,
                    upper: upper, c: cp.baseAddress! + first * ldc, ldc: ldc)
            }
        }
    }
}

/// The 12-column panels: bias first, then one 12-wide row per depth, padding zero.
func checkGemmF32PackingTwelveWide(_ t: inout KernelCheck) {
    let n = 13, k = 2
    let w: [Float] = (0 ..< n * k).map { Float($0) }
    let bias: [Float] = (0 ..< n).map { Float(-1 - $0) }
    let packed = packF32x12(w, bias: bias, n: n, k: k)
    t.expect(packed.count == 2 * 12 * 3, "packed count \(packed.count)")
    t.expect(packed[0] == -1 && packed[11] == -12, "bias of columns 0...11")
    t.expect(packed[12] == 0 && packed[13] == 2 && packed[24] == 1, "depths of columns 0 and 1")
    t.expect(packed[36] == -13 && packed[37] == 0, "panel 1: column 12's bias, then padding")
    t.expect(packed[48] == 24 && packed[60] == 25, "panel 1: column 12's depths")
}

/// `gemmF32x8x12NEON` against the definition on every float GEMM shape, with and without
/// bias and clamp; columns past `n` untouched.
func checkGemmF32NEON(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 7)
    for (m, n, k) in KernelCases.gemmF32 {
        for (withBias, lower, upper) in [(false, -Float.infinity, Float.infinity), (true, Float(0), Float(6))] {
            let a = (0 ..< m * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let w = (0 ..< n * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let bias = withBias ? (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) } : nil
            let packed = packF32x12(w, bias: bias, n: n, k: k)
            let ldc = n + 2
            var c = [Float](repeating: 42, count: m * ldc)
            gemmF32NEON(m: m, n: n, k: k, a: a, packed: packed, lower: lower, upper: upper, c: &c, ldc: ldc)
            let expected = referenceGemmF32(m: m, n: n, k: k, a: a, w: w, bias: bias, lower: lower, upper: upper)
            for i in 0 ..< m {
                for j in 0 ..< ldc {
                    let got = c[i * ldc + j]
                    if j < n {
                        t.expect(
                            abs(got - expected[i * n + j]) <= 1e-5 * Float(k + 1), "m \(m) n \(n) k \(k) C[\(i), \(j)]")
                    } else {
                        t.expect(got == 42, "m \(m) n \(n) k \(k): wrote past column \(n - 1)")
                    }
                }
            }
        }
    }
}

/// Every output is one chain of FMAs in depth order whichever path (block of 8, of 4,
/// single row) computes it, so any split of the rows gives the same bits.
func checkGemmF32NEONRowSplit(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 19)
    let m = 45, n = 40, k = 33
    let a = (0 ..< m * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
    let w = (0 ..< n * k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
    let bias = (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) }
    let packed = packF32x12(w, bias: bias, n: n, k: k)
    func run(splits: [Int]) -> [Float] {
        var c = [Float](repeating: 0, count: m * n)
        var first = 0
        for count in splits {
            gemmF32NEON(
                m: count, n: n, k: k, a: a, packed: packed, lower: -.infinity, upper: .infinity, c: &c, first: first,
                ldc: n)
            first += count
        }
        return c
    }
    let whole = run(splits: [m])
    for splits in [[1, 44], [7, 7, 31], [23, 22], [3, 5, 9, 13, 15]] {
        t.expect(run(splits: splits) == whole, "rows split as \(splits)")
    }
}

/// `gemvF32NEON` against the definition; nothing written past the last output.
func checkGemvF32NEON(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 11)
    for (n, k) in KernelCases.gemvF32 {
        for (withBias, lower, upper) in [(false, -Float.infinity, Float.infinity), (true, Float(-1), Float(1))] {
            let x = (0 ..< k).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let ldw = k + 3
            let w = (0 ..< n * ldw).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let bias = (0 ..< n).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            var y = [Float](repeating: .nan, count: n + 1)
            x.withUnsafeBufferPointer { xp in
                w.withUnsafeBufferPointer { wp in
                    bias.withUnsafeBufferPointer { bp in
                        y.withUnsafeMutableBufferPointer { yp in
                            gemvF32NEON(
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
                t.expect(abs(y[o] - expected) <= 1e-5 * Float(k + 1), "n \(n) k \(k) y[\(o)]")
            }
            t.expect(y[n].isNaN, "n \(n) k \(k): wrote past the last output")
        }
    }
}

/// The packed matrix-vector kernel gives the row-major one's bits, from any block.
func checkGemvF32x4PackedNEON(_ t: inout KernelCheck) {
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
                        gemvF32NEON(
                            n: n, k: k, x: xp.baseAddress!, w: wp.baseAddress!, ldw: k, bias: bp.baseAddress!,
                            lower: -0.5, upper: 0.5, y: yp.baseAddress!)
                    }
                    for first in [0, 4] where first < n {
                        packed.withUnsafeBufferPointer { pp in
                            got.withUnsafeMutableBufferPointer { yp in
                                gemvF32x4PackedNEON(
                                    n: n - first, k: k, x: xp.baseAddress!, packed: pp.baseAddress! + first * k,
                                    bias: bp.baseAddress! + first, lower: -0.5, upper: 0.5,
                                    y: yp.baseAddress! + first)
                            }
                        }
                        t.expect(Array(got[first ..< n]) == Array(expected[first ..< n]), "n \(n) k \(k) from \(first)")
                    }
                }
            }
        }
        t.expect(got[n].isNaN, "n \(n) k \(k): wrote past the last output")
    }
}
#endif
