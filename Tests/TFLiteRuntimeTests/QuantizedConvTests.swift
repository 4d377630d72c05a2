import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// The fast 8-bit kernels (constant weights: exact GEMM or packed direct loops) against
/// the reference loops (the same operator with its weights fed as a graph input), over
/// many random shapes, zero points (often at the ends of the range, so that centered
/// values reach 255 and the GEMM needs several chunks), activations, thread counts and kernel levels.
/// Equality is exact.
@Suite struct QuantizedConvTests {
    /// Runs `build(constant:)` several ways — reference loops, fast kernel with each of
    /// `threads` — and expects identical bytes; returns the shape.
    @discardableResult
    func expectFastMatchesReference(
        _ what: String, x: [Int], weights: [Int], threads: [Int] = [1, 3],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ build: (_ constant: Bool) -> GraphBuilder
    ) throws -> [Int] {
        let reference = try QTest.run(
            build(false), [QTest.bytes(x), QTest.bytes(weights)], threads: 1, level: .portable)
        for level in QTest.levels {
            for threads in threads {
                let fast = try QTest.run(build(true), [QTest.bytes(x)], threads: threads, level: level)
                #expect(fast.shape == reference.shape, "\(what)", sourceLocation: sourceLocation)
                if fast.bytes != reference.bytes {
                    let diffs = zip(fast.bytes, reference.bytes).filter { $0 != $1 }.count
                    Issue.record(
                        "\(what), \(level), \(threads) threads: \(diffs) of \(reference.bytes.count) outputs differ",
                        sourceLocation: sourceLocation)
                }
            }
        }
        return reference.shape
    }

