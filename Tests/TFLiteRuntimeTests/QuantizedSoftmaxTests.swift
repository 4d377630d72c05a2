import SeededRandom
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// uint8/int8 SOFTMAX reads its exponentials from a table of the 256 row differences,
/// built at prepare; this compares it with the per-element arithmetic it replaced, for
/// scales and betas that cut no difference, some, or all but the row maximum (`diffMin`),
/// on odd and long rows, at every kernel level.
@Suite struct QuantizedSoftmaxTests {
    /// The exponentials computed per element, elements below `diffMin` skipped.
    static func reference(_ codes: [Int32], depth: Int, type: ElementType, scale: Float, beta: Float) -> [Int32] {
        let (lowest, highest): (Int32, Int32) = type == .uint8 ? (0, 255) : (-128, 127)
        let real = Swift.min(Double(beta) * Double(scale) * Double(1 << 26), Double(Int32.max))
        let (mantissa, shift) = FixedPoint.quantizeMultiplier(real)
        let diffMin = -Int32((31.0 * Double(1 << 26) / Double(Int64(1) << shift)).rounded(.down))
        func exp(_ d: Int32) -> Int32 {
            FixedPoint.expOnNegativeValuesQ5(FixedPoint.saturatingRoundingDoublingHighMul(d << Int32(shift), mantissa))
        }
        var result: [Int32] = []
        for start in stride(from: 0, to: codes.count, by: depth) {
            let row = codes[start ..< start + depth]
            let m = row.max() ?? lowest
            var sum: Int32 = 0
            for x in row where x - m >= diffMin { sum = sum &+ FixedPoint.roundingDivideByPOT(exp(x - m), 12) }
            let (reciprocal, bitsOverUnit) = FixedPoint.reciprocal(sum, integerBits: 12)
            for x in row {
                guard x - m >= diffMin else {
                    result.append(lowest)
                    continue
                }
                let scaled = FixedPoint.saturatingRoundingDoublingHighMul(reciprocal, exp(x - m))
                let v = FixedPoint.roundingDivideByPOT(scaled, Swift.min(bitsOverUnit + 23, 31))
                result.append(Swift.min(Swift.max(v &+ lowest, lowest), highest))
            }
        }
        return result
    }

    @Test(arguments: [(Float(0.02), Float(0.5)), (0.1, 1), (1, 1), (4, 2), (1e-6, 1), (200, 1)])
    func matchesThePerElementArithmetic(scale: Float, beta: Float) throws {
        var rng = SplitMix64(seed: UInt64(scale * 100))
        for type in [ElementType.uint8, .int8] {
            for depth in [1, 3, 7, 16, 65, 300, 1001] {
                let rows = 2000 / depth + 1
                let range = QTest.range(type)
                // Half the rows spread over the codes, half near-equal (large sums).
                let codes = (0 ..< rows).flatMap { r in
                    let center = Int.random(in: range, using: &rng)
                    return (0 ..< depth).map { _ in
                        r % 2 == 0
                            ? Int.random(in: range, using: &rng)
                            : Swift.min(
                                Swift.max(center + Int.random(in: -3 ... 3, using: &rng), range.lowerBound),
                                range.upperBound)
                    }
                }
                let zeroPoint: Int64 = type == .uint8 ? 128 : 0
                let outputZeroPoint: Int64 = type == .uint8 ? 0 : -128
                var g = GraphBuilder()
                let x = g.input(
                    [rows, depth], type, quantization: Quantization(scales: [scale], zeroPoints: [zeroPoint]))
                let y = g.tensor(
                    [rows, depth], type, quantization: Quantization(scales: [1 / 256], zeroPoints: [outputZeroPoint]))
                g.op(.softmax, inputs: [x], outputs: [y], options: .softmax(beta: beta))
                g.output(y)
                let expected = Self.reference(
                    codes.map { Int32($0) }, depth: depth, type: type, scale: scale, beta: beta)
                for level in QTest.levels {
                    let got = try QTest.run(g, [QTest.bytes(codes)], threads: 1, level: level).bytes
                    let outputs = QTest.codes(got, type)
                    let mismatch = expected.indices.first { outputs[$0] != Int(expected[$0]) }
                    #expect(
                        mismatch == nil, "\(type), depth \(depth), \(level): first difference at \(mismatch ?? 0)")
                }
            }
        }
    }
}
