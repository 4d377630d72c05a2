import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// One DEPTHWISE_CONV_2D configuration: NHWC input, filter `[1, kh, kw, inC · multiplier]`.
struct DepthwiseCase: CustomStringConvertible {
    var input: [Int]
    var kernel: (h: Int, w: Int)
    var multiplier = 1
    var stride = (h: 1, w: 1)
    var dilation = (h: 1, w: 1)
    var same = true
    var bias = true
    var activation = FusedActivation.none

    var filter: [Int] { [1, kernel.h, kernel.w, input[3] * multiplier] }
    var description: String {
        "input \(input) kernel \(kernel) M \(multiplier) stride \(stride) dilation \(dilation) \(same ? "SAME" : "VALID") \(activation.name)"
    }
    var options: DepthwiseConv2DOptions {
        // depth_multiplier deliberately wrong: the kernel must derive it from the shapes.
        DepthwiseConv2DOptions(
            padding: same ? .same : .valid, strideWidth: stride.w, strideHeight: stride.h,
            depthMultiplier: 99, activation: activation,
            dilationWidth: dilation.w, dilationHeight: dilation.h)
    }
}

/// Direct loops over TFLite's depthwise formula: output channel `ic·M + m` reads input channel `ic`.
func referenceDepthwise(_ c: DepthwiseCase, x: [Float], w: [Float], bias: [Float]?) -> (values: [Float], shape: [Int]) {
    let (n, h, wd, inC) = (c.input[0], c.input[1], c.input[2], c.input[3])
    let outC = inC * c.multiplier
    let ya = referenceAxis(input: h, filter: c.kernel.h, stride: c.stride.h, dilation: c.dilation.h, same: c.same)
    let xa = referenceAxis(input: wd, filter: c.kernel.w, stride: c.stride.w, dilation: c.dilation.w, same: c.same)
    var out: [Float] = []
    for b in 0 ..< n {
        for oy in 0 ..< ya.out {
            for ox in 0 ..< xa.out {
                for ic in 0 ..< inC {
                    for m in 0 ..< c.multiplier {
                        let oc = ic * c.multiplier + m
                        var acc: Float = 0
                        for ky in 0 ..< c.kernel.h {
                            let iy = oy * c.stride.h - ya.pad + ky * c.dilation.h
                            if iy < 0 || iy >= h { continue }
                            for kx in 0 ..< c.kernel.w {
                                let ix = ox * c.stride.w - xa.pad + kx * c.dilation.w
                                if ix < 0 || ix >= wd { continue }
                                acc += x[((b * h + iy) * wd + ix) * inC + ic] * w[(ky * c.kernel.w + kx) * outC + oc]
                            }
                        }
                        out.append(referenceClamp(acc + (bias?[oc] ?? 0), c.activation))
                    }
                }
            }
        }
    }
    return (out, [n, ya.out, xa.out, outC])
}

func runDepthwise(
    _ c: DepthwiseCase, x: [Float], w: [Float], bias: [Float]?,
    level: KernelLevel? = nil
) throws -> (values: [Float], shape: [Int]) {
    try runFloatGraph([x], level: level) { g in
        let xi = g.input(c.input, .float32)
        let wi = g.constant(w, shape: c.filter)
        let bi = bias.map { g.constant($0, shape: [c.filter[3]]) } ?? -1
        let y = g.tensor([1], .float32)
        g.op(.depthwiseConv2D, inputs: [xi, wi, bi], outputs: [y], options: .depthwiseConv2D(c.options))
        g.output(y)
    }
}

@Suite struct DepthwiseConv2DTests {
    /// `c` at every kernel level this CPU runs against the reference loops.
    func check(_ c: DepthwiseCase, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let x = seededFloats(c.input.reduce(1, *), seed: seed)
        let w = seededFloats(c.filter.reduce(1, *), seed: seed + 1)
        let bias = c.bias ? seededFloats(c.filter[3], seed: seed + 2) : nil
        let ref = referenceDepthwise(c, x: x, w: w, bias: bias)
        for level in QTest.levels {
            let got = try runDepthwise(c, x: x, w: w, bias: bias, level: level)
            #expect(got.shape == ref.shape, "\(c) \(level)", sourceLocation: sourceLocation)
            expectClose(got.values, ref.values, "\(c) \(level)", sourceLocation: sourceLocation)
        }
    }

