import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Each primitive against an oracle computed a different way: exact Double or
/// magnitude-based integer rounding instead of the nudge/mask tricks.
@Suite struct FixedPointTests {
    /// floor(a·b / 2^31 + 1/2): ties go toward +∞ (the nudge-then-truncate of gemmlowp
    /// rounds -1.5 to -1), via an arithmetic shift instead of a division.
    static func oracleHighMul(_ a: Int32, _ b: Int32) -> Int32 {
        if a == .min && b == .min { return .max }
        return Int32((Int64(a) * Int64(b) + (1 << 30)) >> 31)
    }

    static func oracleDivideByPOT(_ x: Int32, _ e: Int) -> Int32 {
        Int32((Double(x) / Double(sign: .plus, exponent: e, significand: 1)).rounded(.toNearestOrAwayFromZero))
    }

    static let edges: [Int32] = [
        .min, .min + 1, -(1 << 30), -65537, -256, -3, -2, -1, 0, 1, 2, 3, 255, 65536, 1 << 30, .max - 1, .max,
    ]

    @Test func highMulMatchesOracle() {
        var rng = SplitMix64(seed: 1)
        var pairs: [(Int32, Int32)] = []
        for a in Self.edges { for b in Self.edges { pairs.append((a, b)) } }
        for _ in 0 ..< 200_000 {
            pairs.append((Int32(truncatingIfNeeded: rng.next()), Int32(truncatingIfNeeded: rng.next())))
        }
        for (a, b) in pairs {
            #expect(FixedPoint.saturatingRoundingDoublingHighMul(a, b) == Self.oracleHighMul(a, b), "a=\(a) b=\(b)")
        }
    }

    @Test func highMulTiesRoundUpward() {
        // 3 · 2^30 / 2^31 = 1.5 → 2; the negative tie -1.5 → -1 (toward +∞, not away from zero).
        #expect(FixedPoint.saturatingRoundingDoublingHighMul(3, 1 << 30) == 2)
        #expect(FixedPoint.saturatingRoundingDoublingHighMul(-3, 1 << 30) == -1)
        #expect(FixedPoint.saturatingRoundingDoublingHighMul(-5, 1 << 30) == -2)
        #expect(FixedPoint.saturatingRoundingDoublingHighMul(.min, .min) == .max)
    }

    @Test func divideByPOTMatchesOracle() {
        var rng = SplitMix64(seed: 2)
        for e in 0 ... 31 {
            for x in Self.edges {
                #expect(FixedPoint.roundingDivideByPOT(x, e) == Self.oracleDivideByPOT(x, e), "x=\(x) e=\(e)")
            }
            for _ in 0 ..< 5_000 {
                let x = Int32(truncatingIfNeeded: rng.next())
                #expect(FixedPoint.roundingDivideByPOT(x, e) == Self.oracleDivideByPOT(x, e), "x=\(x) e=\(e)")
            }
        }
        #expect(FixedPoint.roundingDivideByPOT(5, 1) == 3)
        #expect(FixedPoint.roundingDivideByPOT(-5, 1) == -3)
        #expect(FixedPoint.roundingDivideByPOT(-4, 1) == -2)
    }

    @Test func quantizeMultiplierIsNormalizedAndAccurate() {
        var rng = SplitMix64(seed: 3)
        var values: [Double] = [1, 0.5, 0.25, 2, 1.0 / 3, 0.0078125, 1e-9, 123.456, 0.99999999999]
        for _ in 0 ..< 20_000 {
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            values.append(pow(2, u * 40 - 30))
        }
        for m in values {
            let (mantissa, exponent) = FixedPoint.quantizeMultiplier(m)
            #expect(mantissa >= 1 << 30, "m=\(m)")
            let reconstructed = Double(mantissa) * pow(2, Double(exponent - 31))
            #expect(abs(reconstructed - m) <= m * pow(2, -31), "m=\(m)")
        }
        #expect(FixedPoint.quantizeMultiplier(0) == (0, 0))
        #expect(FixedPoint.quantizeMultiplier(1e-12) == (0, 0))
        // Rounding up to 2^31 renormalizes: 1 - 2^-33 → mantissa 2^30 with exponent 1.
        #expect(FixedPoint.quantizeMultiplier(1 - pow(2, -33)) == (1 << 30, 1))
    }

