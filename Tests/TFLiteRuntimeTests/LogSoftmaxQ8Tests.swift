import SeededRandom
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// uint8/int8 LOG_SOFTMAX reads its scaled differences and exponentials from tables of the
/// 256 row differences; this compares it with the reference's per-element arithmetic
/// written out here, at every level and thread count, for scales that cut no difference,
/// some, or all but the maximum. Bit-exactness with LiteRT is the corpus's
/// (`LOG_SOFTMAX/i8_*`, `u8_*`), as is the fixed-point logarithm's.
@Suite struct LogSoftmaxQ8Tests {
    static func reference(_ codes: [Int32], depth: Int, type: ElementType, scale: Float) -> [Int32] {
        let (lowest, highest): (Int32, Int32) = type == .uint8 ? (0, 255) : (-128, 127)
        let real = Swift.min(Double(scale) * Double(1 << 26), Double(Int32.max))
        let (mantissa, shift) = FixedPoint.quantizeMultiplier(real)
        let (rm, re) = FixedPoint.quantizeMultiplier(Double(Int64(1) << (31 - shift)) / Double(mantissa))
        let diffMin = -Int32((31.0 * Double(1 << 26) / Double(Int64(1) << shift)).rounded(.down))
        var result: [Int32] = []
        for start in stride(from: 0, to: codes.count, by: depth) {
            let row = codes[start ..< start + depth]
            let m = row.max() ?? lowest
            var sum: Int32 = 0
            for x in row where x - m >= diffMin {
                let q5 = FixedPoint.multiplyByQuantizedMultiplier(x - m, mantissa, shift)
                sum = sum &+ FixedPoint.roundingDivideByPOT(FixedPoint.expOnNegativeValuesQ5(q5), 12)
            }
            let log = FixedPoint.logQ12ToQ5(sum)
            let cut = Swift.max(diffMin - 1, FixedPoint.multiplyByQuantizedMultiplier(log &+ Int32.min, rm, re))
            for x in row {
                guard x - m > cut else {
                    result.append(lowest)
                    continue
                }
                let q5 = FixedPoint.multiplyByQuantizedMultiplier(x - m, mantissa, shift)
                let v = FixedPoint.roundingDivideByPOT(q5 &- log, 22) &+ highest
                result.append(Swift.min(Swift.max(v, lowest), highest))
            }
        }
        return result
    }

    @Test(arguments: [Float(0.005), 0.05, 0.3, 2, 40])
    func matchesThePerElementArithmetic(scale: Float) throws {
        var rng = SplitMix64(seed: UInt64(scale * 1000))
        for type in [ElementType.uint8, .int8] {
            for depth in [1, 3, 17, 64, 1001] {
                let rows = 3000 / depth + 1
                let range = QTest.range(type)
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
                let highest: Int64 = type == .uint8 ? 255 : 127
                var g = GraphBuilder()
                let x = g.input([rows, depth], type, quantization: Quantization(scales: [scale], zeroPoints: [3]))
                let y = g.tensor(
                    [rows, depth], type, quantization: Quantization(scales: [0.0625], zeroPoints: [highest]))
                g.op(.logSoftmax, inputs: [x], outputs: [y])
                g.output(y)
                let expected = Self.reference(codes.map { Int32($0) }, depth: depth, type: type, scale: scale)
                for level in QTest.levels {
                    for threads in [1, 3] {
                        let got = QTest.codes(
                            try QTest.run(g, [QTest.bytes(codes)], threads: threads, level: level).bytes, type)
                        let mismatch = expected.indices.first { got[$0] != Int(expected[$0]) }
                        #expect(
                            mismatch == nil,
                            "\(type), depth \(depth), \(level), \(threads) threads: first difference at \(mismatch ?? 0)"
                        )
                    }
                }
            }
        }
    }

    @Test func prepareErrors() {
        func prepare(_ type: ElementType, scale: Float, output: (Float, Int64)) -> String? {
            errorDescription {
                var g = GraphBuilder()
                let x = g.input([2, 4], type, quantization: Quantization(scales: [scale], zeroPoints: [0]))
                let y = g.tensor([2, 4], type, quantization: Quantization(scales: [output.0], zeroPoints: [output.1]))
                g.op(.logSoftmax, inputs: [x], outputs: [y])
                g.output(y)
                _ = try g.engine()
            }
        }
        #expect(prepare(.int8, scale: 0.1, output: (0.0625, 127)) == nil)
        #expect(prepare(.uint8, scale: 0.1, output: (0.0625, 255)) == nil)
        #expect(
            prepare(.int8, scale: 0.1, output: (0.0625, -128))
                == "operator 0 (LOG_SOFTMAX): a quantized LOG_SOFTMAX output must have scale 16/256 and zero point 127, found 0.0625 and -128"
        )
        #expect(
            prepare(.int8, scale: 1e-9, output: (0.0625, 127))
                == "operator 0 (LOG_SOFTMAX): input scale 1e-09 is too small for the fixed-point LOG_SOFTMAX (2^-26 or below)"
        )
        #expect(
            prepare(.int16, scale: 0.1, output: (0.0625, 0))
                == "operator 0 (LOG_SOFTMAX) does not support the types inputs (INT16) -> outputs (INT16)")
    }
}