    @Test func generalPath() throws {
        try check(DepthwiseCase(input: [1, 7, 6, 5], kernel: (5, 3), activation: .relu), seed: 1)
        try check(DepthwiseCase(input: [2, 9, 8, 12], kernel: (3, 3), stride: (3, 2), same: false), seed: 2)
        try check(DepthwiseCase(input: [1, 8, 9, 3], kernel: (3, 2), dilation: (2, 3), bias: false), seed: 3)
        try check(DepthwiseCase(input: [1, 5, 5, 17], kernel: (3, 3), dilation: (2, 2), activation: .relu6), seed: 4)
        try check(DepthwiseCase(input: [1, 3, 3, 2], kernel: (5, 5)), seed: 5) // window larger than the image
    }

    @Test func channelMultiplier() throws {
        try check(DepthwiseCase(input: [1, 6, 5, 3], kernel: (3, 3), multiplier: 4, stride: (2, 2)), seed: 10)
        try check(
            DepthwiseCase(input: [2, 5, 6, 2], kernel: (2, 3), multiplier: 9, same: false, activation: .reluN1To1),
            seed: 11)
        try check(DepthwiseCase(input: [1, 4, 4, 1], kernel: (3, 3), multiplier: 16), seed: 12) // 1-channel input
    }

    @Test func threeByThreeFastPath() throws {
        // Channel counts exercising 16- and 8-wide blocks, SIMD4 and scalar tails; odd sizes
        // and both paddings.
        for (i, channels) in [1, 4, 8, 13, 32, 37].enumerated() {
            for stride in [1, 2] {
                for same in [true, false] {
                    try check(
                        DepthwiseCase(
                            input: [2, 7, 8, channels], kernel: (3, 3), stride: (stride, stride),
                            same: same, activation: .relu6), seed: UInt64(100 + i * 4 + stride * 2 + (same ? 1 : 0)))
                }
            }
        }
        try check(DepthwiseCase(input: [1, 9, 6, 8], kernel: (3, 3), stride: (1, 2), bias: false), seed: 140)
        try check(DepthwiseCase(input: [1, 2, 2, 8], kernel: (3, 3)), seed: 141) // no interior pixel
    }

    /// The specialised kernel (portable level) against the general one on the same data:
    /// identical bits.
    @Test func threeByThreeMatchesGeneralKernelExactly() throws {
        for (stride, same) in [(1, true), (2, true), (1, false), (2, false)] {
            let geometry = try Conv2DGeometry.make(
                batch: 2, inH: 9, inW: 10, inC: 21, outC: 21, kh: 3, kw: 3,
                strideH: stride, strideW: stride, dilationH: 1, dilationW: 1,
                padding: same ? .same : .valid)
            let kernel = DepthwiseConv2DF32.make(
                geometry: geometry, input: 0, filter: 1, bias: 2, output: 3,
                range: FloatActivationRange(lower: -0.5, upper: 1.5), level: .portable)
            let fast = try #require(kernel as? DepthwiseConv2D3x3F32)
            #expect(!fast.walk.interiorX.isEmpty && !fast.walk.interiorY.isEmpty)
            let x = seededFloats(2 * 9 * 10 * 21, seed: 7), w = seededFloats(9 * 21, seed: 8),
                b = seededFloats(21, seed: 9)
            let count = geometry.outputPixels * 21
            let a = try evalDirect(fast, inputs: [x, w, b], outputCount: count)
            let c = try evalDirect(fast.general, inputs: [x, w, b], outputCount: count)
            #expect(a.map(\.bitPattern) == c.map(\.bitPattern))
        }
    }

    /// Border pixels take the unrolled path with padded taps reading zeros: on images that
    /// are mostly border (including ones with no interior pixel) the result must still be
    /// the general kernel's, bit for bit at the portable level (SIMD4 blocks and scalar
    /// channel tails), within rounding at the others (FMA, 8-wide blocks, masked tails),
    /// for interior pixels done row by row (13 channels) and pixel by pixel (64 channels
    /// below avx512, 256 at avx512).
    @Test(arguments: [13, 64, 256])
    func threeByThreeBordersMatchGeneralKernelExactly(channels: Int) throws {
        for level in QTest.levels { try threeByThreeBorders(channels: channels, level: level) }
    }

