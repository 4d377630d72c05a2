import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Operators whose TFLite kernel sets the output type at prepare do so here, whatever type
/// the file gives the output (spec/derived-output-types.md); the others keep the file's.
@Suite struct DerivedOutputTypeKernelTests {
    /// Prepares `g` and returns the type each output ended up with.
    static func outputTypes(_ g: GraphBuilder) throws -> [ElementType] {
        let engine = try g.engine()
        try engine.allocate()
        return engine.outputs.map { engine.tensors[$0].type }
    }

    static let u8 = Quantization(scales: [0.5], zeroPoints: [3])

    @Test func dequantizeMakesFloat32() throws {
        var g = GraphBuilder()
        let x = g.input([4], .uint8, quantization: Self.u8)
        let y = g.tensor([4], .uint8, quantization: Self.u8)
        g.op(.dequantize, inputs: [x], outputs: [y])
        g.output(y)
        #expect(try Self.outputTypes(g) == [.float32])
    }

    @Test func gatherExpandDimsAndSplitTakeTheInputsType() throws {
        var g = GraphBuilder()
        let params = g.input([2, 3], .int32)
        let indices = g.constant([Int32(1)], shape: [1])
        let gathered = g.tensor([], .float32)
        g.op(.gather, inputs: [params, indices], outputs: [gathered], options: .gather(axis: 0, batchDims: 0))
        let axis = g.constant([Int32(0)], shape: [1])
        let expanded = g.tensor([], .float32)
        g.op(.expandDims, inputs: [params, axis], outputs: [expanded])
        let splitAxis = g.constant([Int32(1)], shape: [])
        let parts = [g.tensor([], .float32), g.tensor([], .float32), g.tensor([], .float32)]
        g.op(.split, inputs: [splitAxis, params], outputs: parts, options: .split(numSplits: 3))
        for t in [gathered, expanded] + parts { g.output(t) }
        #expect(try Self.outputTypes(g) == Array(repeating: .int32, count: 5))
    }

    @Test func expPreluAndResizeTakeTheInputsType() throws {
        var g = GraphBuilder()
        let x = g.input([1, 2, 2, 1], .float32)
        let e = g.tensor([], .int32)
        g.op(.exp, inputs: [x], outputs: [e])
        let alpha = g.constant([Float(0.5)], shape: [1])
        let p = g.tensor([], .int32)
        g.op(.prelu, inputs: [x, alpha], outputs: [p])
        let size = g.constant([Int32(4), 4], shape: [2])
        let r = g.tensor([], .int32)
        g.op(
            .resizeNearestNeighbor, inputs: [x, size], outputs: [r],
            options: .resizeNearestNeighbor(ResizeOptions(alignCorners: false, halfPixelCenters: false)))
        for t in [e, p, r] { g.output(t) }
        #expect(try Self.outputTypes(g) == [.float32, .float32, .float32])
    }

    /// TFLite's activations and reshapes check the file's output type; so do we.
    @Test func checkedOperatorsStillRefuseAMismatch() {
        var g = GraphBuilder()
        let x = g.input([4], .float32)
        let y = g.tensor([4], .int32)
        g.op(.tanh, inputs: [x], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(
            g, "operator 0 (TANH) does not support the types inputs (FLOAT32) -> outputs (INT32)")
    }
}
