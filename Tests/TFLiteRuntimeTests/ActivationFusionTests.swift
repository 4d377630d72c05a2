import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct ActivationFusionTests {
    /// input → CONV_2D → RELU → ADD(other) → RELU6 → output, with `extraReader` also
    /// reading the convolution's output when set.
    private func convAddGraph(convActivation: FusedActivation = .none, exposeConvOutput: Bool = false) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input([1, 3, 3, 2], .float32)
        let other = g.input([1, 3, 3, 3], .float32)
        let w = g.constant((0 ..< 18).map { Float($0 % 7) - 3 }, shape: [3, 1, 1, 2] as [Int])
        let b = g.constant([0.5, -1, 0.25] as [Float], shape: [3])
        let conv = g.tensor([1, 3, 3, 3], .float32)
        let relu = g.tensor([1, 3, 3, 3], .float32)
        let sum = g.tensor([1, 3, 3, 3], .float32)
        let y = g.tensor([1, 3, 3, 3], .float32)
        g.op(
            .conv2D, inputs: [x, w, b], outputs: [conv],
            options: .conv2D(Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: convActivation))
        )
        g.op(.relu, inputs: [conv], outputs: [relu])
        g.op(.add, inputs: [relu, other], outputs: [sum], options: .add(activation: .none, potScaleInt16: true))
        g.op(.relu6, inputs: [sum], outputs: [y])
        g.output(y)
        if exposeConvOutput { g.output(conv) }
        return g
    }

    private func run(_ g: GraphBuilder, fuse: Bool, threads: Int = 1) throws -> (outputs: [[Float]], steps: Int) {
        var options = EngineOptions()
        options.fusesActivations = fuse
        options.threadCount = threads
        let engine = try Engine(model: g.model(), options: options)
        try engine.allocate()
        try engine.setInput(0, (0 ..< 18).map { Float($0) * 0.37 - 2.5 })
        try engine.setInput(1, (0 ..< 27).map { Float($0 % 5) * 1.5 - 3 })
        try engine.invoke()
        let outputs = try engine.outputs.indices.map { try engine.output($0, as: Float.self) }
        return (outputs, engine.preparedKernels.count)
    }

    @Test func fusesBothActivationsWithTheSameOutputs() throws {
        let g = convAddGraph()
        let fused = try run(g, fuse: true)
        let separate = try run(g, fuse: false)
        #expect(fused.steps == 2)
        #expect(separate.steps == 4)
        #expect(fused.outputs == separate.outputs)
        #expect(fused.outputs[0].contains(0) && fused.outputs[0].contains(6), "the clamps were exercised")
    }

    @Test func keepsAnIntermediateTheGraphExposes() throws {
        let g = convAddGraph(exposeConvOutput: true)
        let fused = try run(g, fuse: true)
        #expect(fused.steps == 3, "only ADD → RELU6 fuses")
        #expect(fused.outputs == (try run(g, fuse: false)).outputs)
    }

    @Test func keepsAProducerThatAlreadyHasAnActivation() throws {
        let g = convAddGraph(convActivation: .reluN1To1)
        let fused = try run(g, fuse: true)
        #expect(fused.steps == 3, "CONV_2D's own clamp stays; only ADD → RELU6 fuses")
        #expect(fused.outputs == (try run(g, fuse: false)).outputs)
    }

    @Test func keepsATensorWithTwoReaders() throws {
        var g = GraphBuilder()
        let x = g.input([4], .float32)
        let sum = g.tensor([4], .float32)
        let r = g.tensor([4], .float32)
        let y = g.tensor([4], .float32)
        g.op(.add, inputs: [x, x], outputs: [sum], options: .add(activation: .none, potScaleInt16: true))
        g.op(.relu, inputs: [sum], outputs: [r])
        g.op(.mul, inputs: [r, sum], outputs: [y], options: .mul(activation: .none))
        g.output(y)
        let plan = ActivationFusion.plan(g.model().mainSubgraph)
        #expect(plan.map(\.code.builtin) == [.add, .relu, .mul])
    }

    @Test func neverFuses8BitActivations() throws {
        var g = GraphBuilder()
        let q = Quantization(scales: [0.5], zeroPoints: [3])
        let x = g.input([4], .uint8, quantization: q)
        let sum = g.tensor([4], .uint8, quantization: q)
        let y = g.tensor([4], .uint8, quantization: Quantization(scales: [0.25], zeroPoints: [0]))
        g.op(.add, inputs: [x, x], outputs: [sum], options: .add(activation: .none, potScaleInt16: true))
        g.op(.relu, inputs: [sum], outputs: [y])
        g.output(y)
        #expect(ActivationFusion.plan(g.model().mainSubgraph).count == 2)
    }

    /// MediaPipe's face detectors: a RELU after nearly every block, all fusable.
    @Test(arguments: ["face_detection_short_range", "face_detection_full_range"], [1, 2])
    func faceDetectorOutputsAreUnchanged(name: String, threads: Int) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/models/\(name).tflite").path
        let model = try Model(contentsOfFile: path)
        var results: [(outputs: [[Float]], steps: Int)] = []
        for fuse in [false, true] {
            var options = EngineOptions()
            options.fusesActivations = fuse
            options.threadCount = threads
            let engine = try Engine(model: model, options: options)
            try engine.allocate()
            let count = engine.tensors[engine.inputs[0]].shape.reduce(1, *)
            try engine.setInput(0, (0 ..< count).map { Float(($0 * 7919) % 255) / 127.5 - 1 })
            try engine.invoke()
            results.append(
                (
                    try engine.outputs.indices.map { try engine.output($0, as: Float.self) },
                    engine.preparedKernels.count
                ))
        }
        let relus = model.mainSubgraph.operators.filter { $0.code.builtin == .relu }.count
        #expect(relus > 0)
        #expect(results[1].steps == results[0].steps - relus, "every RELU fuses")
        #expect(results[1].outputs == results[0].outputs)
    }
}