    func threeByThreeBorders(channels: Int, level: KernelLevel) throws {
        for (h, w) in [(1, 1), (2, 3), (3, 2), (4, 4), (5, 3), (6, 7)] {
            for stride in [1, 2] {
                for same in [true, false] where same || (h >= 3 && w >= 3) {
                    let geometry = try Conv2DGeometry.make(
                        batch: 2, inH: h, inW: w, inC: channels, outC: channels, kh: 3, kw: 3,
                        strideH: stride, strideW: stride, dilationH: 1, dilationW: 1,
                        padding: same ? .same : .valid)
                    let kernel = DepthwiseConv2DF32.make(
                        geometry: geometry, input: 0, filter: 1, bias: 2, output: 3,
                        range: FloatActivationRange(lower: -0.5, upper: 1.5), level: level)
                    let fast = try #require(kernel as? DepthwiseConv2D3x3F32)
                    #expect(fast.walk.rowRuns == (stride * channels * 4 % 256 != 0))
                    let seed = UInt64(h * 100 + w * 10 + stride + channels * 1000)
                    let x = seededFloats(2 * h * w * channels, seed: seed),
                        wt = seededFloats(9 * channels, seed: seed + 1)
                    let b = seededFloats(channels, seed: seed + 2)
                    let count = geometry.outputPixels * channels
                    let a = try evalDirect(fast, inputs: [x, wt, b], outputCount: count)
                    let c = try evalDirect(fast.general, inputs: [x, wt, b], outputCount: count)
                    let what = "\(h)x\(w) stride \(stride) \(same ? "SAME" : "VALID") \(level)"
                    if level == .portable {
                        #expect(a.map(\.bitPattern) == c.map(\.bitPattern), "\(what)")
                    } else {
                        expectClose(a, c, what)
                    }
                }
            }
        }
    }

    // MARK: TensorFlow goldens

    func golden(
        _ c: DepthwiseCase, _ expected: [Float], shape: [Int], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let x = goldenPattern(c.input.reduce(1, *), 1)
        let w = goldenPattern(c.filter.reduce(1, *), 5)
        let got = try runDepthwise(c, x: x, w: w, bias: nil)
        #expect(got.shape == shape, sourceLocation: sourceLocation)
        expectClose(got.values, expected, "runtime vs TensorFlow", sourceLocation: sourceLocation)
        expectClose(
            referenceDepthwise(c, x: x, w: w, bias: nil).values, expected, "reference vs TensorFlow",
            sourceLocation: sourceLocation)
    }

    @Test func matchesTensorFlowMultiplier3Stride2() throws {
        try golden(
            DepthwiseCase(input: [1, 5, 5, 2], kernel: (3, 3), multiplier: 3, stride: (2, 2), bias: false),
            [
                1.484375, -0.90625, -0.625, -0.921875, -0.875, -0.828125, -1.078125, 0.8125, -0.265625, -0.5625,
                -0.65625, -0.75,
                0.375, 1.328125, -0.6875, -0.6875, -0.5625, -0.4375, 1.703125, -0.921875, -0.875, 0.875, 0.71875,
                0.5625,
                -1.46875, 0.359375, -0.78125, -0.828125, -0.640625, -0.453125, 0.046875, 0.953125, -1.109375, -0.84375,
                -0.4375, -0.03125,
                -0.921875, 1.53125, 1.3125, 0.875, 0.71875, 0.5625, -1.5625, -0.125, -0.171875, -0.234375, -0.1875,
                -0.140625,
                -1.03125, -0.578125, -0.421875, -0.265625, -0.046875, 0.171875,
            ], shape: [1, 3, 3, 6])
    }

