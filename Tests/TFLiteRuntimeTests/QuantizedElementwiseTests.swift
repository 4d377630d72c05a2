import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Prepare-time validation of the 8-bit kernels and thread-count independence on
/// tensors large enough to be split (the goldens are too small to be).
struct QuantizedElementwiseTests {
    static func q(_ scale: Float, _ zeroPoint: Int64) -> Quantization {
        Quantization(scales: [scale], zeroPoints: [zeroPoint])
    }

    /// A one-op graph whose inputs are graph inputs.
    static func graph(
        _ code: BuiltinOperator, _ inputs: [([Int], ElementType, Quantization?)],
        out: ([Int], ElementType, Quantization?), options: BuiltinOptions = .none
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let ins = inputs.map { g.input($0.0, $0.1, quantization: $0.2) }
        let y = g.tensor(out.0, out.1, quantization: out.2)
        g.op(code, inputs: ins, outputs: [y], options: options)
        g.output(y)
        return g
    }

    @Test func prepareErrors() {
        let u = Self.q(0.05, 128), i = Self.q(0.05, 0)
        expectInvalid(
            Self.graph(.add, [([4], .uint8, nil), ([4], .uint8, u)], out: ([4], .uint8, u)),
            "has no quantization parameters")
        expectInvalid(
            Self.graph(
                .add, [([4], .uint8, Quantization(scales: [0.1, 0.2], zeroPoints: [0, 0])), ([4], .uint8, u)],
                out: ([4], .uint8, u)), "must be quantized per tensor")
        expectInvalid(
            Self.graph(.mul, [([4], .int8, Self.q(0, 0)), ([4], .int8, i)], out: ([4], .int8, i)),
            "expected a finite positive value")
        expectInvalid(
            Self.graph(.mul, [([4], .int8, Self.q(0.1, 200)), ([4], .int8, i)], out: ([4], .int8, i)),
            "outside -128...127")
        // ADD/SUB: 2·max(s)/(2^20·s_y) ≥ 1 would abort TFLite.
        expectInvalid(
            Self.graph(
                .add, [([4], .int8, Self.q(1, 0)), ([4], .int8, Self.q(1, 0))], out: ([4], .int8, Self.q(1e-7, 0)),
                options: .add(activation: .none, potScaleInt16: true)), "too small for input scales")
        expectInvalid(
            Self.graph(
                .add, [([4], .int8, i), ([4], .int8, i)], out: ([4], .int8, i),
                options: .add(activation: .tanh, potScaleInt16: true)), "fused activation TANH is not supported")
        expectInvalid(
            Self.graph(.logistic, [([4], .uint8, u)], out: ([4], .uint8, Self.q(1 / 255, 0))), "output scale of 1/256")
        expectInvalid(
            Self.graph(.softmax, [([4], .int8, i)], out: ([4], .int8, Self.q(1 / 256, 0)), options: .softmax(beta: 1)),
            "zero point -128 and scale 1/256")
        expectInvalid(
            Self.graph(
                .softmax, [([4], .uint8, u)], out: ([4], .uint8, Self.q(1 / 256, 0)), options: .softmax(beta: -1)),
            "is negative")
        expectInvalid(
            Self.graph(
                .softmax, [([4], .uint8, Self.q(1e-9, 0))], out: ([4], .uint8, Self.q(1 / 256, 0)),
                options: .softmax(beta: 1)),
            "too small for the fixed-point SOFTMAX")
        expectInvalid(
            Self.graph(.prelu, [([3], .int8, i), ([2, 3], .int8, i)], out: ([2, 3], .int8, i)),
            "must broadcast into the input's shape")
        expectInvalid(
            Self.graph(.hardSwish, [([4], .int8, Self.q(1, 0))], out: ([4], .int8, Self.q(1e-3, 0))),
            "HARD_SWISH output scale")
        expectInvalid(
            Self.graph(.quantize, [([4], .int8, Self.q(1e6, 0))], out: ([4], .uint8, Self.q(1e-3, 0))),
            "is too large for output scale")
        expectUnsupportedTypes(Self.graph(.quantize, [([4], .int32, nil)], out: ([4], .int8, i)))
        expectUnsupportedTypes(Self.graph(.quantize, [([4], .float32, nil)], out: ([4], .int16, i)))
        expectInvalid(
            Self.graph(.logSoftmax, [([4], .int8, i)], out: ([4], .int8, i)),
            "LOG_SOFTMAX output must have scale 16/256 and zero point 127")
        expectUnsupportedTypes(Self.graph(.logSoftmax, [([4], .int32, nil)], out: ([4], .int32, nil)))
        expectUnsupportedTypes(
            Self.graph(.squaredDifference, [([4], .uint8, u), ([4], .uint8, u)], out: ([4], .uint8, u)))
        expectInvalid(
            Self.graph(
                .squaredDifference, [([4], .int8, Self.q(100, 0)), ([4], .int8, Self.q(100, 0))],
                out: ([4], .int8, Self.q(1e-3, 0))),
            "is too small for input scales")
    }

