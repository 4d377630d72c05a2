import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct DynamicUpdateSliceTests {
    /// `operand` [4, 5] updated by [2, 3] at run-time starts.
    func update(starts: [Int32]) throws -> [Float] {
        var g = GraphBuilder()
        let x = g.input([4, 5], .float32)
        let u = g.input([2, 3], .float32)
        let s = g.input([2], .int32)
        let y = g.tensor([4, 5], .float32)
        g.op(.dynamicUpdateSlice, inputs: [x, u, s], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, (0 ..< 20).map { Float($0) })
        try engine.setInput(1, [-1, -2, -3, -4, -5, -6] as [Float])
        try engine.setInput(2, starts)
        try engine.invoke()
        return try engine.output(0, as: Float.self)
    }

    /// The operand with the block written at the starts clamped into range.
    func reference(starts: [Int32]) -> [Float] {
        var y = (0 ..< 20).map { Float($0) }
        let r0 = Swift.min(Swift.max(Int(starts[0]), 0), 2), c0 = Swift.min(Swift.max(Int(starts[1]), 0), 2)
        for r in 0 ..< 2 { for c in 0 ..< 3 { y[(r0 + r) * 5 + c0 + c] = -Float(r * 3 + c + 1) } }
        return y
    }

    @Test func writesTheBlockAtClampedStarts() throws {
        for starts in [[0, 0], [1, 2], [2, 2], [-4, 1], [3, 9], [Int32.min, Int32.max]] as [[Int32]] {
            #expect(try update(starts: starts) == reference(starts: starts), "starts \(starts)")
        }
    }

    /// A cache updated in place: the operand is an activation that nothing reads after the
    /// update, so the output takes its memory and only the block is written.
    @Test func sharesTheOperandsMemoryWhenNothingElseReadsIt() throws {
        var g = GraphBuilder()
        let x = g.input([3, 4], .float32)
        let one = g.constant([1] as [Float], shape: [1])
        let cache = g.tensor([3, 4], .float32)
        g.op(.add, inputs: [x, one], outputs: [cache], options: .add(activation: .none, potScaleInt16: true))
        let u = g.input([1, 4], .float32)
        let s = g.constant([1, 0] as [Int32], shape: [2])
        let y = g.tensor([3, 4], .float32)
        g.op(.dynamicUpdateSlice, inputs: [cache, u, s], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.buffer(forTensor: cache)?.baseAddress == engine.buffer(forTensor: y)?.baseAddress)
        try engine.setInput(0, (0 ..< 12).map { Float($0) })
        try engine.setInput(1, [9, 9, 9, 9] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [1, 2, 3, 4, 9, 9, 9, 9, 9, 10, 11, 12])
    }

    @Test func keepsItsOwnMemoryWhenTheOperandIsReadLater() throws {
        var g = GraphBuilder()
        let x = g.input([2, 2], .float32)
        let one = g.constant([1] as [Float], shape: [1])
        let cache = g.tensor([2, 2], .float32)
        g.op(.add, inputs: [x, one], outputs: [cache], options: .add(activation: .none, potScaleInt16: true))
        let u = g.constant([7] as [Float], shape: [1, 1])
        let s = g.constant([0, 1] as [Int32], shape: [2])
        let y = g.tensor([2, 2], .float32)
        g.op(.dynamicUpdateSlice, inputs: [cache, u, s], outputs: [y])
        let z = g.tensor([2, 2], .float32)
        g.op(.add, inputs: [y, cache], outputs: [z], options: .add(activation: .none, potScaleInt16: true))
        g.output(z)
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.buffer(forTensor: cache)?.baseAddress != engine.buffer(forTensor: y)?.baseAddress)
        try engine.setInput(0, [0, 1, 2, 3] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [2, 9, 6, 8])
    }

    @Test func badShapesAreRefused() {
        var rank = GraphBuilder()
        let x = rank.input([4, 5], .float32)
        let u = rank.input([2], .float32)
        let s = rank.input([2], .int32)
        rank.op(.dynamicUpdateSlice, inputs: [x, u, s], outputs: [rank.tensor([4, 5], .float32)])
        expectInvalid(rank, op: "DYNAMIC_UPDATE_SLICE", "rank")

        var large = GraphBuilder()
        let a = large.input([2, 2], .float32)
        let b = large.input([3, 1], .float32)
        let c = large.input([2], .int32)
        large.op(.dynamicUpdateSlice, inputs: [a, b, c], outputs: [large.tensor([2, 2], .float32)])
        expectInvalid(large, op: "DYNAMIC_UPDATE_SLICE", "larger than the operand")

        var starts = GraphBuilder()
        let d = starts.input([2, 2], .int8)
        let e = starts.input([1, 1], .int8)
        let f = starts.input([3], .int32)
        starts.op(.dynamicUpdateSlice, inputs: [d, e, f], outputs: [starts.tensor([2, 2], .int8)])
        expectInvalid(starts, op: "DYNAMIC_UPDATE_SLICE", "one index per dimension")
    }
}
