import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct ShapeTests {
    @Test func shapeAsInt32AndInt64() throws {
        for type in [ElementType.int32, .int64] {
            var g = GraphBuilder()
            let x = g.input([2, 5, 3], .int8)
            let y = g.tensor([], type)
            g.op(.shape, inputs: [x], outputs: [y], options: .shape(outType: type))
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            try engine.invoke()
            #expect(engine.outputShape(0) == [3])
            let values =
                type == .int32
                ? try engine.output(0, as: Int32.self).map(Int.init)
                : try engine.output(0, as: Int64.self).map(Int.init)
            #expect(values == [2, 5, 3])
        }
    }

    @Test func shapeFollowsResizedInput() throws {
        var g = GraphBuilder()
        let x = g.input([1, 4], .float32)
        let y = g.tensor([], .int32)
        g.op(.shape, inputs: [x], outputs: [y], options: .shape(outType: .int32))
        g.output(y)
        let engine = try g.engine()
        try engine.resizeInput(0, to: [3, 7, 2])
        try engine.allocate()
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [3, 7, 2])
    }

    /// As in TFLite, `out_type` decides the output's type, whatever the file says; it must
    /// be INT32 or INT64. Without options the file's type decides.
    @Test func outTypeDecidesTheOutputType() throws {
        var g = GraphBuilder()
        let x = g.input([2], .float32)
        let y = g.tensor([], .int32)
        g.op(.shape, inputs: [x], outputs: [y], options: .shape(outType: .int64))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.invoke()
        #expect(try engine.output(0, as: Int64.self) == [2])
        var f = GraphBuilder()
        let u = f.input([2], .float32)
        let v = f.tensor([], .float32)
        f.op(.shape, inputs: [u], outputs: [v], options: .shape(outType: .float32))
        f.output(v)
        ShapeTest.expectPrepareError(f, "out_type FLOAT32 is not INT32 or INT64")
        var h = GraphBuilder()
        let a = h.input([2], .float32)
        let b = h.tensor([], .float32)
        h.op(.shape, inputs: [a], outputs: [b])
        h.output(b)
        ShapeTest.expectPrepareError(h, "does not support the types")
    }

    /// `reshape(x, [shape(x)[0], -1])` as the converter emits it: SHAPE → STRIDED_SLICE
    /// → PACK → RESHAPE. Everything but the final copy is folded at prepare, so the
    /// RESHAPE's shape input is constant even though it is computed.
    @Test func shapeArithmeticChainFoldsAtPrepare() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3, 4], .float32)
        let shape = g.tensor([], .int32)
        g.op(.shape, inputs: [x], outputs: [shape], options: .shape(outType: .int32))
        let begin = g.constant([Int32(0)], shape: [1])
        let end = g.constant([Int32(1)], shape: [1])
        let stride = g.constant([Int32(1)], shape: [1])
        let batch = g.tensor([], .int32)
        g.op(
            .stridedSlice, inputs: [shape, begin, end, stride], outputs: [batch],
            options: .stridedSlice(StridedSliceOptions(shrinkAxisMask: 1)))
        let minusOne = g.constant([Int32(-1)], shape: [])
        let newShape = g.tensor([], .int32)
        g.op(.pack, inputs: [batch, minusOne], outputs: [newShape], options: .pack(valuesCount: 2, axis: 0))
        let y = g.tensor([], .float32)
        g.op(.reshape, inputs: [x, newShape], outputs: [y], options: .reshape(newShape: nil))
        g.output(y)

        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.tensors[batch].isConstant)
        #expect(engine.tensors[newShape].isConstant)
        #expect(engine.tensors[newShape].constant?.array(Int32.self) == [2, -1])
        #expect(engine.outputShape(0) == [2, 12])
        // Only the input and output are planned: the shape tensors are constants.
        #expect(engine.arenaSize == 2 * 128)
        let input: [Float] = ShapeTest.iota(24)
        try engine.setInput(0, input)
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == input)

        // A new input shape re-runs the fold.
        try engine.resizeInput(0, to: [4, 2, 3])
        try engine.allocate()
        #expect(engine.outputShape(0) == [4, 6])
    }
}
