import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct TransposeConvTests {
    struct Case: CustomStringConvertible {
        var input: [Int]
        var weights: [Int] // [outC, kh, kw, inC]
        var output: [Int]
        var stride = (h: 1, w: 1)
        var same = true
        var bias = true
        var activation = FusedActivation.none
        var constantWeights = true
        var description: String {
            "input \(input) weights \(weights) output \(output) stride \(stride) \(same ? "SAME" : "VALID")"
        }
        var options: TransposeConvOptions {
            TransposeConvOptions(
                padding: same ? .same : .valid, strideWidth: stride.w, strideHeight: stride.h, activation: activation)
        }
    }

    /// Padding as TFLite derives it for TRANSPOSE_CONV, written independently: the
    /// convolution rule with the output size in place of the input size.
    func referencePad(out: Int, filter: Int, stride: Int, same: Bool) -> Int {
        let n = same ? (out + stride - 1) / stride : (out + stride - filter) / stride
        return Swift.max(0, (n - 1) * stride + filter - out) / 2
    }

    /// TFLite's reference scatter: each input element adds its products to the output
    /// pixels it reaches; then bias and activation.
    func reference(_ c: Case, x: [Float], w: [Float], bias: [Float]?) -> [Float] {
        let (n, h, wd, inC) = (c.input[0], c.input[1], c.input[2], c.input[3])
        let (outC, kh, kw) = (c.weights[0], c.weights[1], c.weights[2])
        let (oh, ow) = (c.output[1], c.output[2])
        let padH = referencePad(out: oh, filter: kh, stride: c.stride.h, same: c.same)
        let padW = referencePad(out: ow, filter: kw, stride: c.stride.w, same: c.same)
        var out = [Float](repeating: 0, count: n * oh * ow * outC)
        for b in 0 ..< n {
            for iy in 0 ..< h {
                for ix in 0 ..< wd {
                    for ic in 0 ..< inC {
                        let v = x[((b * h + iy) * wd + ix) * inC + ic]
                        for fy in 0 ..< kh {
                            for fx in 0 ..< kw {
                                let oy = iy * c.stride.h - padH + fy, ox = ix * c.stride.w - padW + fx
                                guard oy >= 0, oy < oh, ox >= 0, ox < ow else { continue }
                                for oc in 0 ..< outC {
                                    out[((b * oh + oy) * ow + ox) * outC + oc] +=
                                        v * w[((oc * kh + fy) * kw + fx) * inC + ic]
                                }
                            }
                        }
                    }
                }
            }
        }
        return out.enumerated().map { i, v in referenceClamp(v + (bias?[i % outC] ?? 0), c.activation) }
    }

    func run(_ c: Case, x: [Float], w: [Float], bias: [Float]?) throws -> (values: [Float], shape: [Int]) {
        try runFloatGraph(c.constantWeights ? [x] : [w, x]) { g in
            let s = g.constant(c.output.map { Int32($0) }, shape: [4])
            let wi = c.constantWeights ? g.constant(w, shape: c.weights) : g.input(c.weights, .float32)
            let xi = g.input(c.input, .float32)
            var inputs = [s, wi, xi]
            if let bias { inputs.append(g.constant(bias, shape: [c.weights[0]])) }
            let y = g.tensor([1], .float32)
            g.op(.transposeConv, inputs: inputs, outputs: [y], options: .transposeConv(c.options))
            g.output(y)
        }
    }

    func check(_ c: Case, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let x = seededFloats(c.input.reduce(1, *), seed: seed)
        let w = seededFloats(c.weights.reduce(1, *), seed: seed + 1)
        let b = c.bias ? seededFloats(c.weights[0], seed: seed + 2) : nil
        let got = try run(c, x: x, w: w, bias: b)
        #expect(got.shape == c.output, "\(c)", sourceLocation: sourceLocation)
        expectClose(got.values, reference(c, x: x, w: w, bias: b), "\(c)", sourceLocation: sourceLocation)
    }

    @Test func againstReferenceScatter() throws {
        try check(Case(input: [1, 4, 5, 3], weights: [2, 3, 3, 3], output: [1, 4, 5, 2]), seed: 1)
        try check(
            Case(
                input: [2, 3, 4, 2], weights: [5, 3, 3, 2], output: [2, 6, 8, 5], stride: (2, 2), activation: .relu),
            seed: 2)
        try check(
            Case(
                input: [1, 3, 3, 4], weights: [9, 4, 4, 4], output: [1, 6, 6, 9], stride: (2, 2), activation: .relu6),
            seed: 3)
        try check(
            Case(input: [1, 3, 2, 2], weights: [3, 2, 5, 2], output: [1, 7, 8, 3], stride: (3, 2), same: false), seed: 4
        )
        try check(
            Case(
                input: [1, 2, 2, 3], weights: [2, 3, 3, 3], output: [1, 5, 5, 2], stride: (2, 2), same: false,
                bias: false), seed: 5)
        try check(
            Case(input: [1, 5, 5, 1], weights: [1, 1, 1, 1], output: [1, 9, 9, 1], stride: (2, 2), same: false), seed: 6
        )
        // Output larger than the input reaches: uncovered pixels are bias only.
        try check(
            Case(
                input: [1, 2, 2, 2], weights: [2, 2, 2, 2], output: [1, 7, 6, 2], stride: (2, 2), same: false,
                activation: .reluN1To1), seed: 7)
    }

    @Test func weightsFedAtRunTime() throws {
        try check(
            Case(
                input: [1, 3, 4, 2], weights: [3, 3, 3, 2], output: [1, 6, 8, 3], stride: (2, 2), constantWeights: false
            ), seed: 20)
    }

    @Test func manyChannelsUseTheSimdGather() throws {
        try check(
            Case(input: [1, 6, 6, 20], weights: [19, 3, 3, 20], output: [1, 12, 12, 19], stride: (2, 2)), seed: 30)
    }

    // MARK: TensorFlow goldens

    func golden(_ c: Case, _ expected: [Float], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let x = goldenPattern(c.input.reduce(1, *), 1)
        let w = goldenPattern(c.weights.reduce(1, *), 5)
        let got = try run(c, x: x, w: w, bias: nil)
        #expect(got.shape == c.output, sourceLocation: sourceLocation)
        expectClose(got.values, expected, "runtime vs TensorFlow", sourceLocation: sourceLocation)
        expectClose(
            reference(c, x: x, w: w, bias: nil), expected, "reference vs TensorFlow", sourceLocation: sourceLocation)
    }

    @Test func matchesTensorFlowSameStride2OddOutput() throws {
        try golden(
            Case(input: [1, 3, 4, 2], weights: [3, 3, 3, 2], output: [1, 5, 7, 3], stride: (2, 2), bias: false),
            [
                -1.71875, -1.984375, -2.25, 1.078125, -1.59375, -3.96875, 1.734375, 2, 2.265625, 2.9375, 1.328125,
                0.015625,
                1.328125, 1.53125, 1.734375, 2.125, 0.984375, 0.140625, 0.921875, 1.0625, 1.203125, -0.625, -0.8125, -1,
                0.359375, 0.453125, 0.546875, 0.046875, 0.328125, 0.609375, 0.21875, 0.65625, 1.09375, 0.421875,
                0.578125, 0.734375,
                0.96875, 1.15625, 1.34375, 0.796875, 0.828125, 0.859375, 0.515625, 0.59375, 0.671875, 0.5, 0.296875,
                0.390625,
                0.109375, 0.125, 0.140625, -0.3125, -0.046875, 0.515625, -0.296875, -0.34375, -0.390625, -1.125,
                -0.390625, 0.640625,
                -0.703125, -0.8125, -0.921875, 1.171875, 1.078125, 0.984375, 2.46875, 2.15625, 1.84375, 1.546875,
                1.328125, 1.109375,
                1.734375, 1.46875, 1.203125, -0.15625, -0.203125, -0.25, -1.375, -1.296875, -1.21875, -1.5625, -1.4375,
                -1.3125,
                -1.109375, -1.28125, -1.453125, -2.75, -1.078125, 0.890625, -1.515625, -1.75, -1.984375, -1.1875, 1.25,
                -1.65625,
                -0.140625, -0.140625, -0.140625, 1.859375, -0.28125, -2.125, 1.53125, 1.765625, 2,
            ])
    }

    @Test func matchesTensorFlowValidStride2ExtraRows() throws {
        try golden(
            Case(
                input: [1, 2, 3, 2], weights: [2, 3, 2, 2], output: [1, 5, 7, 2], stride: (2, 2), same: false,
                bias: false),
            [
                1.203125, -0.65625, 1.734375, -0.125, -1.1875, 0.671875, -1.71875, 0.140625, -0.90625, 0.515625,
                -1.3125, 0.109375,
                0, 0, 2.265625, 0.40625, -2.25, 0.9375, -2.25, -0.390625, 2.265625, -0.921875, -1.71875, -0.296875,
                1.734375, -0.703125, 0, 0, -2.34375, 1.828125, -2.09375, 2.078125, 1.390625, -1.25, 0.703125, -1.9375,
                1.265625, -1.0625, 0.828125, -1.5, 0, 0, -1.1875, -0.203125, 1.203125, -0.484375, -0.65625, -0.109375,
                0.671875, -0.265625, -0.125, -0.015625, 0.140625, -0.046875, 0, 0, 0.921875, -0.765625, 0.640625,
                -1.046875,
                0.515625, -0.421875, 0.359375, -0.578125, 0.109375, -0.078125, 0.078125, -0.109375, 0, 0,
            ])
    }

    // MARK: Prepare errors

    func graph(
        outputShape: [Int32] = [1, 6, 6, 2], weights: [Int] = [2, 3, 3, 4],
        input: [Int] = [1, 3, 3, 4], bias: Int? = nil, type: ElementType = .float32,
        options: BuiltinOptions? = nil
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let s = g.constant(outputShape, shape: [outputShape.count])
        let w = g.constant([Float](repeating: 0, count: weights.reduce(1, *)), shape: weights)
        let x = g.input(input, type)
        var inputs = [s, w, x]
        if let bias { inputs.append(g.constant([Float](repeating: 0, count: bias), shape: [bias])) }
        let y = g.tensor([1], type)
        g.op(
            .transposeConv, inputs: inputs, outputs: [y],
            options: options ?? .transposeConv(TransposeConvOptions(padding: .same, strideWidth: 2, strideHeight: 2)))
        g.output(y)
        return g
    }

    @Test func prepareRejectsBadOperators() {
        expectInvalid(graph(outputShape: [1, 6, 6]), "int32 vector of 4 values")
        expectInvalid(graph(outputShape: [1, 6, 6, 3]), "must be [1, height > 0, width > 0, 2]")
        expectInvalid(graph(outputShape: [2, 6, 6, 2]), "must be [1,")
        expectInvalid(graph(weights: [2, 3, 3, 5]), "5 input channels but the input has 4")
        expectInvalid(graph(input: [3, 3, 4]), "input must have rank 4")
        expectInvalid(graph(bias: 3), "bias has shape [3]")
        expectInvalid(graph(options: BuiltinOptions.none), "TransposeConvOptions are missing")
        expectInvalid(
            graph(options: .transposeConv(TransposeConvOptions(padding: .same, strideWidth: 0, strideHeight: 2))),
            "must be positive")
        expectUnsupportedTypes(graph(type: .int8))
    }
}
