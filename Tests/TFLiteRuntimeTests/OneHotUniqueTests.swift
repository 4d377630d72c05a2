import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct OneHotTests {
    /// ONE_HOT of int32 `indices` with a constant depth and float values.
    func oneHot(_ indices: [Int32], shape: [Int], depth: Int32, axis: Int = -1) throws -> (
        shape: [Int], values: [Float]
    ) {
        var g = GraphBuilder()
        let x = g.input(shape, .int32)
        let d = g.constant([depth], shape: [])
        let on = g.constant([2] as [Float], shape: [])
        let off = g.constant([-1] as [Float], shape: [])
        let y = g.tensor([1], .float32)
        g.op(.oneHot, inputs: [x, d, on, off], outputs: [y], options: .oneHot(axis: axis))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, indices)
        try engine.invoke()
        return (engine.outputShape(0), try engine.output(0, as: Float.self))
    }

    @Test func matchesPlainLoopsOnEveryAxis() throws {
        let indices: [Int32] = [0, 3, -1, 2, 4, 1]
        for axis in [-1, 0, 1, 2] {
            let got = try oneHot(indices, shape: [2, 3], depth: 4, axis: axis)
            let a = axis == -1 ? 2 : axis
            var shape = [2, 3]
            shape.insert(4, at: a)
            #expect(got.shape == shape)
            // out[p, j, s] with p the dimensions before the axis and s those after.
            let prefix = [2, 3][..<a].reduce(1, *), suffix = 6 / prefix
            var want: [Float] = []
            for p in 0 ..< prefix {
                for j in 0 ..< 4 {
                    for s in 0 ..< suffix { want.append(Int(indices[p * suffix + s]) == j ? 2 : -1) }
                }
            }
            #expect(got.values == want, "axis \(axis)")
        }
    }

    @Test func negativeDepthIsRefused() {
        var g = GraphBuilder()
        let x = g.input([3], .int32)
        let d = g.constant([-2] as [Int32], shape: [])
        let on = g.constant([1] as [Float], shape: []), off = g.constant([0] as [Float], shape: [])
        g.op(.oneHot, inputs: [x, d, on, off], outputs: [g.tensor([3, 1], .float32)], options: .oneHot(axis: -1))
        expectInvalid(g, op: "ONE_HOT", "depth is -2")
    }

    @Test func depthComputedAtRunTimeResolvesTheShape() throws {
        var g = GraphBuilder()
        let x = g.input([3], .int32)
        let d = g.input([], .int32)
        let on = g.constant([1] as [Int32], shape: []), off = g.constant([0] as [Int32], shape: [])
        let y = g.tensor([3, 1], .int32)
        g.op(.oneHot, inputs: [x, d, on, off], outputs: [y], options: .oneHot(axis: -1))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [2, 0, 5] as [Int32])
        try engine.setInput(1, [3] as [Int32])
        try engine.invoke()
        #expect(engine.outputShape(0) == [3, 3])
        #expect(try engine.output(0, as: Int32.self) == [0, 0, 1, 1, 0, 0, 0, 0, 0])
        try engine.setInput(1, [-1] as [Int32])
        expectInvokeFailure(engine, op: "ONE_HOT", "depth is -1")
    }

    @Test func badOperandsAreRefused() {
        var axis = GraphBuilder()
        let x = axis.input([2, 2], .int32)
        let d = axis.constant([3] as [Int32], shape: [])
        let on = axis.constant([1] as [Float], shape: []), off = axis.constant([0] as [Float], shape: [])
        axis.op(.oneHot, inputs: [x, d, on, off], outputs: [axis.tensor([1], .float32)], options: .oneHot(axis: -2))
        expectInvalid(axis, op: "ONE_HOT", "axis -2")

        var values = GraphBuilder()
        let i = values.input([2], .int32)
        let dd = values.constant([3] as [Int32], shape: [])
        let pair = values.constant([1, 2] as [Float], shape: [2]), zero = values.constant([0] as [Float], shape: [])
        values.op(.oneHot, inputs: [i, dd, pair, zero], outputs: [values.tensor([1], .float32)])
        expectInvalid(values, op: "ONE_HOT", "one element")

        var float16 = GraphBuilder()
        let j = float16.input([2], .int32)
        let d3 = float16.constant([3] as [Int32], shape: [])
        let h = float16.constant([0x3C00] as [UInt16], shape: [], .float16)
        float16.op(.oneHot, inputs: [j, d3, h, h], outputs: [float16.tensor([1], .float16)])
        expectUnsupportedTypes(float16)
    }
}

