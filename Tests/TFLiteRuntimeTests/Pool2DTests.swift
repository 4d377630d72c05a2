import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct Pool2DTests {
    struct Case: CustomStringConvertible {
        var max: Bool
        var input: [Int]
        var filter: (h: Int, w: Int)
        var stride: (h: Int, w: Int)
        var same = true
        var activation = FusedActivation.none
        var code: BuiltinOperator { max ? .maxPool2D : .averagePool2D }
        var description: String {
            "\(max ? "max" : "avg") input \(input) filter \(filter) stride \(stride) \(same ? "SAME" : "VALID")"
        }
        var options: Pool2DOptions {
            Pool2DOptions(
                padding: same ? .same : .valid, strideWidth: stride.w, strideHeight: stride.h,
                filterWidth: filter.w, filterHeight: filter.h, activation: activation)
        }
    }

    /// Direct loops: window clipped to the image; average over the in-image pixels only.
    func reference(_ c: Case, _ x: [Float]) -> (values: [Float], shape: [Int]) {
        let (n, h, w, ch) = (c.input[0], c.input[1], c.input[2], c.input[3])
        let ya = referenceAxis(input: h, filter: c.filter.h, stride: c.stride.h, dilation: 1, same: c.same)
        let xa = referenceAxis(input: w, filter: c.filter.w, stride: c.stride.w, dilation: 1, same: c.same)
        var out: [Float] = []
        for b in 0 ..< n {
            for oy in 0 ..< ya.out {
                for ox in 0 ..< xa.out {
                    for k in 0 ..< ch {
                        var sum: Float = 0, best = -Float.greatestFiniteMagnitude, count = 0
                        for fy in 0 ..< c.filter.h {
                            let iy = oy * c.stride.h - ya.pad + fy
                            guard iy >= 0, iy < h else { continue }
                            for fx in 0 ..< c.filter.w {
                                let ix = ox * c.stride.w - xa.pad + fx
                                guard ix >= 0, ix < w else { continue }
                                let v = x[((b * h + iy) * w + ix) * ch + k]
                                sum += v
                                best = Swift.max(best, v)
                                count += 1
                            }
                        }
                        out.append(referenceClamp(c.max ? best : sum / Float(count), c.activation))
                    }
                }
            }
        }
        return (out, [n, ya.out, xa.out, ch])
    }

    func run(_ c: Case, _ x: [Float]) throws -> (values: [Float], shape: [Int]) {
        try runFloatGraph([x]) { g in
            let xi = g.input(c.input, .float32)
            let y = g.tensor([1], .float32)
            g.op(c.code, inputs: [xi], outputs: [y], options: .pool2D(c.options))
            g.output(y)
        }
    }

    func check(_ c: Case, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let x = seededFloats(c.input.reduce(1, *), seed: seed).map { $0 * 4 }
        let ref = reference(c, x)
        let got = try run(c, x)
        #expect(got.shape == ref.shape, "\(c)", sourceLocation: sourceLocation)
        expectClose(got.values, ref.values, "\(c)", sourceLocation: sourceLocation)
    }

    @Test func averageAndMaxAgainstReference() throws {
        var seed: UInt64 = 1
        for max in [false, true] {
            for channels in [1, 3, 8, 13] {
                try check(Case(max: max, input: [2, 7, 6, channels], filter: (3, 3), stride: (2, 2)), seed: seed)
                try check(
                    Case(
                        max: max, input: [1, 6, 9, channels], filter: (2, 3), stride: (1, 2), same: false,
                        activation: .relu6), seed: seed + 1)
                try check(
                    Case(max: max, input: [1, 5, 5, channels], filter: (4, 4), stride: (3, 1), activation: .reluN1To1),
                    seed: seed + 2)
                try check(
                    Case(
                        max: max, input: [1, 4, 4, channels], filter: (4, 4), stride: (4, 4), same: false,
                        activation: .relu), seed: seed + 3)
                // 2×2 windows (the fused four-pixel path), odd sizes so SAME clips the last
                // row and column to fewer pixels, and stride 1 overlapping windows.
                try check(Case(max: max, input: [2, 7, 9, channels], filter: (2, 2), stride: (2, 2)), seed: seed + 4)
                try check(
                    Case(max: max, input: [1, 5, 6, channels], filter: (2, 2), stride: (1, 1), activation: .relu6),
                    seed: seed + 5)
                seed += 6
            }
        }
    }

    /// Windows over 64 pixels use the separable path (blocked prefix/suffix reductions);
    /// shapes cover windows larger than the image, clipped at both ends, and every stride.
    @Test func largeWindowsAgainstReference() throws {
        var seed: UInt64 = 100
        for max in [false, true] {
            for channels in [1, 5] {
                try check(Case(max: max, input: [2, 19, 23, channels], filter: (9, 11), stride: (1, 1)), seed: seed)
                try check(
                    Case(
                        max: max, input: [1, 20, 17, channels], filter: (12, 8), stride: (3, 2), same: false,
                        activation: .relu6), seed: seed + 1)
                try check(
                    Case(max: max, input: [1, 10, 10, channels], filter: (40, 40), stride: (1, 1)), seed: seed + 2)
                try check(
                    Case(max: max, input: [1, 30, 9, channels], filter: (30, 9), stride: (1, 1), same: false),
                    seed: seed + 3)
                try check(
                    Case(
                        max: max, input: [1, 25, 31, channels], filter: (7, 13), stride: (4, 5), activation: .reluN1To1),
                    seed: seed + 4)
                seed += 5
            }
        }
    }

    /// A huge window with stride 1 used to cost outputs × window (10^10 reads here); the
    /// separable path does a few passes over the 256×256 image.
    @Test func hugeWindowIsLinearWork() throws {
        let x = seededFloats(256 * 256, seed: 9)
        let got = try run(Case(max: true, input: [1, 256, 256, 1], filter: (100_000, 100_000), stride: (1, 1)), x)
        #expect(got.shape == [1, 256, 256, 1])
        let largest = x.max()
        #expect(got.values.allSatisfy { $0 == largest })
    }

    @Test func averageDividesByInImagePixelsOnly() throws {
        // 2×2 image of ones plus a corner 5, 3×3 SAME window: every window sees all 4 pixels.
        let got = try run(Case(max: false, input: [1, 2, 2, 1], filter: (3, 3), stride: (1, 1)), [1, 1, 1, 5])
        #expect(got.values == [2, 2, 2, 2])
    }

    @Test func maxPoolOfLowestValuesStaysFinite() throws {
        let got = try run(
            Case(max: true, input: [1, 1, 2, 1], filter: (1, 2), stride: (1, 2), same: false), [-.infinity, -.infinity])
        #expect(got.values == [-.greatestFiniteMagnitude])
    }

    // MARK: TensorFlow goldens

    @Test func matchesTensorFlowAverageSame3x3Stride2() throws {
        let c = Case(max: false, input: [1, 5, 6, 2], filter: (3, 3), stride: (2, 2))
        let x = goldenPattern(60, 1)
        let expected: [Float] = [
            -0.02083333, -0.1458333, -0.125, 0.1458333, 0.09375, 0.5625, -0.02777778, -0.1527778, 0,
            0.1388889, 0.02083333, 0.2916667, -0.1666667, -0.2916667, 0.125, 0, -0.25, 0.21875,
        ]
        let got = try run(c, x)
        #expect(got.shape == [1, 3, 3, 2])
        expectClose(got.values, expected, "runtime vs TensorFlow")
        expectClose(reference(c, x).values, expected, "reference vs TensorFlow")
    }

    @Test func matchesTensorFlowMaxSame2x2Stride2() throws {
        let c = Case(max: true, input: [1, 5, 5, 2], filter: (2, 2), stride: (2, 2))
        let x = goldenPattern(50, 1)
        let expected: [Float] = [
            1.125, 1, 0.875, 0.75, 0.375, 0.25, 1, 1.125, 0.75, 0.625, 0.25, 0.125, 1.125, 1, 0.625, 0.5, 0.125, 0,
        ]
        let got = try run(c, x)
        #expect(got.shape == [1, 3, 3, 2])
        #expect(got.values == expected)
        #expect(reference(c, x).values == expected)
    }

    // MARK: Prepare errors

    func graph(
        _ code: BuiltinOperator = .averagePool2D, input: [Int] = [1, 4, 4, 2], type: ElementType = .float32,
        options: BuiltinOptions? = nil
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(input, type)
        let y = g.tensor([1], type)
        let o =
            options
            ?? .pool2D(
                Pool2DOptions(
                    padding: .same, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: .none)
            )
        g.op(code, inputs: [x], outputs: [y], options: o)
        g.output(y)
        return g
    }

    @Test func prepareRejectsBadOperators() {
        expectInvalid(graph(input: [4, 4, 2]), "input must have rank 4")
        expectInvalid(graph(.maxPool2D, options: BuiltinOptions.none), "Pool2DOptions are missing")
        expectInvalid(
            graph(
                options: .pool2D(
                    Pool2DOptions(
                        padding: .same, strideWidth: 0, strideHeight: 2, filterWidth: 2, filterHeight: 2,
                        activation: .none))), "stride (0)")
        expectInvalid(
            graph(
                options: .pool2D(
                    Pool2DOptions(
                        padding: .same, strideWidth: 1, strideHeight: 1, filterWidth: 2, filterHeight: 0,
                        activation: .none))), "filter size (0)")
        expectInvalid(
            graph(
                options: .pool2D(
                    Pool2DOptions(
                        padding: .valid, strideWidth: 1, strideHeight: 1, filterWidth: 5, filterHeight: 2,
                        activation: .none))), "empty")
        expectInvalid(
            graph(
                .maxPool2D,
                options: .pool2D(
                    Pool2DOptions(
                        padding: .same, strideWidth: 1, strideHeight: 1, filterWidth: 2, filterHeight: 2,
                        activation: .tanh))), "TANH")
        expectUnsupportedTypes(graph(type: .int16))
        // 8-bit pools need quantization parameters (QuantizedPrepareTests covers the rest).
        expectInvalid(graph(type: .int8), "input of type INT8 needs one scale and one zero point")
        expectInvalid(graph(.maxPool2D, type: .uint8), "input of type UINT8 needs one scale and one zero point")
    }
}