    /// The bit-level decomposition equals the `frexp` + `round` formulation it replaced
    /// (TFLite's) for normal and subnormal magnitudes, both signs, ties and round-ups to 2^31.
    @Test func quantizeMultiplierMatchesFrexp() {
        func reference(_ m: Double) -> (Int32, Int) {
            guard m != 0, m.isFinite else { return (0, 0) }
            var exponent: Int32 = 0
            let fraction = frexp(m, &exponent)
            var q = (fraction * 2_147_483_648.0).rounded(.toNearestOrAwayFromZero)
            var e = Int(exponent)
            if q == 2_147_483_648.0 {
                q /= 2
                e += 1
            }
            if e < -31 { return (0, 0) }
            return (Int32(q), e)
        }
        var rng = SplitMix64(seed: 11)
        var values: [Double] = [
            1, -1, 0.5, 3, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .infinity, .nan, 0, -0.0, 1 - pow(2, -33), -(1 - pow(2, -33)),
            pow(2, -32), pow(2, -31) * 0.75,
        ]
        for _ in 0 ..< 50_000 {
            values.append(Double(bitPattern: rng.next())) // any bit pattern
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            values.append((rng.next() & 1 == 0 ? 1 : -1) * pow(2, u * 80 - 50)) // typical range
            // A tie: 31 significant bits and a final half.
            let tie = (Double(rng.next() >> 34 | 1 << 29) + 0.5) * pow(2, Double(Int(rng.next() % 60)) - 60)
            values.append(tie)
        }
        for m in values {
            let (mantissa, exponent) = FixedPoint.quantizeMultiplier(m)
            let (rm, re) = reference(m)
            #expect(mantissa == rm && exponent == re, "m=\(m)")
        }
    }

    @Test func multiplyByQuantizedMultiplierRoundsTwice() {
        var rng = SplitMix64(seed: 4)
        for _ in 0 ..< 100_000 {
            let x = Int32(truncatingIfNeeded: rng.next()) >> Int32(rng.next() % 20)
            let m = Double(rng.next() % 1_000_000 + 1) / 1_000_000 * pow(2, Double(Int(rng.next() % 12)) - 10)
            let (mantissa, exponent) = FixedPoint.quantizeMultiplier(m)
            let left = max(exponent, 0)
            let right = max(-exponent, 0)
            guard abs(Int64(x)) << Int64(left) < Int64(Int32.max) else { continue }
            let first = Self.oracleHighMul(x << Int32(left), mantissa)
            let expected = Self.oracleDivideByPOT(first, right)
            #expect(FixedPoint.multiplyByQuantizedMultiplier(x, mantissa, exponent) == expected, "x=\(x) m=\(m)")
        }
    }

    @Test func activationRangesFollowTheOutputQuantization() {
        // uint8, scale 6/255, zp 0: RELU6 upper bound = round(6 / (6/255)) = 255.
        let r = FixedPoint.activationRange(.relu6, scale: 6.0 / 255, zeroPoint: 0, qmin: 0, qmax: 255)
        #expect(r?.lower == 0 && r?.upper == 255)
        // int8, scale 0.05, zp -10: RELU lower = -10, RELU_N1_TO_1 = [-30, 10].
        #expect(FixedPoint.activationRange(.relu, scale: 0.05, zeroPoint: -10, qmin: -128, qmax: 127)! == (-10, 127))
        #expect(
            FixedPoint.activationRange(.reluN1To1, scale: 0.05, zeroPoint: -10, qmin: -128, qmax: 127)! == (-30, 10))
        #expect(FixedPoint.activationRange(.tanh, scale: 1, zeroPoint: 0, qmin: 0, qmax: 255) == nil)
    }
}
