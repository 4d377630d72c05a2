#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SeededRandom
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// QUANTIZE from float32 rounds without libm (``Rounding/halfAwayFromZero(_:)``); these
/// compare it with the `rounded(.toNearestOrAwayFromZero)` formula it replaced. (The
/// helper was also checked against it for all 2^32 float bit patterns, in a release build.)
@Suite struct QuantizeTests {
    /// Ties, their neighbours, both ends of the saturation, huge values, NaNs, infinities.
    static let edges: [Float] = {
        var v: [Float] = [
            0, 0.25, 0.49999997, 0.5, 0.50000006, 0.75, 1, 1.5, 2.5, 3.5, 126.5, 127.5, 128.5, 255.5,
            4_194_302.5, 4_194_303, 4_194_303.5, 4_194_304, 4_194_304.5, 8_388_607.5, 8_388_608, 8_388_609,
            12_582_912, 16_777_216, 1e9, 1e10, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
            .leastNormalMagnitude, .infinity,
        ]
        for k in 0 ..< 40 {
            let tie = Float(k) + 0.5
            v += [tie, tie.nextUp, tie.nextDown]
        }
        v += v.map { -$0 }
        return v + [.nan, -.nan, Float(bitPattern: 0x7F80_0001), Float(bitPattern: 0xFFFF_FFFF)]
    }()

    /// Random bit patterns (every class and magnitude), values near the codes, and ties.
    static func randomFloats(_ count: Int, seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        return (0 ..< count).map { i in
            switch i % 3 {
            case 0: return Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            case 1: return Float.random(in: -400 ... 400, using: &rng)
            default: return Float(Int.random(in: -1000 ... 1000, using: &rng)) / 2
            }
        }
    }

    /// The rounding QUANTIZE used before, through libm.
    static func libmRounded(_ v: Float) -> Float { v.rounded(.toNearestOrAwayFromZero) }

    @Test func roundingMatchesLibmHalfAwayFromZero() {
        for v in Self.edges + Self.randomFloats(30000, seed: 7) {
            let r = Self.libmRounded(v)
            let expected: Int32 = r.isNaN ? 0 : Int32(Swift.max(Swift.min(r, Rounding.limit), -Rounding.limit))
            #expect(Rounding.halfAwayFromZero(v) == expected, "\(v) (bits \(String(v.bitPattern, radix: 16)))")
        }
    }

    @Test(arguments: [(ElementType.uint8, Float(0.5), 128), (.uint8, 1 / 255, 0), (.int8, 0.1, -3), (.int8, 3, 127)])
    func floatToCodesMatchesTheLibmFormula(type: ElementType, scale: Float, zeroPoint: Int) throws {
        let xs = Self.edges + Self.randomFloats(3000, seed: 11) + Self.edges.map { $0 * scale }
        let bytes = try runOneToOne(
            .quantize, xs, .float32, to: type, quantization: QTest.quantization([scale], [zeroPoint]),
            as: UInt8.self)
        let codes = QTest.codes(bytes, type)
        let range = QTest.range(type)
        for (v, code) in zip(xs, codes) {
            let r = Self.libmRounded(v / scale)
            let q: Int32 = r.isNaN ? 0 : Int32(Swift.max(Swift.min(r, 1e9), -1e9))
            let expected = Swift.min(Swift.max(Int(q) + zeroPoint, range.lowerBound), range.upperBound)
            #expect(code == expected, "\(v) / \(scale) + \(zeroPoint)")
        }
    }
}