    @Test func matchesTensorFlowDilation2() throws {
        try golden(
            DepthwiseCase(input: [1, 6, 7, 3], kernel: (3, 3), dilation: (2, 2), bias: false),
            [
                -1.171875, -1, -0.703125, 0.28125, -0.546875, -0.65625, -0.234375, -1.765625, -0.4375, 1.96875,
                -0.46875, 2.03125,
                -0.28125, 2.015625, 2.125, 0.84375, 1.09375, -0.90625, -0.9375, -0.796875, -0.53125, 0.09375, -0.5,
                -0.671875,
                0.65625, -0.640625, -0.625, 1.828125, -0.40625, -0.375, -0.421875, 2.078125, 2.09375, 0, 1.59375,
                1.59375,
                -0.9375, -0.859375, -0.65625, -0.9375, -0.078125, 0.015625, 2.046875, 1.03125, -1.578125, 0.4375,
                -1.484375, -1.4375,
                1.921875, 2.09375, 0.46875, -1.421875, 0.65625, 0.34375, -0.90625, -1.671875, -1.5625, -0.625, -0.1875,
                0.734375,
                0.78125, 0.015625, 0.328125, 0.28125, -1.4375, -1.484375, 0.75, -1.578125, 1.03125, -1.59375, 0.640625,
                0.78125,
                -1.078125, 0.390625, -1.71875, -2.34375, 0.734375, 0.828125, 0.609375, 0.9375, -0.03125, 0.234375,
                -1.828125, -1.625,
                -0.484375, -0.625, -0.640625, -0.71875, -0.671875, -0.5, -1.109375, -1.328125, -1.359375, -1.4375,
                -1.375, 0.953125,
                0.90625, 1.546875, 1.484375, 0.765625, 1, -1.3125, -1.21875, 0.390625, 0.34375, -0.640625, -0.65625,
                -0.546875,
                -0.875, -0.703125, -1, -1.328125, -1.359375, -1.203125, 1.015625, 0.96875, 1.40625, 1.578125, 1.515625,
                1.640625,
                -1.25, -1.1875, 0.1875, 0.625, 0.578125, 0.65625,
            ], shape: [1, 6, 7, 3])
    }

    // MARK: Prepare errors

    func graph(
        input: [Int] = [1, 5, 5, 4], filter: [Int] = [1, 3, 3, 8], bias: Int? = 8,
        inputType: ElementType = .float32, options: BuiltinOptions? = nil
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(input, inputType)
        let w = g.constant([Float](repeating: 0, count: filter.reduce(1, *)), shape: filter)
        let b = bias.map { g.constant([Float](repeating: 0, count: $0), shape: [$0]) } ?? -1
        let y = g.tensor([1], inputType)
        let o =
            options
            ?? .depthwiseConv2D(
                DepthwiseConv2DOptions(
                    padding: .same, strideWidth: 1, strideHeight: 1, depthMultiplier: 2, activation: .none))
        g.op(.depthwiseConv2D, inputs: [x, w, b], outputs: [y], options: o)
        g.output(y)
        return g
    }

    @Test func prepareRejectsBadOperators() {
        expectInvalid(graph(input: [1, 5, 5]), "input must have rank 4")
        expectInvalid(graph(filter: [2, 3, 3, 8], bias: 8), "must start with 1")
        expectInvalid(graph(filter: [1, 3, 3, 6], bias: 6), "not a positive multiple")
        expectInvalid(graph(filter: [1, 3, 3, 2], bias: 2), "not a positive multiple")
        expectInvalid(graph(bias: 4), "bias has shape [4]")
        expectInvalid(
            graph(options: .conv2D(Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none))),
            "DepthwiseConv2DOptions are missing")
        expectInvalid(
            graph(
                options: .depthwiseConv2D(
                    DepthwiseConv2DOptions(
                        padding: .same, strideWidth: 1, strideHeight: -2, depthMultiplier: 2, activation: .none))),
            "stride (-2)")
        expectInvalid(
            graph(
                options: .depthwiseConv2D(
                    DepthwiseConv2DOptions(
                        padding: .same, strideWidth: 1, strideHeight: 1, depthMultiplier: 2, activation: .signBit))),
            "SIGN_BIT")
        expectUnsupportedTypes(graph(inputType: .uint8))
    }
}

/// Evaluates a prepared kernel directly on tensors `0 ..< inputs.count` (the inputs, in
/// order) and `inputs.count` (a zeroed output of `outputCount` floats), with 2 threads.
func evalDirect(_ kernel: any PreparedKernel, inputs: [[Float]], outputCount: Int, scratchBytes: [Int] = []) throws
    -> [Float]
{
    let buffers = inputs.map { AlignedBuffer($0) } + [AlignedBuffer(zeroedCount: outputCount * 4)]
    let scratch = scratchBytes.map { AlignedBuffer(zeroedCount: $0) }
    let table = buffers.map(\.pointer)
    let scratchTable = scratch.map(\.pointer) + [buffers[0].pointer]
    try table.withUnsafeBufferPointer { t in
        try scratchTable.withUnsafeBufferPointer { s in
            let context = EvalContext(
                tensors: t.baseAddress!, scratch: s.baseAddress!, scratchCount: scratch.count,
                parallel: Parallel(threadCount: 2))
            try kernel.eval(context)
        }
    }
    return Array(UnsafeBufferPointer(start: buffers[inputs.count].typed(Float.self), count: outputCount))
}