    /// Runs `g` (every input uint8/int8, filled with a seeded pattern) with 1, 2 and 3
    /// threads and requires identical output bytes.
    static func expectThreadIndependent(_ g: GraphBuilder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var outputs: [[UInt8]] = []
        for threads in [1, 2, 3] {
            let engine = try g.engine(threads: threads)
            try engine.allocate()
            var rng = TestRandom(seed: 7)
            for t in engine.inputs {
                let buffer = try #require(engine.buffer(forTensor: t))
                for k in 0 ..< buffer.count { buffer[k] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            try engine.invoke()
            outputs.append(Array(try #require(engine.buffer(forTensor: engine.outputs[0]))))
        }
        #expect(
            outputs[0] == outputs[1] && outputs[0] == outputs[2], "outputs differ between thread counts",
            sourceLocation: sourceLocation)
    }

    @Test func resultsDoNotDependOnThreadCount() throws {
        let a = Self.q(0.02, 3), b = Self.q(0.07, -9), y = Self.q(0.05, 11)
        try Self.expectThreadIndependent(
            Self.graph(
                .add, [([64, 40, 30], .int8, a), ([40, 1], .int8, b)], out: ([64, 40, 30], .int8, y),
                options: .add(activation: .relu6, potScaleInt16: true)))
        try Self.expectThreadIndependent(
            Self.graph(
                .mul, [([70_000], .uint8, Self.q(0.02, 130)), ([1], .uint8, Self.q(0.1, 7))],
                out: ([70_000], .uint8, Self.q(0.03, 100)), options: .mul(activation: .none)))
        try Self.expectThreadIndependent(
            Self.graph(.tanh, [([70_000], .int8, a)], out: ([70_000], .int8, Self.q(1 / 128, 0))))
        try Self.expectThreadIndependent(
            Self.graph(.hardSwish, [([70_000], .uint8, Self.q(0.04, 120))], out: ([70_000], .uint8, y)))
        try Self.expectThreadIndependent(
            Self.graph(
                .softmax, [([600, 10], .uint8, Self.q(0.1, 128))], out: ([600, 10], .uint8, Self.q(1 / 256, 0)),
                options: .softmax(beta: 1)))
        try Self.expectThreadIndependent(
            Self.graph(.quantize, [([70_000], .uint8, Self.q(0.02, 128))], out: ([70_000], .int8, Self.q(0.03, -5))))
        var g = GraphBuilder()
        let x = g.input([4, 64, 64, 8], .int8, quantization: a)
        let axes = g.constant([1, 2] as [Int32], shape: [2])
        let m = g.tensor([], .int8, quantization: y)
        g.op(.mean, inputs: [x, axes], outputs: [m], options: .reducer(keepDims: true))
        g.output(m)
        try Self.expectThreadIndependent(g)
    }
}