    @Test func conv2DRandomShapes() throws {
        var rng = SplitMix64(seed: 2024)
        for trial in 0 ..< 60 {
            let type: ElementType = Bool.random(using: &rng) ? .uint8 : .int8
            let groups = trial % 5 == 0 ? Int.random(in: 2 ... 3, using: &rng) : 1
            let deep = trial % 7 == 0
            let cg = deep ? Int.random(in: 40 ... 90, using: &rng) : Int.random(in: 1 ... 6, using: &rng)
            // Group widths from 1 to past 16, so that the AVX2 kernel (8 or more per group) and its
            // panel edges are reached as well as the portable one.
            let outC = groups * Int.random(in: 1 ... (deep ? 40 : 20), using: &rng)
            let input = [
                Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... 9, using: &rng),
                Int.random(in: 1 ... 9, using: &rng), cg * groups,
            ]
            let filter = [outC, Int.random(in: 1 ... 4, using: &rng), Int.random(in: 1 ... 4, using: &rng), cg]
            let stride = (Int.random(in: 1 ... 3, using: &rng), Int.random(in: 1 ... 3, using: &rng))
            let dilation = (Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... 2, using: &rng))
            let fitsValid = (filter[1] - 1) * dilation.0 < input[1] && (filter[2] - 1) * dilation.1 < input[2]
            let padding: Padding = fitsValid && Bool.random(using: &rng) ? .valid : .same
            let activation = QTest.activations.randomElement(using: &rng) ?? .none
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: outC, axis: 0,
                depth: filter[1] * filter[2] * cg, perChannel: Bool.random(using: &rng),
                bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = Conv2DOptions(
                padding: padding, strideWidth: stride.1, strideHeight: stride.0, activation: activation,
                dilationWidth: dilation.1, dilationHeight: dilation.0)
            try expectFastMatchesReference("conv \(type) \(input) \(filter) \(options)", x: x, weights: q.codes) {
                constant in
                q.conv2DGraph(input: input, filter: filter, options: options, constant: constant)
            }
        }
    }

    /// 1x1 stride-1 unpadded convolutions take the contiguous-rows path: images past one
    /// tile (256 pixels), batch 2, deep and shallow inputs, SAME and VALID (the same for 1x1).
    @Test func pointwiseConv2DMatchesReference() throws {
        var rng = SplitMix64(seed: 0x1b1)
        for trial in 0 ..< 12 {
            let type: ElementType = trial % 2 == 0 ? .uint8 : .int8
            let cin = trial % 3 == 0 ? Int.random(in: 300 ... 600, using: &rng) : Int.random(in: 1 ... 40, using: &rng)
            let outC = Int.random(in: 1 ... 24, using: &rng)
            let input = [
                1 + trial % 2, Int.random(in: 1 ... 23, using: &rng), Int.random(in: 1 ... 23, using: &rng), cin,
            ]
            let filter = [outC, 1, 1, cin]
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: outC, axis: 0, depth: cin,
                perChannel: Bool.random(using: &rng), bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = Conv2DOptions(
                padding: trial % 4 == 0 ? .valid : .same, strideWidth: 1, strideHeight: 1,
                activation: QTest.activations.randomElement(using: &rng) ?? .none,
                dilationWidth: 1, dilationHeight: 1)
            try expectFastMatchesReference(
                "pointwise conv \(type) \(input) \(filter)", x: x, weights: q.codes, threads: [1, 2]
            ) { constant in
                q.conv2DGraph(input: input, filter: filter, options: options, constant: constant)
            }
        }
    }

    @Test func depthwiseRandomShapes() throws {
        var rng = SplitMix64(seed: 77)
        for _ in 0 ..< 60 {
            let type: ElementType = Bool.random(using: &rng) ? .uint8 : .int8
            let inC = Int.random(in: 1 ... 21, using: &rng)
            let multiplier = [1, 1, 2, 3].randomElement(using: &rng) ?? 1
            let outC = inC * multiplier
            let input = [
                Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... 9, using: &rng),
                Int.random(in: 1 ... 9, using: &rng), inC,
            ]
            let filter = [1, Int.random(in: 1 ... 5, using: &rng), Int.random(in: 1 ... 5, using: &rng), outC]
            let stride = (Int.random(in: 1 ... 3, using: &rng), Int.random(in: 1 ... 3, using: &rng))
            let dilation = (Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... 2, using: &rng))
            let fitsValid = (filter[1] - 1) * dilation.0 < input[1] && (filter[2] - 1) * dilation.1 < input[2]
            let padding: Padding = fitsValid && Bool.random(using: &rng) ? .valid : .same
            let activation = QTest.activations.randomElement(using: &rng) ?? .none
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: outC, axis: 3,
                depth: filter[1] * filter[2], perChannel: Bool.random(using: &rng),
                bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = DepthwiseConv2DOptions(
                padding: padding, strideWidth: stride.1, strideHeight: stride.0,
                depthMultiplier: multiplier, activation: activation,
                dilationWidth: dilation.1, dilationHeight: dilation.0)
            try expectDepthwiseMatchesReference(type, input: input, filter: filter, options: options, weights: q, x: x)
        }
    }

    /// One depthwise case through ``expectFastMatchesReference``.
    func expectDepthwiseMatchesReference(
        _ type: ElementType, input: [Int], filter: [Int], options: DepthwiseConv2DOptions,
        weights q: QuantizedWeights, x: [Int], threads: [Int] = [1, 3],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectFastMatchesReference(
            "depthwise \(type) \(input) \(filter) \(options)", x: x, weights: q.codes, threads: threads,
            sourceLocation: sourceLocation
        ) { constant in
            var g = GraphBuilder()
            let xi = g.input(input, type, quantization: q.inputQuantization)
            let (w, b) = q.add(to: &g, shape: filter, constant: constant)
            let y = g.tensor([1], type, quantization: q.outputQuantization)
            g.op(
                .depthwiseConv2D, inputs: b >= 0 ? [xi, w, b] : [xi, w], outputs: [y],
                options: .depthwiseConv2D(options))
            g.output(y)
            return g
        }
    }

    /// The 3×3 depthwise kernel that sums in Float (``DepthwiseConv2D3x3Q8``): strides
    /// 1 and 2 in each direction, channel counts around its 4-wide blocks and the ones whose
    /// rows go pixel by pixel (`strideW·C` a multiple of 64), images with and without
    /// interior pixels, batch 2, both types, zero points at the ends of the range (the
    /// largest exact sums), 1 to 3 threads (3 more than some images have rows).
    @Test func depthwiseThreeByThreeRandomShapes() throws {
        var rng = SplitMix64(seed: 0xd3)
        for trial in 0 ..< 70 {
            let type: ElementType = trial % 2 == 0 ? .uint8 : .int8
            let channels = [1, 3, 4, 5, 8, 13, 16, 21, 32, 33, 48, 64, 144].randomElement(using: &rng) ?? 8
            let small = trial % 5 == 0
            let input = [
                Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... (small ? 3 : 14), using: &rng),
                Int.random(in: 1 ... (small ? 3 : 14), using: &rng), channels,
            ]
            let stride = (Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... 2, using: &rng))
            let padding: Padding = input[1] >= 3 && input[2] >= 3 && Bool.random(using: &rng) ? .valid : .same
            let activation = QTest.activations.randomElement(using: &rng) ?? .none
            let q = QuantizedWeights(
                type: type, count: 9 * channels, channels: channels, axis: 3, depth: 9,
                perChannel: Bool.random(using: &rng), bias: Bool.random(using: &rng), rng: &rng)
            let geometry = try Conv2DGeometry.make(
                batch: input[0], inH: input[1], inW: input[2], inC: channels, outC: channels,
                kh: 3, kw: 3, strideH: stride.0, strideW: stride.1, dilationH: 1, dilationW: 1,
                padding: padding)
            #expect(DepthwiseConv2D3x3Q8.covers(geometry))
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = DepthwiseConv2DOptions(
                padding: padding, strideWidth: stride.1, strideHeight: stride.0,
                depthMultiplier: 1, activation: activation)
            try expectDepthwiseMatchesReference(
                type, input: input, filter: [1, 3, 3, channels], options: options, weights: q, x: x,
                threads: [1, 2, 3])
        }
    }

    /// A constant 3×3 filter with a bias known only at run time (a graph input): every
    /// level adds it per invocation and gives the bytes of the same graph with the bias
    /// constant.
    @Test func depthwiseThreeByThreeRuntimeBias() throws {
        var rng = SplitMix64(seed: 0xb1a5)
        for (type, channels) in [(ElementType.int8, 16), (.uint8, 21)] {
            let input = [1, 7, 9, channels]
            let q = QuantizedWeights(
                type: type, count: 9 * channels, channels: channels, axis: 3, depth: 9,
                perChannel: type == .int8, bias: true, rng: &rng)
            let bias = try #require(q.biasValues)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = DepthwiseConv2DOptions(
                padding: .same, strideWidth: 2, strideHeight: 1, depthMultiplier: 1, activation: .none)
            func graph(runtimeBias: Bool) -> GraphBuilder {
                var g = GraphBuilder()
                let xi = g.input(input, type, quantization: q.inputQuantization)
                let b =
                    runtimeBias
                    ? g.input([channels], .int32, quantization: q.biasQuantization)
                    : g.constant(bias, shape: [channels], .int32, quantization: q.biasQuantization)
                let w = g.constant(
                    QTest.bytes(q.codes), shape: [1, 3, 3, channels], type, quantization: q.quantization)
                let y = g.tensor([1], type, quantization: q.outputQuantization)
                g.op(.depthwiseConv2D, inputs: [xi, w, b], outputs: [y], options: .depthwiseConv2D(options))
                g.output(y)
                return g
            }
            let biasBytes = bias.withUnsafeBytes { Array($0) }
            for level in QTest.levels {
                for threads in [1, 2] {
                    let expected = try QTest.run(graph(runtimeBias: false), [QTest.bytes(x)], threads: 1, level: level)
                    let got = try QTest.run(
                        graph(runtimeBias: true), [QTest.bytes(x), biasBytes], threads: threads, level: level)
                    #expect(got.bytes == expected.bytes, "\(type) \(level) \(threads) threads")
                }
            }
        }
    }

    /// At 2 threads each thread's scratch is a region of its own, outside the arena; an
    /// engine whose memory budget leaves no room for the regions uses its arena slots. The
    /// bytes are the same either way, and the same as at 1 thread (which has no regions).
    @Test func threadScratchRegionsAndTheirFallback() throws {
        var rng = SplitMix64(seed: 0x7e5c)
        let channels = 32, input = [1, 12, 12, channels]
        let q = QuantizedWeights(
            type: .int8, count: 9 * channels, channels: channels, axis: 3, depth: 9, perChannel: true, bias: true,
            rng: &rng)
        let bias = try #require(q.biasValues)
        let x = QTest.bytes(QTest.randomCodes(input.reduce(1, *), .int8, &rng))
        var g = GraphBuilder()
        let xi = g.input(input, .int8, quantization: q.inputQuantization)
        let w = g.constant(QTest.bytes(q.codes), shape: [1, 3, 3, channels], .int8, quantization: q.quantization)
        let b = g.constant(bias, shape: [channels], .int32, quantization: q.biasQuantization)
        let y = g.tensor([1], .int8, quantization: q.outputQuantization)
        let options = DepthwiseConv2DOptions(
            padding: .same, strideWidth: 1, strideHeight: 1, depthMultiplier: 1, activation: .relu6)
        g.op(.depthwiseConv2D, inputs: [xi, w, b], outputs: [y], options: .depthwiseConv2D(options))
        g.output(y)
        func run(threads: Int, budget: Int? = nil) throws -> (bytes: [UInt8], engine: Engine) {
            var engineOptions = EngineOptions()
            engineOptions.threadCount = threads
            if let budget { engineOptions.memoryBudget = budget }
            let engine = try Engine(model: g.model(), options: engineOptions)
            try engine.allocate()
            try engine.setInput(0, x)
            try engine.invoke()
            return (try engine.output(0, as: UInt8.self), engine)
        }
        let one = try run(threads: 1)
        #expect(one.engine.threadRegionBytes == 0)
        let two = try run(threads: 2)
        #expect(two.engine.threadRegionBytes > 0)
        #expect(two.bytes == one.bytes)
        // Room for the arena and one region, not two: the kernel falls back to its slot.
        let tight = two.engine.arenaSize + two.engine.foldedConstantBytes + two.engine.threadRegionBytes
        let fallback = try run(threads: 2, budget: tight)
        #expect(fallback.engine.threadRegionBytes == 0)
        #expect(fallback.bytes == one.bytes)
    }

    /// Geometries the Float-sum kernel leaves to the integer one.
    @Test func depthwiseThreeByThreeCoverage() throws {
        func geometry(k: Int = 3, inC: Int = 8, outC: Int = 8, stride: Int = 1, dilation: Int = 1) throws
            -> Conv2DGeometry
        {
            try Conv2DGeometry.make(
                batch: 1, inH: 9, inW: 9, inC: inC, outC: outC, kh: k, kw: k, strideH: stride, strideW: stride,
                dilationH: dilation, dilationW: dilation, padding: .same)
        }
        #expect(DepthwiseConv2D3x3Q8.covers(try geometry(stride: 2)))
        #expect(!DepthwiseConv2D3x3Q8.covers(try geometry(k: 5)))
        #expect(!DepthwiseConv2D3x3Q8.covers(try geometry(outC: 16)))
        #expect(!DepthwiseConv2D3x3Q8.covers(try geometry(stride: 3)))
        #expect(!DepthwiseConv2D3x3Q8.covers(try geometry(dilation: 2)))
        #expect(DepthwiseConv2D3x3Q8.sumsAreExact(try geometry(), maxAbsInput: 255, maxAbsWeight: 255))
        #expect(!DepthwiseConv2D3x3Q8.sumsAreExact(try geometry(k: 9), maxAbsInput: 255, maxAbsWeight: 255))
    }

    @Test func fullyConnectedRandomShapes() throws {
        var rng = SplitMix64(seed: 5)
        for trial in 0 ..< 50 {
            let type: ElementType = Bool.random(using: &rng) ? .uint8 : .int8
            let depth =
                trial % 4 == 0 ? Int.random(in: 300 ... 1200, using: &rng) : Int.random(in: 1 ... 80, using: &rng)
            let units = Int.random(in: 1 ... 150, using: &rng)
            let keep = Bool.random(using: &rng)
            let input =
                keep
                ? [Int.random(in: 1 ... 3, using: &rng), Int.random(in: 1 ... 40, using: &rng), depth]
                : [Int.random(in: 1 ... 140, using: &rng), depth]
            let activation = QTest.activations.randomElement(using: &rng) ?? .none
            let q = QuantizedWeights(
                type: type, count: units * depth, channels: units, axis: 0, depth: depth,
                perChannel: Bool.random(using: &rng), bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = FullyConnectedOptions(activation: activation, keepNumDims: keep)
            let shape = try expectFastMatchesReference(
                "FC \(type) \(input) → \(units) \(options)", x: x, weights: q.codes
            ) { constant in
                q.fullyConnectedGraph(input: input, units: units, depth: depth, options: options, constant: constant)
            }
            #expect(shape == (keep ? Array(input.dropLast()) + [units] : [input[0], units]))
        }
    }

    @Test func transposeConvRandomShapes() throws {
        var rng = SplitMix64(seed: 31)
        for _ in 0 ..< 40 {
            let type: ElementType = Bool.random(using: &rng) ? .uint8 : .int8
            let inC = Int.random(in: 1 ... 12, using: &rng), outC = Int.random(in: 1 ... 9, using: &rng)
            let input = [
                Int.random(in: 1 ... 2, using: &rng), Int.random(in: 1 ... 6, using: &rng),
                Int.random(in: 1 ... 6, using: &rng), inC,
            ]
            let weights = [outC, Int.random(in: 1 ... 4, using: &rng), Int.random(in: 1 ... 4, using: &rng), inC]
            let stride = (Int.random(in: 1 ... 3, using: &rng), Int.random(in: 1 ... 3, using: &rng))
            let outShape = [
                input[0], Int.random(in: 1 ... input[1] * stride.0 + 2, using: &rng),
                Int.random(in: 1 ... input[2] * stride.1 + 2, using: &rng), outC,
            ]
            let padding: Padding = Bool.random(using: &rng) ? .valid : .same
            let activation = QTest.activations.randomElement(using: &rng) ?? .none
            let q = QuantizedWeights(
                type: type, count: weights.reduce(1, *), channels: outC, axis: 0,
                depth: weights[1] * weights[2] * inC, perChannel: Bool.random(using: &rng),
                bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = TransposeConvOptions(
                padding: padding, strideWidth: stride.1, strideHeight: stride.0, activation: activation)
            let shape = try expectFastMatchesReference(
                "transpose conv \(type) \(input) \(weights) → \(outShape) \(options)",
                x: x, weights: q.codes
            ) { constant in
                var g = GraphBuilder()
                let xi = g.input(input, type, quantization: q.inputQuantization)
                let s = g.constant(outShape.map { Int32($0) }, shape: [4])
                let (w, b) = q.add(to: &g, shape: weights, constant: constant)
                let y = g.tensor([1], type, quantization: q.outputQuantization)
                g.op(
                    .transposeConv, inputs: b >= 0 ? [s, w, xi, b] : [s, w, xi], outputs: [y],
                    options: .transposeConv(options))
                g.output(y)
                return g
            }
            #expect(shape == outShape)
        }
    }

    // MARK: Building blocks

    /// Chunked single-precision GEMM equals wrapping Int32 loops, including sums that
    /// overflow Int32 and inner dimensions spanning many chunks.
    @Test func exactGEMMMatchesIntegerLoops() {
        var rng = SplitMix64(seed: 9)
        let shapes: [(m: Int, n: Int, k: Int, bound: Int32)] = [
            (3, 5, 7, 10), (4, 3, 1000, 255), (2, 3, 40_000, 255), (5, 70, 300, 127),
        ]
        for (m, n, k, bound) in shapes {
            let a: [Int32] = (0 ..< m * k).map { _ in Int32.random(in: -bound ... bound, using: &rng) }
            let b: [Int32] = (0 ..< n * k).map { _ in Int32.random(in: -bound ... bound, using: &rng) }
            var expected = [Int32](repeating: 0, count: m * n)
            for i in 0 ..< m {
                for j in 0 ..< n {
                    var sum: Int32 = 0
                    for t in 0 ..< k { sum = sum &+ a[i * k + t] &* b[j * k + t] }
                    expected[i * n + j] = sum
                }
            }
            let gemm = ExactGEMM(maxAbsA: Int(bound), maxAbsB: Int(bound))
            var got = [Int32](repeating: 0, count: m * n)
            var temp = [Float](repeating: 0, count: m * n)
            let fa = a.map(Float.init), fb = b.map(Float.init)
            fa.withUnsafeBufferPointer { pa in
                fb.withUnsafeBufferPointer { pb in
                    temp.withUnsafeMutableBufferPointer { pt in
                        got.withUnsafeMutableBufferPointer { pc in
                            gemm.run(
                                m: m, n: n, k: k, a: pa.baseAddress!, lda: k, b: pb.baseAddress!, ldb: k,
                                temp: pt.baseAddress!, acc: pc.baseAddress!, ldacc: n)
                        }
                    }
                }
            }
            #expect(got == expected, "m \(m) n \(n) k \(k)")
        }
        #expect(ExactGEMM(maxAbsA: 255, maxAbsB: 255).chunk == 258)
    }

    /// The floating-point requantization of FULLY_CONNECTED rounds ties away from zero;
    /// the fixed-point one is `MultiplyByQuantizedMultiplier`; both clamp after adding
    /// the zero point.
    @Test func requantizerModes() {
        let double = Requantizer(mode: .double(scales: [0.5]), outputZeroPoint: 10, lower: -128, upper: 127)
        #expect(double.apply(-3, channel: 0) == 8) // -1.5 → -2
        #expect(double.apply(3, channel: 0) == 12) // 1.5 → 2
        #expect(double.apply(1000, channel: 0) == 127)
        #expect(double.apply(Int32.min, channel: 0) == -128)
        let (m, e) = FixedPoint.quantizeMultiplier(0.3)
        let fixed = Requantizer(
            mode: .fixedPoint(mantissas: [m], exponents: [e]), outputZeroPoint: -5, lower: -128, upper: 127)
        for acc: Int32 in [-1000, -17, 0, 5, 33, 400] {
            let expected = Swift.min(127, Swift.max(-128, FixedPoint.multiplyByQuantizedMultiplier(acc, m, e) - 5))
            #expect(fixed.apply(acc, channel: 0) == expected)
        }
    }

    /// `r.store` of `acc[first ..< count - trim]` (with and without `bias`, into int8 and
    /// uint8 codes) gives the bits of the scalar ``Requantizer/apply(_:channel:)``.
    private func expectStoreMatchesApply(_ r: Requantizer, acc: [Int32], bias: [Int32], first: Int, trim: Int) {
        let count = acc.count - first - trim
        for withBias in [false, true] {
            var got = [Int8](repeating: 0, count: count), gotU = [UInt8](repeating: 0, count: count)
            acc.withUnsafeBufferPointer { a in
                bias.withUnsafeBufferPointer { b in
                    let a0 = a.baseAddress! + first, b0 = withBias ? b.baseAddress! : nil
                    got.withUnsafeMutableBufferPointer {
                        r.store(a0, count: count, firstChannel: first, bias: b0, into: $0.baseAddress!)
                    }
                    gotU.withUnsafeMutableBufferPointer {
                        r.store(a0, count: count, firstChannel: first, bias: b0, into: $0.baseAddress!)
                    }
                }
            }
            for j in 0 ..< count {
                let c = first + j
                let expected = r.apply(withBias ? acc[c] &+ bias[c] : acc[c], channel: c)
                #expect(
                    Int32(got[j]) == Int32(Int8(truncatingIfNeeded: expected)),
                    "acc \(acc[c]) channel \(c) bias \(withBias) level \(r.level)")
                #expect(Int32(gotU[j]) == Int32(UInt8(truncatingIfNeeded: expected)))
            }
        }
    }

    /// The floating-point store (FULLY_CONNECTED's reference requantization; four `Double`
    /// lanes at the vector levels, the truncation-based rounding in the portable loop)
    /// gives the bits of the scalar ``Requantizer/apply(_:channel:)``: scales that make
    /// ties common (halves, quarters) and random ones, extreme sums, every offset and tail,
    /// with and without bias, both 8-bit types.
    @Test(arguments: KernelLevel.allCases.filter { $0 <= KernelLevel.host })
    func doubleStoreMatchesScalarRequantization(level: KernelLevel) {
        var rng = SplitMix64(seed: 0xd0b1e)
        let channels = 37
        var scales: [Double] = []
        for c in 0 ..< channels {
            let pick = c % 4
            scales.append(
                pick == 0
                    ? 0.5 : pick == 1 ? 0.25 : pick == 2 ? 1.5 : Double(rng.next() >> 11) / Double(1 << 53) * 0.01)
        }
        let extremes: [Int32] = [Int32.min, -1 << 30, -511, -255, -3, -1, 0, 1, 3, 255, 511, 1 << 30, Int32.max]
        for (zero, lower, upper): (Int32, Int32, Int32) in [
            (-5, -128, 127), (0, 0, 6), (100, 0, 255), (127, -128, 127),
        ] {
            let r = Requantizer(
                mode: .double(scales: scales), outputZeroPoint: zero, lower: lower, upper: upper, level: level)
            for round in 0 ..< 100 {
                var acc = [Int32](repeating: 0, count: channels), bias = acc
                for c in 0 ..< channels {
                    acc[c] =
                        round < 4
                        ? extremes[(c + round) % extremes.count]
                        : Int32(truncatingIfNeeded: rng.next()) >> Int32(18 + rng.next() % 14)
                    bias[c] = Int32(truncatingIfNeeded: rng.next()) >> Int32(20 + rng.next() % 12)
                }
                expectStoreMatchesApply(r, acc: acc, bias: bias, first: round % 9, trim: round % 7)
            }
        }
    }

    /// The eight-lane store (``FixedChannelLanes``, on magnitudes with `pmuludq`-shaped
    /// multiplies) gives the bits of the scalar ``Requantizer/apply(_:channel:)`` for
    /// every exponent TFLite produces, left shifts included, with and without bias, at
    /// every offset into the channel arrays and for both 8-bit types.
    @Test(arguments: KernelLevel.allCases.filter { $0 <= KernelLevel.host })
    func laneStoreMatchesScalarRequantization(level: KernelLevel) {
        var rng = SplitMix64(seed: 0x1a9e5)
        let exponents = Array(-31 ... 30)
        let channels = exponents.count * 2
        var mantissas: [Int32] = [], exps: [Int] = []
        for c in 0 ..< channels {
            exps.append(exponents[c % exponents.count])
            let pick = rng.next() % 5
            mantissas.append(
                pick == 0
                    ? 0
                    : pick == 1
                        ? Int32.max : pick == 2 ? 1 << 30 : Int32(truncatingIfNeeded: (1 << 30) + Int(rng.next() >> 34))
            )
        }
        let extremes: [Int32] = [
            Int32.min, Int32.min + 1, -1 << 30, -65536, -3, -2, -1, 0, 1, 2, 3, 65535, 1 << 30, Int32.max,
        ]
        for (zero, lower, upper): (Int32, Int32, Int32) in [
            (-5, -128, 127), (0, 0, 6), (100, 0, 255), (-128, -128, 127),
        ] {
            let r = Requantizer(
                mode: .fixedPoint(mantissas: mantissas, exponents: exps), outputZeroPoint: zero, lower: lower,
                upper: upper,
                level: level)
            #expect(r.lanes != nil)
            #expect(r.level == level)
            for round in 0 ..< 200 {
                var acc = [Int32](repeating: 0, count: channels), bias = acc
                for c in 0 ..< channels {
                    let bits = Int32(truncatingIfNeeded: rng.next())
                    acc[c] = round < 4 ? extremes[(c + round) % extremes.count] : bits >> Int32(rng.next() % 32)
                    bias[c] = Int32(truncatingIfNeeded: rng.next()) >> Int32(rng.next() % 32)
                }
                expectStoreMatchesApply(r, acc: acc, bias: bias, first: round % 9, trim: round % 7)
            }
        }
    }

    /// With int8 codes over the whole int8 range and every `R ≥ 1`, the AVX-512 store clamps
    /// by its narrowing's signed saturation; the bits stay the scalar form's, extremes
    /// included, and any narrower range or an `R` of 0 keeps the explicit clamp.
    @Test(arguments: KernelLevel.allCases.filter { $0 <= KernelLevel.host })
    func saturatingStoreMatchesScalarRequantization(level: KernelLevel) {
        var rng = SplitMix64(seed: 0x5a7)
        let exponents = (0 ..< 70).map { -1 - $0 % 31 }
        let mantissas = exponents.map { _ in Int32.random(in: (1 << 30) ... Int32.max, using: &rng) }
        #expect(
            !Requantizer(
                mode: .fixedPoint(mantissas: [1 << 30], exponents: [0]), outputZeroPoint: 0, lower: -128, upper: 127
            ).saturates)
        #expect(
            !Requantizer(
                mode: .fixedPoint(mantissas: [1 << 30], exponents: [-1]), outputZeroPoint: 0, lower: -128, upper: 100
            ).saturates)
        for zero: Int32 in [-128, -5, 127] {
            let r = Requantizer(
                mode: .fixedPoint(mantissas: mantissas, exponents: exponents), outputZeroPoint: zero, lower: -128,
                upper: 127, level: level)
            #expect(r.saturates)
            for round in 0 ..< 50 {
                let acc = (0 ..< 70).map { c -> Int32 in
                    round == 0
                        ? (c % 2 == 0 ? Int32.max : Int32.min)
                        : Int32(truncatingIfNeeded: rng.next()) >> Int32(rng.next() % 32)
                }
                var got = [Int8](repeating: 0, count: 70)
                acc.withUnsafeBufferPointer { a in
                    got.withUnsafeMutableBufferPointer {
                        r.storeRows(
                            a.baseAddress!, rows: 1, count: 70, accStride: 70, firstChannel: 0, bias: nil,
                            into: $0.baseAddress!, outStride: 70)
                    }
                }
                #expect(got.map { Int32($0) } == (0 ..< 70).map { r.apply(acc[$0], channel: $0) }, "zp \(zero)")
            }
        }
    }

    /// The per-tensor form (one `R` for every lane, a plain shift) gives the scalar bits
    /// too, for every exponent.
    @Test(arguments: KernelLevel.allCases.filter { $0 <= KernelLevel.host })
    func uniformLaneStoreMatchesScalarRequantization(level: KernelLevel) {
        var rng = SplitMix64(seed: 0x0a1f)
        for e in -31 ... 30 {
            let mantissa = Int32(truncatingIfNeeded: (1 << 30) + Int(rng.next() >> 34))
            let r = Requantizer(
                mode: .fixedPoint(
                    mantissas: [Int32](repeating: mantissa, count: 40), exponents: [Int](repeating: e, count: 40)),
                outputZeroPoint: -3, lower: -128, upper: 127, level: level)
            #expect(r.lanes?.uniformRight == UInt32(Swift.max(-e, 0)))
            for _ in 0 ..< 20 {
                let acc = (0 ..< 40).map { _ in Int32(truncatingIfNeeded: rng.next()) >> Int32(rng.next() % 32) }
                var got = [Int8](repeating: 0, count: 40)
                acc.withUnsafeBufferPointer { a in
                    got.withUnsafeMutableBufferPointer {
                        r.store(a.baseAddress!, count: 40, firstChannel: 0, bias: nil, into: $0.baseAddress!)
                    }
                }
                #expect(got.map { Int32($0) } == acc.map { r.apply($0, channel: 0) }, "e \(e)")
            }
        }
    }

    /// The float32 mode rounds `Float(acc)·scale` to nearest with ties to even after
    /// clamping, and its vectorized store agrees with the scalar form.
    @Test(arguments: KernelLevel.allCases.filter { $0 <= KernelLevel.host })
    func float32RequantizationRoundsToNearestEven(level: KernelLevel) {
        let half = Requantizer(mode: .float32(scales: [0.5]), outputZeroPoint: 10, lower: -128, upper: 127)
        #expect(half.apply(3, channel: 0) == 12) // 1.5 → 2
        #expect(half.apply(5, channel: 0) == 12) // 2.5 → 2
        #expect(half.apply(-3, channel: 0) == 8) // -1.5 → -2
        #expect(half.apply(-5, channel: 0) == 8) // -2.5 → -2
        #expect(half.apply(Int32.max, channel: 0) == 127)
        #expect(half.apply(Int32.min, channel: 0) == -128)
        var rng = SplitMix64(seed: 0xf32)
        let scales = (0 ..< 37).map { _ in Float(rng.next() % 10_000 + 1) * 1e-6 }
        let r = Requantizer(mode: .float32(scales: scales), outputZeroPoint: 3, lower: 0, upper: 255, level: level)
        let acc = (0 ..< 37).map { _ in Int32(truncatingIfNeeded: rng.next()) >> Int32(rng.next() % 32) }
        let bias = (0 ..< 37).map { _ in Int32(truncatingIfNeeded: rng.next()) >> 12 }
        var got = [UInt8](repeating: 0, count: 37)
        acc.withUnsafeBufferPointer { a in
            bias.withUnsafeBufferPointer { b in
                got.withUnsafeMutableBufferPointer {
                    r.store(a.baseAddress!, count: 37, firstChannel: 0, bias: b.baseAddress!, into: $0.baseAddress!)
                }
            }
        }
        for c in 0 ..< 37 {
            #expect(Int32(got[c]) == r.apply(acc[c] &+ bias[c], channel: c), "channel \(c)")
        }
    }

    /// The branch-free per-channel form used by the kernels equals
    /// `MultiplyByQuantizedMultiplier` for every exponent, random and extreme accumulators.
    @Test func fixedChannelMatchesMultiplyByQuantizedMultiplier() {
        var rng = SplitMix64(seed: 0x5eed)
        let extremes: [Int32] = [
            Int32.min, Int32.min + 1, -1 << 30, -65536, -3, -2, -1, 0, 1, 2, 3, 65535, 1 << 30, Int32.max - 1,
            Int32.max,
        ]
        for e in -31 ... 30 {
            for mantissa: Int32 in [
                0, 1 << 30, (1 << 30) + 1, Int32.max, Int32(truncatingIfNeeded: (1 << 30) + Int(rng.next() >> 34)),
            ] {
                let q = Requantizer.FixedChannel(mantissa: mantissa, exponent: e)
                var inputs = extremes
                for _ in 0 ..< 400 {
                    let bits = Int32(truncatingIfNeeded: rng.next())
                    inputs.append(bits)
                    inputs.append(bits >> Int32(rng.next() % 31))
                }
                for x in inputs {
                    let expected = FixedPoint.multiplyByQuantizedMultiplier(x, mantissa, e)
                    #expect(q.apply(x) == Int64(expected), "x \(x) M \(mantissa) e \(e)")
                }
            }
        }
    }
}

