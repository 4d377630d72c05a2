import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// One CONV_2D configuration: NHWC input, OHWI filter `[outC, kh, kw, inC / groups]`.
struct ConvCase: CustomStringConvertible {
    var input: [Int]
    var filter: [Int]
    var stride = (h: 1, w: 1)
    var dilation = (h: 1, w: 1)
    var same = true
    var bias = true
    var activation = FusedActivation.none
    var constantFilter = true

    var description: String {
        "input \(input) filter \(filter) stride \(stride) dilation \(dilation) \(same ? "SAME" : "VALID") bias \(bias) \(activation.name)"
    }

    var options: Conv2DOptions {
        Conv2DOptions(
            padding: same ? .same : .valid, strideWidth: stride.w, strideHeight: stride.h,
            activation: activation, dilationWidth: dilation.w, dilationHeight: dilation.h)
    }
}

/// Direct loops over TFLite's CONV_2D formula (grouped, dilated, zero padding skipped).
func referenceConv2D(_ c: ConvCase, x: [Float], w: [Float], bias: [Float]?) -> (values: [Float], shape: [Int]) {
    let (n, h, wd, inC) = (c.input[0], c.input[1], c.input[2], c.input[3])
    let (outC, kh, kw, cg) = (c.filter[0], c.filter[1], c.filter[2], c.filter[3])
    let groups = inC / cg
    let og = outC / groups
    let ya = referenceAxis(input: h, filter: kh, stride: c.stride.h, dilation: c.dilation.h, same: c.same)
    let xa = referenceAxis(input: wd, filter: kw, stride: c.stride.w, dilation: c.dilation.w, same: c.same)
    var out: [Float] = []
    for b in 0 ..< n {
        for oy in 0 ..< ya.out {
            for ox in 0 ..< xa.out {
                for oc in 0 ..< outC {
                    let g = oc / og
                    var acc: Float = 0
                    for ky in 0 ..< kh {
                        let iy = oy * c.stride.h - ya.pad + ky * c.dilation.h
                        if iy < 0 || iy >= h { continue }
                        for kx in 0 ..< kw {
                            let ix = ox * c.stride.w - xa.pad + kx * c.dilation.w
                            if ix < 0 || ix >= wd { continue }
                            for i in 0 ..< cg {
                                acc +=
                                    x[((b * h + iy) * wd + ix) * inC + g * cg + i]
                                    * w[((oc * kh + ky) * kw + kx) * cg + i]
                            }
                        }
                    }
                    out.append(referenceClamp(acc + (bias?[oc] ?? 0), c.activation))
                }
            }
        }
    }
    return (out, [n, ya.out, xa.out, outC])
}

/// Runs `c` through the engine (1 and 2 threads) with the given data, at `level` (nil: the
/// host's).
func runConv2D(
    _ c: ConvCase, x: [Float], w: [Float], bias: [Float]?, level: KernelLevel? = nil
) throws -> (values: [Float], shape: [Int]) {
    let inputs = c.constantFilter ? [x] : [x, w]
    return try runFloatGraph(inputs, level: level) { g in
        let xi = g.input(c.input, .float32)
        let wi = c.constantFilter ? g.constant(w, shape: c.filter) : g.input(c.filter, .float32)
        let bi = bias.map { g.constant($0, shape: [c.filter[0]]) } ?? -1
        let y = g.tensor([1], .float32)
        g.op(.conv2D, inputs: [xi, wi, bi], outputs: [y], options: .conv2D(c.options))
        g.output(y)
    }
}

@Suite struct Conv2DTests {
    /// Seeded random data checked against the direct-loop reference, at every kernel level
    /// this CPU runs.
    func check(_ c: ConvCase, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let x = seededFloats(c.input.reduce(1, *), seed: seed)
        let w = seededFloats(c.filter.reduce(1, *), seed: seed + 1)
        let bias = c.bias ? seededFloats(c.filter[0], seed: seed + 2) : nil
        let ref = referenceConv2D(c, x: x, w: w, bias: bias)
        for level in QTest.levels {
            let got = try runConv2D(c, x: x, w: w, bias: bias, level: level)
            #expect(got.shape == ref.shape, "\(c) \(level)", sourceLocation: sourceLocation)
            expectClose(got.values, ref.values, "\(c) \(level)", sourceLocation: sourceLocation)
        }
    }

