import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// int8 and uint8 convolutions shaped for the 8-bit dot-product GEMM (``Conv2DQ8GemmU8S8``,
/// 8 or more output channels per group): pointwise layers whose depth is a multiple of four
/// (the input pixels taken as the GEMM's rows), the same with other depths, and padded,
/// strided and grouped layers, with codes at the ends of the range. Outputs must equal the
/// reference loops' at every level.
@Suite struct QuantizedConvDotTests {
    @Test(arguments: [ElementType.int8, .uint8])
    func pointwiseMatchesReference(type: ElementType) throws {
        var rng = SplitMix64(seed: 0xd07)
        for (cin, outC) in [(4, 8), (8, 16), (32, 24), (64, 40), (320, 17), (6, 9), (33, 64)] {
            let input = [2, Int.random(in: 5 ... 19, using: &rng), Int.random(in: 5 ... 19, using: &rng), cin]
            let filter = [outC, 1, 1, cin]
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: outC, axis: 0, depth: cin,
                perChannel: Bool.random(using: &rng), bias: Bool.random(using: &rng), rng: &rng)
            let range = QTest.range(type)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng).map { v in
                // Ends of the range often: the largest offsets and products.
                Int.random(in: 0 ..< 4, using: &rng) == 0
                    ? (Bool.random(using: &rng) ? range.lowerBound : range.upperBound) : v
            }
            let options = Conv2DOptions(
                padding: .same, strideWidth: 1, strideHeight: 1,
                activation: QTest.activations.randomElement(using: &rng) ?? .none, dilationWidth: 1, dilationHeight: 1)
            try QuantizedConvTests().expectFastMatchesReference(
                "pointwise \(type) \(input) \(filter)", x: x, weights: q.codes, threads: [1, 2]
            ) { constant in
                q.conv2DGraph(input: input, filter: filter, options: options, constant: constant)
            }
        }
    }

    @Test(arguments: [ElementType.int8, .uint8])
    func paddedStridedGroupedMatchesReference(type: ElementType) throws {
        var rng = SplitMix64(seed: 0xd08)
        for trial in 0 ..< 16 {
            let groups = trial % 4 == 0 ? 2 : 1
            let cg = [3, 8, 16, 27][trial % 4]
            let outC = groups * [8, 16, 20, 33][(trial / 4) % 4]
            let k = 1 + trial % 3
            let input = [1, Int.random(in: 3 ... 14, using: &rng), Int.random(in: 3 ... 14, using: &rng), cg * groups]
            let filter = [outC, k, k, cg]
            let stride = 1 + trial % 2
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: outC, axis: 0, depth: k * k * cg,
                perChannel: Bool.random(using: &rng), bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = Conv2DOptions(
                padding: trial % 3 == 0 ? .valid : .same, strideWidth: stride, strideHeight: stride,
                activation: QTest.activations.randomElement(using: &rng) ?? .none, dilationWidth: 1, dilationHeight: 1)
            try QuantizedConvTests().expectFastMatchesReference(
                "\(type) conv \(input) \(filter) \(options)", x: x, weights: q.codes, threads: [1, 2]
            ) { constant in
                q.conv2DGraph(input: input, filter: filter, options: options, constant: constant)
            }
        }
    }

    @Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"), arguments: [ElementType.int8, .uint8])
    func avx512ChoosesDotProductGemm(type: ElementType) throws {
        var rng = SplitMix64(seed: 0xd09)
        let filter = [16, 3, 3, 8]
        let q = QuantizedWeights(
            type: type, count: filter.reduce(1, *), channels: 16, axis: 0, depth: 72, perChannel: true, bias: true,
            rng: &rng)
        let g = q.conv2DGraph(
            input: [1, 6, 6, 8], filter: filter,
            options: Conv2DOptions(
                padding: .same, strideWidth: 1, strideHeight: 1, activation: .none, dilationWidth: 1, dilationHeight: 1),
            constant: true)
        for level in QTest.levels {
            let engine = try g.engine(level: level)
            try engine.allocate()
            #expect(engine.preparedKernels.contains { $0 is Conv2DQ8GemmU8S8 } == (level >= .avx512), "\(level)")
        }
    }
}