/// One output row (FULLY_CONNECTED with batch 1, CONV_2D down to one pixel): the
/// matrix-vector kernel that reads the 8-bit weights from the model (``GemvQ8``).
@Suite struct QuantizedSingleRowTests {
    @Test func fullyConnectedOneRow() throws {
        var rng = SplitMix64(seed: 4242)
        for trial in 0 ..< 24 {
            let type: ElementType = trial % 2 == 0 ? .uint8 : .int8
            let depth =
                trial % 3 == 0 ? Int.random(in: 500 ... 1300, using: &rng) : Int.random(in: 1 ... 70, using: &rng)
            let units = trial % 4 == 0 ? Int.random(in: 65 ... 200, using: &rng) : Int.random(in: 1 ... 64, using: &rng)
            let input = trial % 5 == 0 ? [1, 1, depth] : [1, depth]
            let activation = QTest.activations.randomElement(using: &rng) ?? .none
            let q = QuantizedWeights(
                type: type, count: units * depth, channels: units, axis: 0, depth: depth,
                perChannel: Bool.random(using: &rng), bias: trial % 3 != 1, rng: &rng)
            let x = QTest.randomCodes(depth, type, &rng)
            let options = FullyConnectedOptions(activation: activation, keepNumDims: input.count == 3)
            let build = { (constant: Bool) in
                q.fullyConnectedGraph(input: input, units: units, depth: depth, options: options, constant: constant)
            }
            try QuantizedConvTests().expectFastMatchesReference(
                "FC \(type) \(input) → \(units)", x: x, weights: q.codes, build)
            try Self.expectSingleRowKernel(build(true))
        }
    }