    @Test func pointwiseIsOneGemm() throws {
        try check(ConvCase(input: [2, 4, 5, 6], filter: [8, 1, 1, 6], activation: .relu6), seed: 1)
        try check(ConvCase(input: [1, 3, 3, 8], filter: [6, 1, 1, 4], bias: false), seed: 2) // 2 groups
        try check(ConvCase(input: [1, 1, 1, 3], filter: [2, 1, 1, 3], same: false), seed: 3)
        // Output channels around the packed GEMMs' 16- and 32-column blocks and narrow last
        // panels, over pixel counts that leave row tails.
        try check(ConvCase(input: [1, 5, 5, 12], filter: [40, 1, 1, 12], activation: .relu6), seed: 4)
        try check(ConvCase(input: [1, 7, 3, 9], filter: [24, 1, 1, 9]), seed: 5)
        try check(ConvCase(input: [1, 4, 7, 5], filter: [48, 3, 3, 5], stride: (2, 1)), seed: 6)
        // Fewer pixels than a row block per thread: at 2 threads the output columns are
        // split by whole panels (7 and 5 of them, odd, so one thread ends on a lone panel).
        try check(ConvCase(input: [1, 1, 1, 200], filter: [100, 1, 1, 200], activation: .relu6), seed: 7)
        try check(ConvCase(input: [1, 1, 3, 96], filter: [72, 1, 1, 96]), seed: 8)
    }

    @Test func im2colPaddingStridesAndActivations() throws {
        try check(ConvCase(input: [1, 7, 6, 5], filter: [4, 3, 3, 5], activation: .relu), seed: 10)
        try check(ConvCase(input: [2, 7, 9, 3], filter: [5, 3, 3, 3], stride: (2, 2)), seed: 11)
        try check(
            ConvCase(input: [1, 11, 7, 2], filter: [3, 5, 3, 2], stride: (2, 3), dilation: (2, 1), same: false),
            seed: 12)
        try check(
            ConvCase(
                input: [1, 9, 9, 4], filter: [3, 3, 3, 4], dilation: (2, 3), bias: false, activation: .reluN1To1),
            seed: 13)
        try check(ConvCase(input: [1, 6, 5, 3], filter: [2, 1, 1, 3], stride: (2, 2)), seed: 14) // strided 1×1
        try check(ConvCase(input: [1, 4, 4, 2], filter: [3, 4, 4, 2], same: false), seed: 15) // whole image
        try check(ConvCase(input: [1, 3, 2, 2], filter: [2, 5, 4, 2]), seed: 16) // filter > image
    }

    @Test func groupedConvolution() throws {
        try check(ConvCase(input: [1, 6, 6, 6], filter: [9, 3, 3, 2], stride: (2, 2), dilation: (1, 2)), seed: 20)
        try check(ConvCase(input: [2, 5, 5, 4], filter: [4, 3, 3, 1], same: false, activation: .relu), seed: 21)
    }

    @Test func filterFedAtRunTime() throws {
        try check(ConvCase(input: [1, 5, 5, 3], filter: [4, 3, 3, 3], constantFilter: false), seed: 30)
        try check(ConvCase(input: [1, 5, 5, 3], filter: [4, 1, 1, 3], constantFilter: false), seed: 31)
    }

    @Test func largeImageIsProcessedInTiles() throws {
        // 48·48 pixels × 576-value patches exceed the 4 MiB im2col budget.
        try check(ConvCase(input: [1, 48, 48, 64], filter: [8, 3, 3, 64], stride: (1, 1)), seed: 40)
    }

    // MARK: TensorFlow goldens (scripts/fixtures/conv_goldens.py), anchoring the reference

    func golden(_ c: ConvCase, _ expected: [Float], shape: [Int], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let x = goldenPattern(c.input.reduce(1, *), 1)
        let w = goldenPattern(c.filter.reduce(1, *), 5)
        let got = try runConv2D(c, x: x, w: w, bias: nil)
        #expect(got.shape == shape, sourceLocation: sourceLocation)
        expectClose(got.values, expected, "runtime vs TensorFlow", sourceLocation: sourceLocation)
        expectClose(
            referenceConv2D(c, x: x, w: w, bias: nil).values, expected, "reference vs TensorFlow",
            sourceLocation: sourceLocation)
    }

    @Test func matchesTensorFlowSameStride2() throws {
        try golden(
            ConvCase(input: [1, 5, 7, 3], filter: [4, 3, 3, 3], stride: (2, 2), bias: false),
            [
                -3.046875, 1.140625, -3.28125, 1.796875, 0.140625, -0.375, 3.5625, -1.109375, 0.796875, -0.46875,
                2.71875, -0.921875,
                -1.65625, 0.984375, -4.09375, 2.40625, -2, -0.25, -2.953125, 2.953125, -1.625, 1.34375, 2.53125,
                -0.140625,
                2.21875, 2.28125, -0.03125, -1.75, -2.875, -0.03125, -1.046875, -1.46875, -0.765625, -0.046875, -0.8125,
                1.390625,
                -1.453125, 2.03125, 0.46875, 1.28125, 5.390625, -3.453125, -2.203125, -4.21875, -1.9375, 1.390625,
                1.15625, 1.8125,
            ], shape: [1, 3, 4, 4])
    }

