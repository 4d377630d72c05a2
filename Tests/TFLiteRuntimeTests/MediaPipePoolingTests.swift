import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// MediaPipe's pooling pair and the options checks of its custom operators, on small
/// cases worked out by hand from MediaPipe's source (spec/mediapipe-ops.md).
@Suite struct MediaPipePoolingTests {
    /// `TfLitePoolParams` as raw bytes: padding (1 SAME, 2 VALID), strides, filter, activation.
    static func poolOptions(padding: Int32 = 2, stride: Int32 = 2, filter: Int32 = 2, activation: Int32 = 0) -> [UInt8]
    {
        [padding, stride, stride, filter, filter, activation, 0, 0, 0, 0].flatMap { v in
            (0 ..< 4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * $0)) }
        }
    }

    static func pool(_ x: [Float], shape: [Int], options: [UInt8]) throws -> (
        values: [Float], indices: [Float], shape: [Int]
    ) {
        var g = GraphBuilder()
        let input = g.input(shape, .float32)
        let y = g.tensor([1], .float32), k = g.tensor([1], .float32)
        let storage = g.customOp("MaxPoolingWithArgmax2D", inputs: [input], outputs: [y, k], options: options)
        g.output(y)
        g.output(k)
        let engine = try withExtendedLifetime(storage) { try g.engine() }
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.invoke()
        return (try engine.output(0, as: Float.self), try engine.output(1, as: Float.self), engine.outputShape(0))
    }

    static func unpool(_ x: [Float], _ k: [Float], shape: [Int], options: [UInt8]) throws -> ([Float], [Int]) {
        var g = GraphBuilder()
        let values = g.input(shape, .float32), indices = g.input(shape, .float32)
        let y = g.tensor([1], .float32)
        let storage = g.customOp("MaxUnpooling2D", inputs: [values, indices], outputs: [y], options: options)
        g.output(y)
        let engine = try withExtendedLifetime(storage) { try g.engine() }
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.setInput(1, k)
        try engine.invoke()
        return (try engine.output(0, as: Float.self), engine.outputShape(0))
    }

    static let image: [Float] = [
        1, 5, 2, 0,
        3, 4, 8, 8,
        0, -1, 6, 7,
        2, 9, 7, 7,
    ]

    @Test func poolingKeepsTheFirstMaximumAndItsWindowIndex() throws {
        let r = try Self.pool(Self.image, shape: [1, 4, 4, 1], options: Self.poolOptions())
        #expect(r.shape == [1, 2, 2, 1])
        #expect(r.values == [5, 8, 9, 7])
        // Window-relative, row-major, plus 0.1; ties keep the first (8 at (1, 0), 7 at (0, 1)).
        #expect(r.indices == [1.1, 2.1, 3.1, 1.1])
    }

    @Test func samePaddingClipsTheWindowAtTheEdge() throws {
        let r = try Self.pool([1, 2, 3, 4, 5, 6, 7, 8, 9], shape: [1, 3, 3, 1], options: Self.poolOptions(padding: 1))
        #expect(r.shape == [1, 2, 2, 1])
        #expect(r.values == [5, 6, 8, 9])
        #expect(r.indices == [3.1, 2.1, 1.1, 0.1])
    }

    @Test func activationClampsThePooledValues() throws {
        let r = try Self.pool(Self.image, shape: [1, 4, 4, 1], options: Self.poolOptions(activation: 3)) // relu6
        #expect(r.values == [5, 6, 6, 6])
    }

    @Test func unpoolingPutsEachValueBackWhereItsIndexSays() throws {
        let pooled = try Self.pool(Self.image, shape: [1, 4, 4, 1], options: Self.poolOptions())
        let (y, shape) = try Self.unpool(
            pooled.values, pooled.indices, shape: [1, 2, 2, 1], options: Self.poolOptions())
        #expect(shape == [1, 4, 4, 1])
        #expect(
            y == [
                0, 5, 0, 0,
                0, 0, 8, 0,
                0, 0, 0, 7,
                0, 9, 0, 0,
            ])
    }

    @Test func unpoolingRefusesAnIndexOutsideTheWindow() throws {
        #expect(
            throws: RuntimeError.invokeFailed(
                index: 0, op: "CUSTOM:MaxUnpooling2D",
                reason: "index 4.0 at input (0, 0, 0, 0) is outside the 2x2 window")
        ) {
            _ = try Self.unpool([1], [4], shape: [1, 1, 1, 1], options: Self.poolOptions())
        }
        #expect(throws: RuntimeError.self) {
            _ = try Self.unpool([1], [.nan], shape: [1, 1, 1, 1], options: Self.poolOptions())
        }
    }

    @Test func malformedPoolOptionsAreRefusedAtPrepare() {
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:MaxPoolingWithArgmax2D",
                reason: "custom options have 8 bytes, fewer than the 24 of \(MediaPipePoolOptions.layout)")
        ) {
            _ = try Self.pool(Self.image, shape: [1, 4, 4, 1], options: Array(Self.poolOptions().prefix(8)))
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:MaxPoolingWithArgmax2D",
                reason: "strides (0, 0) must be positive")
        ) {
            _ = try Self.pool(Self.image, shape: [1, 4, 4, 1], options: Self.poolOptions(stride: 0))
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:MaxPoolingWithArgmax2D",
                reason: "activation 4 is not none, relu, relu_n1_to_1 or relu6")
        ) {
            _ = try Self.pool(Self.image, shape: [1, 4, 4, 1], options: Self.poolOptions(activation: 4))
        }
    }

    @Test func transposeConvBiasChecksItsOptionsAndBias() {
        func build(options: [UInt8], biasCount: Int) throws -> Engine {
            var g = GraphBuilder()
            let x = g.input([1, 2, 2, 1], .float32)
            let w = g.constant([Float](repeating: 1, count: 4), shape: [1, 2, 2, 1])
            let b = g.constant([Float](repeating: 0, count: biasCount), shape: [biasCount])
            let y = g.tensor([1], .float32)
            let storage = g.customOp("Convolution2DTransposeBias", inputs: [x, w, b], outputs: [y], options: options)
            g.output(y)
            return try withExtendedLifetime(storage) { try g.engine() }
        }
        let same: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:Convolution2DTransposeBias",
                reason: "bias has shape [2], expected [1] (one value per output channel)")
        ) {
            _ = try build(options: same, biasCount: 2)
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:Convolution2DTransposeBias",
                reason: "strides (2, 0) must be positive")
        ) {
            _ = try build(options: [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], biasCount: 1)
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:Convolution2DTransposeBias",
                reason: "padding 7 is not 0, 1 (SAME) or 2 (VALID)")
        ) {
            _ = try build(options: [7, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0], biasCount: 1)
        }
    }

    @Test func transposeConvBiasScattersLikeTransposeConv() throws {
        // 2x2 input, 2x2 ones filter, stride 2, SAME: each input pixel fills its own 2x2 block, plus the bias.
        var g = GraphBuilder()
        let x = g.input([1, 2, 2, 1], .float32)
        let w = g.constant([Float](repeating: 1, count: 4), shape: [1, 2, 2, 1])
        let b = g.constant([Float(0.5)], shape: [1])
        let y = g.tensor([1], .float32)
        let storage = g.customOp(
            "Convolution2DTransposeBias", inputs: [x, w, b], outputs: [y],
            options: [1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0])
        g.output(y)
        let engine = try withExtendedLifetime(storage) { try g.engine() }
        try engine.allocate()
        try engine.setInput(0, [Float(1), 2, 3, 4])
        try engine.invoke()
        #expect(engine.outputShape(0) == [1, 4, 4, 1])
        #expect(
            try engine.output(0, as: Float.self) == [
                1.5, 1.5, 2.5, 2.5,
                1.5, 1.5, 2.5, 2.5,
                3.5, 3.5, 4.5, 4.5,
                3.5, 3.5, 4.5, 4.5,
            ])
    }

    @Test func landmarkIndicesOutsideTheInputAreRefused() throws {
        let options = try MediaPipeModelTests.options(of: "Landmarks2TransformMatrix")
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:Landmarks2TransformMatrix",
                reason: "right_rotation_idx 291 is not a landmark index (0..<100)")
        ) {
            _ = try MediaPipeModelTests.run(
                "Landmarks2TransformMatrix", options: options,
                inputs: [([Float](repeating: 0, count: 300), [1, 100, 3])], output: [1, 4, 4])
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:Landmarks2TransformMatrix",
                reason: "custom options are missing (expected a FlexBuffers map)")
        ) {
            _ = try MediaPipeModelTests.run(
                "Landmarks2TransformMatrix", options: [],
                inputs: [([Float](repeating: 0, count: 300), [1, 100, 3])], output: [1, 4, 4])
        }
    }
}