    @Test func convolutionToOnePixel() throws {
        var rng = SplitMix64(seed: 99)
        // (input h, w), (kernel h, w), stride, dilation, padding: each gives a 1×1 output;
        // the SAME ones put some taps in the padding.
        let cases: [([Int], [Int], Int, Int, Padding)] = [
            ([1, 1], [1, 1], 1, 1, .valid), ([3, 3], [3, 3], 1, 1, .valid), ([1, 1], [3, 3], 1, 1, .same),
            ([2, 2], [3, 3], 2, 1, .same), ([3, 3], [2, 2], 1, 2, .valid), ([2, 3], [3, 1], 3, 1, .same),
        ]
        for (trial, (hw, k, stride, dilation, padding)) in (cases + cases).enumerated() {
            let type: ElementType = trial < cases.count ? .uint8 : .int8
            let inC = Int.random(in: 1 ... 300, using: &rng), outC = Int.random(in: 1 ... 140, using: &rng)
            let input = [1, hw[0], hw[1], inC], filter = [outC, k[0], k[1], inC]
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: outC, axis: 0,
                depth: k[0] * k[1] * inC, perChannel: Bool.random(using: &rng),
                bias: Bool.random(using: &rng), rng: &rng)
            let x = QTest.randomCodes(input.reduce(1, *), type, &rng)
            let options = Conv2DOptions(
                padding: padding, strideWidth: stride, strideHeight: stride,
                activation: QTest.activations.randomElement(using: &rng) ?? .none,
                dilationWidth: dilation, dilationHeight: dilation)
            let build = { (constant: Bool) in
                q.conv2DGraph(input: input, filter: filter, options: options, constant: constant)
            }
            let shape = try QuantizedConvTests().expectFastMatchesReference(
                "conv \(type) \(input) \(filter) \(options)",
                x: x, weights: q.codes, build)
            #expect(shape == [1, 1, 1, outC])
            try Self.expectSingleRowKernel(build(true))
        }
    }

    static func expectSingleRowKernel(_ g: GraphBuilder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.preparedKernels.contains { $0 is GemvQ8 }, sourceLocation: sourceLocation)
    }
}

extension QuantizedWeights {
    /// One CONV_2D over a graph input, with these weights (a graph input too when not `constant`).
    func conv2DGraph(input: [Int], filter: [Int], options: Conv2DOptions, constant: Bool) -> GraphBuilder {
        var g = GraphBuilder()
        let xi = g.input(input, type, quantization: inputQuantization)
        let (w, b) = add(to: &g, shape: filter, constant: constant)
        let y = g.tensor([1], type, quantization: outputQuantization)
        g.op(.conv2D, inputs: [xi, w, b], outputs: [y], options: .conv2D(options))
        g.output(y)
        return g
    }

    /// One FULLY_CONNECTED from a graph input to `units` outputs, with these weights.
    func fullyConnectedGraph(input: [Int], units: Int, depth: Int, options: FullyConnectedOptions, constant: Bool)
        -> GraphBuilder
    {
        var g = GraphBuilder()
        let xi = g.input(input, type, quantization: inputQuantization)
        let (w, b) = add(to: &g, shape: [units, depth], constant: constant)
        let y = g.tensor([1], type, quantization: outputQuantization)
        g.op(.fullyConnected, inputs: [xi, w, b], outputs: [y], options: .fullyConnected(options))
        g.output(y)
        return g
    }
}