    @Test func matchesTensorFlowSameDilation2() throws {
        try golden(
            ConvCase(input: [1, 6, 5, 2], filter: [3, 3, 2, 2], dilation: (2, 2), bias: false),
            [
                3.328125, -2.671875, 0.828125, 4.640625, -1.71875, -0.953125, 0.984375, -2.96875, 2.28125, 0.296875,
                -1.84375, 1.65625,
                -0.46875, -0.796875, 0.953125, -0.734375, 0.765625, -0.109375, -1.765625, 1.53125, -0.21875, -2.453125,
                2.65625, -0.84375,
                -3.140625, 3.78125, -1.46875, 0.15625, 1.390625, -1.234375, 1.203125, -2.1875, 2.734375, 3.59375,
                -3.78125, 2.203125,
                -1.453125, -1.65625, 2.890625, -1.453125, -0.71875, 1.796875, -1.03125, -0.21875, 0.59375, -0.828125,
                1.09375, -0.546875,
                -1.453125, 2.09375, -1.484375, -1.453125, 3.03125, -2.578125, -0.265625, 1.59375, -3.96875, 1, 1.1875,
                -1.59375,
                0.21875, -0.578125, 2.484375, -2.296875, -0.921875, 5.796875, -2.796875, 0.09375, 2.09375, -2.109375,
                0.21875, 1.0625,
                -1.140625, 0.171875, 0.296875, -0.40625, 0.359375, -0.953125, -0.046875, 0.59375, -2.03125, 0.640625,
                0.71875, -3.0625,
                3.703125, -0.34375, -3.203125, 2.921875, -0.140625, -1.421875,
            ], shape: [1, 6, 5, 3])
    }

    @Test func matchesTensorFlowValidStride2x1() throws {
        try golden(
            ConvCase(input: [2, 5, 4, 2], filter: [2, 2, 3, 2], stride: (2, 1), same: false, bias: false),
            [
                -1.65625, -0.796875, -4.328125, 1.625, 4.578125, -2.203125, 0.125, -1.5625,
                -4.328125, 1.625, -4.328125, 2.5625, 0.125, -1.5625, -3.140625, 0.265625,
            ], shape: [2, 2, 2, 2])
    }

    // MARK: Prepare errors

    func graph(
        input: [Int] = [1, 5, 5, 4], filter: [Int] = [2, 3, 3, 4], bias: Int? = 2,
        inputType: ElementType = .float32, options: BuiltinOptions? = nil
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(input, inputType)
        let w = g.constant([Float](repeating: 0, count: filter.reduce(1, *)), shape: filter)
        let b = bias.map { g.constant([Float](repeating: 0, count: $0), shape: [$0]) } ?? -1
        let y = g.tensor([1], inputType)
        let o = options ?? .conv2D(Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none))
        g.op(.conv2D, inputs: [x, w, b], outputs: [y], options: o)
        g.output(y)
        return g
    }

    @Test func prepareRejectsBadOperators() {
        expectInvalid(graph(input: [5, 5, 4]), "input must have rank 4")
        expectInvalid(graph(filter: [2, 3, 4]), "filter must have rank 4")
        expectInvalid(graph(filter: [2, 3, 3, 3]), "not a multiple")
        expectInvalid(graph(filter: [3, 3, 3, 2]), "cannot be split into 2 groups")
        // Zero input channels made zero groups and trapped on `outC % groups` (found by
        // ReliabilityTests' zero-size tensor test).
        expectInvalid(graph(input: [1, 5, 5, 0]), "has no channels")
        expectInvalid(graph(bias: 3), "bias has shape [3]")
        expectInvalid(graph(options: BuiltinOptions.none), "Conv2DOptions are missing")
        expectInvalid(
            graph(options: .conv2D(Conv2DOptions(padding: .same, strideWidth: 0, strideHeight: 1, activation: .none))),
            "stride (0)")
        expectInvalid(
            graph(
                options: .conv2D(
                    Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none, dilationWidth: -1)
                )), "dilation (-1)")
        expectInvalid(
            graph(options: .conv2D(Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: .tanh))),
            "TANH")
        expectInvalid(
            graph(
                options: .conv2D(
                    Conv2DOptions(padding: .unknown(7), strideWidth: 1, strideHeight: 1, activation: .none))), "padding"
        )
        expectInvalid(
            graph(
                filter: [2, 7, 3, 4],
                options: .conv2D(Conv2DOptions(padding: .valid, strideWidth: 1, strideHeight: 1, activation: .none))),
            "empty")
        expectUnsupportedTypes(graph(inputType: .int8))
    }

    @Test func biasMayBeOmittedEntirely() throws {
        // Two inputs only (no bias slot at all).
        let c = ConvCase(input: [1, 4, 4, 2], filter: [3, 3, 3, 2], bias: false)
        let x = seededFloats(32, seed: 50), w = seededFloats(54, seed: 51)
        let got = try runFloatGraph([x]) { g in
            let xi = g.input(c.input, .float32)
            let wi = g.constant(w, shape: c.filter)
            let y = g.tensor([1], .float32)
            g.op(.conv2D, inputs: [xi, wi], outputs: [y], options: .conv2D(c.options))
            g.output(y)
        }
        expectClose(got.values, referenceConv2D(c, x: x, w: w, bias: nil).values)
    }
}
