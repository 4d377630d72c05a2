import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct SplitTests {
    private func run(_ g: GraphBuilder, input: [Float], outputs: Int) throws -> [(shape: [Int], values: [Float])] {
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, input)
        try engine.invoke()
        return try (0 ..< outputs).map { (engine.outputShape($0), try engine.output($0, as: Float.self)) }
    }

    @Test func splitTakesTheAxisFromInputZero() throws {
        var g = GraphBuilder()
        let axis = g.constant([Int32(-1)], shape: [])
        let x = g.input([2, 4], .float32)
        let ys = (0 ..< 2).map { _ in g.tensor([], .float32) }
        g.op(.split, inputs: [axis, x], outputs: ys, options: .split(numSplits: 2))
        ys.forEach { g.output($0) }
        let parts = try run(g, input: ShapeTest.iota(8), outputs: 2)
        #expect(parts[0].shape == [2, 2] && parts[1].shape == [2, 2])
        #expect(parts[0].values == [0, 1, 4, 5])
        #expect(parts[1].values == [2, 3, 6, 7])
    }

    @Test func splitAlongFirstAxis() throws {
        var g = GraphBuilder()
        let axis = g.constant([Int32(0)], shape: [1])
        let x = g.input([3, 2], .float32)
        let ys = (0 ..< 3).map { _ in g.tensor([], .float32) }
        g.op(.split, inputs: [axis, x], outputs: ys, options: .split(numSplits: 3))
        ys.forEach { g.output($0) }
        let parts = try run(g, input: ShapeTest.iota(6), outputs: 3)
        #expect(parts.map(\.values) == [[0, 1], [2, 3], [4, 5]])
        #expect(parts.map(\.shape) == [[1, 2], [1, 2], [1, 2]])
    }

    @Test func splitErrors() {
        func graph(_ shape: [Int], axis: Int32, splits: Int, outputs: Int) -> GraphBuilder {
            var g = GraphBuilder()
            let a = g.constant([axis], shape: [])
            let x = g.input(shape, .float32)
            let ys = (0 ..< outputs).map { _ in g.tensor([], .float32) }
            g.op(.split, inputs: [a, x], outputs: ys, options: .split(numSplits: splits))
            ys.forEach { g.output($0) }
            return g
        }
        ShapeTest.expectPrepareError(
            graph([2, 3], axis: 1, splits: 2, outputs: 2), "cannot be split into 2 equal parts")
        ShapeTest.expectPrepareError(
            graph([2, 3], axis: 2, splits: 2, outputs: 2), "axis 2 is out of range for rank 2")
        ShapeTest.expectPrepareError(graph([2, 4], axis: 1, splits: 2, outputs: 3), "expected 2 outputs, found 3")
    }

    @Test func splitVWithInferredSize() throws {
        var g = GraphBuilder()
        let x = g.input([2, 6], .float32)
        let sizes = g.constant([1, -1, 2] as [Int32], shape: [3])
        let axis = g.constant([Int32(1)], shape: [])
        let ys = (0 ..< 3).map { _ in g.tensor([], .float32) }
        g.op(.splitV, inputs: [x, sizes, axis], outputs: ys, options: .splitV(numSplits: 3))
        ys.forEach { g.output($0) }
        let parts = try run(g, input: ShapeTest.iota(12), outputs: 3)
        #expect(parts.map(\.shape) == [[2, 1], [2, 3], [2, 2]])
        #expect(parts[0].values == [0, 6])
        #expect(parts[1].values == [1, 2, 3, 7, 8, 9])
        #expect(parts[2].values == [4, 5, 10, 11])
    }

    @Test func splitVAllowsEmptyParts() throws {
        var g = GraphBuilder()
        let x = g.input([3], .float32)
        let sizes = g.constant([0, 3] as [Int64], shape: [2], .int64)
        let axis = g.constant([Int32(0)], shape: [])
        let ys = (0 ..< 2).map { _ in g.tensor([], .float32) }
        g.op(.splitV, inputs: [x, sizes, axis], outputs: ys, options: .splitV(numSplits: 2))
        ys.forEach { g.output($0) }
        let parts = try run(g, input: [1, 2, 3], outputs: 2)
        #expect(parts[0].shape == [0])
        #expect(parts[1].values == [1, 2, 3])
    }

    @Test func splitVErrors() {
        func graph(_ sizes: [Int32], axis: Int32 = 0) -> GraphBuilder {
            var g = GraphBuilder()
            let x = g.input([4], .float32)
            let s = g.constant(sizes, shape: [sizes.count])
            let a = g.constant([axis], shape: [])
            let ys = sizes.map { _ in g.tensor([], .float32) }
            g.op(.splitV, inputs: [x, s, a], outputs: ys, options: .splitV(numSplits: sizes.count))
            ys.forEach { g.output($0) }
            return g
        }
        ShapeTest.expectPrepareError(graph([1, 2]), "add up to 3, not the axis size 4")
        ShapeTest.expectPrepareError(graph([-1, -1]), "more than one -1")
        ShapeTest.expectPrepareError(graph([3, 3, -1]), "add up to more than the axis size 4")
        ShapeTest.expectPrepareError(graph([-2, 6]), "outside 0...4")
        ShapeTest.expectPrepareError(graph([4], axis: 1), "axis 1 is out of range for rank 1")
    }

    @Test(arguments: [0, 1, -1])
    func unpackEachAxis(axis: Int) throws {
        let shape = [2, 3]
        let a = axis < 0 ? axis + 2 : axis
        let num = shape[a]
        var g = GraphBuilder()
        let x = g.input(shape, .float32)
        let ys = (0 ..< num).map { _ in g.tensor([], .float32) }
        g.op(.unpack, inputs: [x], outputs: ys, options: .unpack(num: num, axis: axis))
        ys.forEach { g.output($0) }
        let parts = try run(g, input: ShapeTest.iota(6), outputs: num)
        for (k, part) in parts.enumerated() {
            let other = shape[1 - a]
            #expect(part.shape == [other])
            let expected = (0 ..< other).map { j -> Float in Float(a == 0 ? k * 3 + j : j * 3 + k) }
            #expect(part.values == expected)
        }
    }

    @Test func unpackErrors() {
        var g = GraphBuilder()
        let x = g.input([2, 3], .float32)
        let ys = (0 ..< 2).map { _ in g.tensor([], .float32) }
        g.op(.unpack, inputs: [x], outputs: ys, options: .unpack(num: 2, axis: 1))
        ys.forEach { g.output($0) }
        ShapeTest.expectPrepareError(g, "has size 3, but num is 2")
    }
}
