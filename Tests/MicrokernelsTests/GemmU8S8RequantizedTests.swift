#if arch(x86_64)
import Microkernels
import MicrokernelsAVX512
import SeededRandom
import Testing

/// `A` (`m × k`) as rows padded to the GEMM's depth (padding bytes arbitrary) and `B`
/// (`n × k`) packed.
private func gemmOperands(m: Int, n: Int, k: Int, a: [UInt8], b: [Int8]) -> (Int, [UInt8], [Int8]) {
    let kp = GemmU8S8Layout.paddedDepth(k)
    var rows = [UInt8](repeating: 0x3C, count: m * kp)
    for i in 0 ..< m { for d in 0 ..< k { rows[i * kp + d] = a[i * k + d] } }
    var packed = [Int8](repeating: 0, count: GemmU8S8Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmU8S8Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in b[j * k + d] }
    }
    return (kp, rows, packed)
}

/// The GEMM with the requantization in its epilogue gives TFLite's codes for the exact sums
/// `initial + bias + A·Bᵀ`: with left shifts, with the saturating store (int8 over its whole
/// range, every `R ≥ 1`) and with neither, on shapes with short blocks and narrow panels.
@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemmU8S8RequantizeQ31MatchesReference() {
    var rng = SplitMix64(seed: 0x5eed)
    for (index, s) in KernelCases.gemmQ8Requantized.enumerated() {
        let (m, n, k) = s
        for c in KernelCases.requantization {
            let a = (0 ..< m * k).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let b = (0 ..< n * k).map { _ in Int8.random(in: -128 ... 127, using: &rng) }
            // Sums across the whole Int32 range now and then, so the clamp and the wrap matter.
            let initial = (0 ..< n).map { _ in
                rng.next() % 4 == 0
                    ? Int32.random(in: .min ... .max, using: &rng) : Int32.random(in: -9999 ... 9999, using: &rng)
            }
            let bias = (0 ..< n).map { _ in Int32.random(in: -5000 ... 5000, using: &rng) }
            let exponents = (0 ..< n).map { _ in Int.random(in: c.exponents, using: &rng) }
            let mantissas = (0 ..< n).map { _ in Int32.random(in: (1 << 30) ... Int32.max, using: &rng) }
            let left = exponents.map { Int32(Swift.max($0, 0)) }, right = exponents.map { Int32(Swift.max(-$0, 0)) }
            let (kp, rows, packed) = gemmOperands(m: m, n: n, k: k, a: a, b: b)
            let stride = n + 5
            var out = [Int8](repeating: 0x55, count: m * stride)
            out.withUnsafeMutableBytes { o in
                gemmU8S8x8x16c4RequantizeQ31AVX512VNNI(
                    m: m, n: n, kp: kp, a: rows, lda: kp, packedB: packed, initial: initial, bias: bias,
                    mantissa: mantissas, left: left, shiftsLeft: left.contains { $0 != 0 }, right: right,
                    outputZeroPoint: c.zp, lower: c.lower, upper: c.upper, saturating: c.saturating,
                    into: o.baseAddress!, outStride: stride)
            }
            for i in 0 ..< m {
                for j in 0 ..< n {
                    var sum = initial[j] &+ bias[j]
                    for d in 0 ..< k { sum = sum &+ Int32(a[i * k + d]) &* Int32(b[j * k + d]) }
                    let expected = tfliteRequantize(
                        sum, mantissa: mantissas[j], exponent: exponents[j], zp: c.zp, lower: c.lower, upper: c.upper)
                    #expect(
                        out[i * stride + j] == Int8(truncatingIfNeeded: expected),
                        "shape \(index) case \(c) row \(i) column \(j) sum \(sum)")
                }
                for j in n ..< stride { #expect(out[i * stride + j] == 0x55) }
            }
        }
    }
}

/// The float32 epilogue rounds `Float(sum)·scale` to nearest even after the clamp.
@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemmU8S8RequantizeF32MatchesDefinition() {
    var rng = SplitMix64(seed: 0xf32)
    let (m, n, k) = (11, 37, 19)
    let a = (0 ..< m * k).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
    let b = (0 ..< n * k).map { _ in Int8.random(in: -128 ... 127, using: &rng) }
    let initial = (0 ..< n).map { _ in Int32.random(in: -99999 ... 99999, using: &rng) }
    let scales = (0 ..< n).map { _ in Float.random(in: 1e-4 ... 1e-2, using: &rng) }
    let (kp, rows, packed) = gemmOperands(m: m, n: n, k: k, a: a, b: b)
    var out = [UInt8](repeating: 0, count: m * n)
    out.withUnsafeMutableBytes { o in
        gemmU8S8x8x16c4RequantizeF32AVX512VNNI(
            m: m, n: n, kp: kp, a: rows, lda: kp, packedB: packed, initial: initial, bias: nil, scale: scales,
            outputZeroPoint: 20, lower: 0, upper: 255, into: o.baseAddress!, outStride: n)
    }
    for i in 0 ..< m {
        for j in 0 ..< n {
            var sum = initial[j]
            for d in 0 ..< k { sum = sum &+ Int32(a[i * k + d]) &* Int32(b[j * k + d]) }
            let v = Swift.min(Swift.max(Float(sum) * scales[j], -20), 235)
            #expect(Int32(out[i * n + j]) == Int32(v.rounded(.toNearestOrEven)) + 20, "row \(i) column \(j)")
        }
    }
}
#endif