@Suite struct UniqueTests {
    func unique<T>(_ values: [T], _ type: ElementType, index: ElementType = .int32) throws -> Engine {
        var g = GraphBuilder()
        let x = g.input([values.count], type)
        let y = g.tensor([values.count], type)
        let idx = g.tensor([values.count], index)
        g.op(.unique, inputs: [x], outputs: [y, idx], options: .unique(indexType: index))
        g.output(y)
        g.output(idx)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, values)
        try engine.invoke()
        return engine
    }

    @Test func distinctValuesInOrderOfFirstAppearance() throws {
        let engine = try unique([5, 1, 5, 3, 1, 1, -2] as [Int32], .int32)
        #expect(engine.outputShape(0) == [4])
        #expect(try engine.output(0, as: Int32.self) == [5, 1, 3, -2])
        #expect(try engine.output(1, as: Int32.self) == [0, 1, 0, 2, 1, 1, 3])
        let wide = try unique([7, 7, 9] as [Int64], .int64, index: .int64)
        #expect(try wide.output(0, as: Int64.self) == [7, 9])
        #expect(try wide.output(1, as: Int64.self) == [0, 0, 1])
    }

    @Test func theOutputLengthFollowsEachInvoke() throws {
        // The number of distinct values is known only at invoke, and changes between invokes.
        let engine = try unique([1, 2, 3, 4] as [Float], .float32)
        #expect(engine.outputShape(0) == [4])
        try engine.setInput(0, [8, 8, 8, 8] as [Float])
        try engine.invoke()
        #expect(engine.outputShape(0) == [1])
        #expect(try engine.output(0, as: Float.self) == [8])
        #expect(try engine.output(1, as: Int32.self) == [0, 0, 0, 0])
    }

    @Test func zerosOfBothSignsAreOneValueAndNaNsAnother() throws {
        let engine = try unique([-0.0, .nan, 0, 1, .nan, -0.0] as [Float], .float32)
        let values = try engine.output(0, as: Float.self)
        #expect(values.count == 3)
        #expect(values[0] == 0 && values[0].sign == .minus)
        #expect(values[1].isNaN && values[2] == 1)
        #expect(try engine.output(1, as: Int32.self) == [0, 1, 0, 2, 1, 0])
    }

    @Test func matchesAPlainLoopOnRandomCodes() throws {
        var random = TestRandom(seed: 7)
        let values = (0 ..< 300).map { _ in Int8(truncatingIfNeeded: random.next() % 40) }
        let engine = try unique(values, .int8)
        var seen: [Int8] = []
        var positions: [Int32] = []
        for v in values {
            if let p = seen.firstIndex(of: v) {
                positions.append(Int32(p))
            } else {
                positions.append(Int32(seen.count))
                seen.append(v)
            }
        }
        #expect(try engine.output(0, as: Int8.self) == seen)
        #expect(try engine.output(1, as: Int32.self) == positions)
    }

    @Test func badOperandsAreRefused() {
        var rank = GraphBuilder()
        let x = rank.input([2, 3], .float32)
        rank.op(.unique, inputs: [x], outputs: [rank.tensor([6], .float32), rank.tensor([2, 3], .int32)])
        expectInvalid(rank, op: "UNIQUE", "1-D")

        var index = GraphBuilder()
        let y = index.input([3], .float32)
        index.op(
            .unique, inputs: [y], outputs: [index.tensor([3], .float32), index.tensor([3], .int16)],
            options: .unique(indexType: .int16))
        expectInvalid(index, op: "UNIQUE", "INT32 or INT64")

        var bool = GraphBuilder()
        let z = bool.input([3], .bool)
        bool.op(.unique, inputs: [z], outputs: [bool.tensor([3], .bool), bool.tensor([3], .int32)])
        expectUnsupportedTypes(bool)
    }
}
