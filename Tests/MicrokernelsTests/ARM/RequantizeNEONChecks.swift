#if arch(arm64)
import Microkernels
import MicrokernelsNEON
import SeededRandom

/// An accumulator: the ends of `Int32` and values next to rounding ties now and then.
private func accumulator(_ rng: inout SplitMix64) -> Int32 {
    switch rng.next() % 8 {
    case 0: return [Int32.min, Int32.max, 0, -1, 1, Int32.min + 1][Int(rng.next() % 6)]
    case 1:
        return Int32.random(in: -(1 << 12) ... (1 << 12), using: &rng) * 4096
            + [-1, 0, 1, 2048, -2048][Int(rng.next() % 5)]
    default: return Int32.random(in: .min ... .max, using: &rng)
    }
}

/// `requantizeQ31NEON` gives TFLite's codes for every exponent the runtime accepts
/// (`left ∈ 0...30`, `R ∈ 0...31`), mantissas across `[0, 2^31)`, accumulators across
/// `Int32`, with and without a bias, over counts around its 16-, 4- and 1-channel steps
/// and the clamp ranges of the GEMM cases.
func checkRequantizeQ31NEON(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 0x51)
    for exponent in -31 ... 30 {
        for c in KernelCases.requantization {
            for count in [1, 3, 4, 5, 16, 21, 37] {
                let rows = 2, accStride = count + 3, outStride = count + 5
                let acc = (0 ..< rows * accStride).map { _ in accumulator(&rng) }
                let bias = (0 ..< count).map { _ in Int32.random(in: -5000 ... 5000, using: &rng) }
                // Per channel: this exponent, or another one of the same direction.
                let exponents = (0 ..< count).map { j in
                    j % 3 == 0
                        ? exponent
                        : exponent > 0
                            ? Int.random(in: 1 ... 30, using: &rng)
                            : Int.random(in: -31 ... 0, using: &rng)
                }
                let mantissas = (0 ..< count).map { j -> Int32 in
                    j % 5 == 4 ? [0, 1 << 30, Int32.max][j % 3] : Int32.random(in: 0 ... Int32.max, using: &rng)
                }
                let left = exponents.map { Int32(Swift.max($0, 0)) }, right = exponents.map { Int32(Swift.max(-$0, 0)) }
                let shiftsLeft = left.contains { $0 != 0 }
                for withBias in [false, true] {
                    var out = [UInt8](repeating: 0x55, count: rows * outStride)
                    acc.withUnsafeBufferPointer { a in
                        bias.withUnsafeBufferPointer { b in
                            out.withUnsafeMutableBytes { o in
                                requantizeQ31NEON(
                                    a.baseAddress!, rows: rows, count: count, accStride: accStride,
                                    bias: withBias ? b.baseAddress! : nil, mantissa: mantissas, left: left,
                                    shiftsLeft: shiftsLeft, right: right, outputZeroPoint: c.zp, lower: c.lower,
                                    upper: c.upper, into: o.baseAddress!, outStride: outStride)
                            }
                        }
                    }
                    for r in 0 ..< rows {
                        for j in 0 ..< count {
                            let x = acc[r * accStride + j] &+ (withBias ? bias[j] : 0)
                            let want = tfliteRequantize(
                                x, mantissa: mantissas[j], exponent: exponents[j], zp: c.zp, lower: c.lower,
                                upper: c.upper)
                            t.expect(
                                out[r * outStride + j] == UInt8(truncatingIfNeeded: want),
                                "exponent \(exponents[j]) mantissa \(mantissas[j]) acc \(x) zp \(c.zp) count \(count)")
                        }
                        for j in count ..< outStride {
                            t.expect(out[r * outStride + j] == 0x55, "count \(count): wrote past the row")
                        }
                    }
                }
            }
        }
    }
}

/// Exact ties of `RoundingDivideByPOT`, which round away from zero: with `M = 2^30` the
/// high multiply halves (`h = floor((s + 1) / 2)`), so accumulators `2h - 1` and `2h` give
/// every `h = ±(2q + 1)·2^(R-1)` chosen, for every right shift `R`.
func checkRequantizeQ31NEONTies(_ t: inout KernelCheck) {
    for r in 1 ... 31 {
        var acc = [Int32]()
        for q in [0, 1, 2, 5, 1000] {
            let h = (2 * Int64(q) + 1) << Int64(r - 1)
            for sign: Int64 in [1, -1] where h < (1 << 30) {
                acc += [Int32(2 * sign * h - 1), Int32(2 * sign * h)]
            }
        }
        let count = acc.count
        let mantissa = [Int32](repeating: 1 << 30, count: count), left = [Int32](repeating: 0, count: count)
        let right = [Int32](repeating: Int32(r), count: count)
        var out = [UInt8](repeating: 0, count: count)
        acc.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBytes { o in
                requantizeQ31NEON(
                    a.baseAddress!, rows: 1, count: count, accStride: count, bias: nil, mantissa: mantissa, left: left,
                    shiftsLeft: false, right: right, outputZeroPoint: 0, lower: -128, upper: 127, into: o.baseAddress!,
                    outStride: count)
            }
        }
        for j in 0 ..< count {
            let want = tfliteRequantize(acc[j], mantissa: 1 << 30, exponent: -r, zp: 0, lower: -128, upper: 127)
            t.expect(out[j] == UInt8(truncatingIfNeeded: want), "R \(r) acc \(acc[j])")
        }
    }
}

/// `requantizeF32NEON`: `round_even(clamp(Float(acc + bias) · scale)) + zp`.
func checkRequantizeF32NEON(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 0xf32)
    for count in [1, 3, 4, 5, 16, 21, 37] {
        for (zp, lower, upper): (Int32, Int32, Int32) in [(20, 0, 255), (-3, -128, 127), (0, -128, 0)] {
            let acc = (0 ..< count).map { _ in Int32.random(in: -99999 ... 99999, using: &rng) }
            let bias = (0 ..< count).map { _ in Int32.random(in: -500 ... 500, using: &rng) }
            // Scales that put many values on ties (k + 0.5) too.
            let scales = (0 ..< count).map { j in j % 4 == 0 ? Float(0.5) : Float.random(in: 1e-4 ... 1e-2, using: &rng)
            }
            var out = [UInt8](repeating: 0x55, count: count + 1)
            acc.withUnsafeBufferPointer { a in
                bias.withUnsafeBufferPointer { b in
                    out.withUnsafeMutableBytes { o in
                        requantizeF32NEON(
                            a.baseAddress!, rows: 1, count: count, accStride: count, bias: b.baseAddress!,
                            scale: scales, outputZeroPoint: zp, lower: lower, upper: upper, into: o.baseAddress!,
                            outStride: count)
                    }
                }
            }
            for j in 0 ..< count {
                let v = Swift.min(Swift.max(Float(acc[j] &+ bias[j]) * scales[j], Float(lower - zp)), Float(upper - zp))
                let want = Int32(v.rounded(.toNearestOrEven)) + zp
                t.expect(out[j] == UInt8(truncatingIfNeeded: want), "count \(count) zp \(zp) channel \(j)")
            }
            t.expect(out[count] == 0x55, "count \(count): wrote past the row")
        }
    }
}
#endif
