import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct GatherTests {
    private func graph(
        _ params: [Int], indicesShape: [Int], axis: Int, batchDims: Int = 0,
        wide: Bool = false, type: ElementType = .float32
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let p = g.input(params, type)
        let i = g.input(indicesShape, wide ? .int64 : .int32)
        let y = g.tensor([], type)
        g.op(.gather, inputs: [p, i], outputs: [y], options: .gather(axis: axis, batchDims: batchDims))
        g.output(y)
        return g
    }

    private func run<I>(_ g: GraphBuilder, params: [Float], indices: [I]) throws -> (shape: [Int], values: [Float]) {
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, params)
        try engine.setInput(1, indices)
        try engine.invoke()
        return (engine.outputShape(0), try engine.output(0, as: Float.self))
    }

    @Test func goldensFromTensorFlow() throws {
        let params: [Float] = ShapeTest.iota(24)
        let a = try run(
            graph([2, 3, 4], indicesShape: [2, 2], axis: 1), params: params, indices: [2, 0, 1, 1] as [Int32])
        #expect(a.shape == [2, 2, 2, 4])
        #expect(
            a.values == [
                8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 16, 17, 18, 19, 16,
                17, 18, 19,
            ])
        let b = try run(
            graph([2, 3, 4], indicesShape: [2, 3], axis: 2, batchDims: 1, wide: true), params: params,
            indices: [3, 0, 1, 2, 2, 0] as [Int64])
        #expect(b.shape == [2, 3, 3])
        #expect(b.values == [3, 0, 1, 7, 4, 5, 11, 8, 9, 14, 14, 12, 18, 18, 16, 22, 22, 20])
        let c = try run(
            graph([2, 3, 4], indicesShape: [2, 2], axis: -2, batchDims: -1), params: params,
            indices: [2, 0, 1, 1] as [Int32])
        #expect(c.shape == [2, 2, 4])
        #expect(c.values == [8, 9, 10, 11, 0, 1, 2, 3, 16, 17, 18, 19, 16, 17, 18, 19])
    }

    @Test func scalarIndexDropsTheAxis() throws {
        let r = try run(graph([3, 2], indicesShape: [], axis: 0), params: [1, 2, 3, 4, 5, 6], indices: [Int32(2)])
        #expect(r.shape == [2])
        #expect(r.values == [5, 6])
    }

    /// The invoke error for one bad index, or nil if invoke succeeded.
    private func invokeError(badIndex: Int32) throws -> String? {
        let engine = try graph([3, 2], indicesShape: [2], axis: 0).engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Float])
        try engine.setInput(1, [0, badIndex])
        do {
            try engine.invoke()
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [3, -1, Int32.max, Int32.min])
    func outOfRangeIndicesFailAtInvoke(bad: Int32) throws {
        let message = try invokeError(badIndex: bad)
        #expect(
            message?.contains(
                "operator 0 (GATHER) failed: index \(bad) (at position 1 of the indices) is out of range 0..<3")
                == true,
            "\(message ?? "no error")")
    }

    @Test func constantOutOfRangeIndexFailsWhenFolded() throws {
        var g = GraphBuilder()
        let p = g.constant([1, 2] as [Float], shape: [2])
        let i = g.constant([Int32(5)], shape: [1])
        let y = g.tensor([], .float32)
        g.op(.gather, inputs: [p, i], outputs: [y])
        g.output(y)
        #expect(throws: RuntimeError.self) { try g.engine() }
    }

    @Test func prepareErrors() {
        ShapeTest.expectPrepareError(graph([2, 3], indicesShape: [2], axis: 2), "axis 2 is out of range for rank 2")
        ShapeTest.expectPrepareError(
            graph([2, 3], indicesShape: [2], axis: 0, batchDims: 1), "batch_dims 1 must be in 0...0")
        ShapeTest.expectPrepareError(
            graph([2, 3], indicesShape: [3, 1], axis: 1, batchDims: 1), "must match (batch_dims)")
        var g = GraphBuilder()
        let p = g.input([2], .float32)
        let i = g.input([1], .float32)
        let y = g.tensor([], .float32)
        g.op(.gather, inputs: [p, i], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(g, "does not support the types")
    }
}
