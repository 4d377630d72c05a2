#if arch(x86_64)
import Microkernels
import MicrokernelsAVX512
import SeededRandom
import Testing

/// TFLite's `MultiplyByQuantizedMultiplier` as the reference kernels write it: a wrapping
/// left shift, `SaturatingRoundingDoublingHighMul` (nudge by sign, truncating division),
/// then `RoundingDivideByPOT`; then the zero point and the clamp.
private func tfliteRequantize(_ acc: Int32, mantissa: Int32, exponent: Int, zp: Int32, lower: Int32, upper: Int32)
    -> Int32
{
    let x = acc &<< Int32(Swift.max(exponent, 0))
    let ab = Int64(x) * Int64(mantissa)
    let nudge: Int64 = ab >= 0 ? 1 << 30 : 1 - (1 << 30)
    let h = Int32(truncatingIfNeeded: (ab + nudge) / (1 << 31))
    let right = Int32(Swift.max(-exponent, 0))
    let mask = Int32(truncatingIfNeeded: (Int64(1) << right) - 1)
    let threshold = (mask >> 1) + (h < 0 ? 1 : 0)
    let r = (h >> right) + ((h & mask) > threshold ? 1 : 0)
    return Swift.min(Swift.max(Int64(r) + Int64(zp), Int64(lower)), Int64(upper)).toInt32
}

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

extension Int64 {
    fileprivate var toInt32: Int32 { Int32(truncatingIfNeeded: self) }
}

/// The GEMM with the requantization in its epilogue gives TFLite's codes for the exact sums
/// `initial + bias + A·Bᵀ`: with left shifts, with the saturating store (int8 over its whole
/// range, every `R ≥ 1`) and with neither, on shapes with short blocks and narrow panels.
@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemmU8S8RequantizeQ31MatchesReference() {
    var rng = SplitMix64(seed: 0x5eed)
    let cases: [(exponents: ClosedRange<Int>, zp: Int32, lower: Int32, upper: Int32, saturating: Bool)] = [
        (-14 ... -1, -7, -128, 127, true), (-14 ... -1, 100, -128, 127, true), (-3 ... 4, 3, -128, 127, false),
        (-12 ... -1, -128, -128, -20, false), (-9 ... 0, 0, 0, 255, false),
    ]
    for (index, s) in [(1, 1, 1), (5, 17, 9), (9, 48, 2), (13, 40, 27), (17, 31, 6), (16, 64, 75), (3, 100, 300)]
        .enumerated()
    {
        let (m, n, k) = s
        for c in cases {
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
