import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct SegmentTests {
    @Test func segmentSumAddsRowsOfEachId() throws {
        var g = GraphBuilder()
        let x = g.input([5, 2], .float32)
        let ids = g.constant([0, 0, 1, 2, 2] as [Int32], shape: [5])
        let y = g.tensor([1, 2], .float32)
        g.op(.segmentSum, inputs: [x, ids], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.outputShape(0) == [3, 2])
        try engine.setInput(0, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [4, 6, 5, 6, 16, 18])
    }

    @Test func segmentSumRefusesGapsAndUnsortedIds() throws {
        for ids in [[0, 0, 2], [1, 1, 2], [0, 2, 1]] as [[Int32]] {
            var g = GraphBuilder()
            let x = g.input([3], .int32)
            let s = g.constant(ids, shape: [3])
            g.op(.segmentSum, inputs: [x, s], outputs: [g.tensor([3], .int32)])
            expectInvalid(g, op: "SEGMENT_SUM", "grow by 0 or 1")
        }
        // Ids computed at run time are checked at invoke.
        var g = GraphBuilder()
        let x = g.input([3], .int32)
        let s = g.input([3], .int32)
        let y = g.tensor([3], .int32)
        g.op(.segmentSum, inputs: [x, s], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3] as [Int32])
        try engine.setInput(1, [0, 1, 1] as [Int32])
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [1, 5])
        try engine.setInput(1, [0, 3, 4] as [Int32])
        expectInvokeFailure(engine, op: "SEGMENT_SUM", "segment_ids[1] is 3")
    }

    func unsorted(_ op: BuiltinOperator, _ data: [Int32], ids: [Int32], segments: Int32) throws -> [Int32] {
        var g = GraphBuilder()
        let x = g.input([data.count], .int32)
        let s = g.input([ids.count], .int32)
        let n = g.constant([segments], shape: [])
        let y = g.tensor([Int(segments)], .int32)
        g.op(op, inputs: [x, s, n], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, data)
        try engine.setInput(1, ids)
        try engine.invoke()
        return try engine.output(0, as: Int32.self)
    }

    @Test func emptySegmentsHoldTheIdentityAndNegativeIdsDropTheirRow() throws {
        let data: [Int32] = [5, -3, 7, 2, 9], ids: [Int32] = [2, 0, -1, 2, 0]
        #expect(try unsorted(.unsortedSegmentSum, data, ids: ids, segments: 4) == [6, 0, 7, 0])
        #expect(try unsorted(.unsortedSegmentProd, data, ids: ids, segments: 4) == [-27, 1, 10, 1])
        #expect(try unsorted(.unsortedSegmentMax, data, ids: ids, segments: 4) == [9, Int32.min, 5, Int32.min])
        #expect(try unsorted(.unsortedSegmentMin, data, ids: ids, segments: 4) == [-3, Int32.max, 2, Int32.max])
        // int32 sums and products wrap.
        #expect(try unsorted(.unsortedSegmentSum, [Int32.max, 1], ids: [0, 0], segments: 1) == [Int32.min])
    }

    @Test func floatMaxOfAnEmptySegmentIsTheLowestFiniteValue() throws {
        var g = GraphBuilder()
        let x = g.input([3], .float32)
        let s = g.constant([0, 0, 2] as [Int32], shape: [3])
        let n = g.constant([3] as [Int32], shape: [1])
        let y = g.tensor([3], .float32)
        g.op(.unsortedSegmentMax, inputs: [x, s, n], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, .nan, -4] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [1, -.greatestFiniteMagnitude, -4])
    }

    @Test func outOfRangeIdsAreInvokeErrors() throws {
        var g = GraphBuilder()
        let x = g.input([3], .int32)
        let s = g.input([3], .int32)
        let n = g.constant([2] as [Int32], shape: [])
        let y = g.tensor([2], .int32)
        g.op(.unsortedSegmentSum, inputs: [x, s, n], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(1, [0, 2, 1] as [Int32])
        expectInvokeFailure(engine, op: "UNSORTED_SEGMENT_SUM", "not below num_segments (2)")
    }

    @Test func badShapesAreRefused() {
        var prefix = GraphBuilder()
        let x = prefix.input([3, 2], .float32)
        let s = prefix.constant([0, 1] as [Int32], shape: [2])
        let n = prefix.constant([2] as [Int32], shape: [])
        prefix.op(.unsortedSegmentMin, inputs: [x, s, n], outputs: [prefix.tensor([2, 2], .float32)])
        expectInvalid(prefix, op: "UNSORTED_SEGMENT_MIN", "prefix")

        var negative = GraphBuilder()
        let y = negative.input([3], .float32)
        let t = negative.constant([0, 1, 0] as [Int32], shape: [3])
        let m = negative.constant([-1] as [Int32], shape: [])
        negative.op(.unsortedSegmentSum, inputs: [y, t, m], outputs: [negative.tensor([1], .float32)])
        expectInvalid(negative, op: "UNSORTED_SEGMENT_SUM", "num_segments is -1")

        var ids = GraphBuilder()
        let z = ids.input([4, 2], .float32)
        let u = ids.constant([0, 1, 1] as [Int32], shape: [3])
        ids.op(.segmentSum, inputs: [z, u], outputs: [ids.tensor([2, 2], .float32)])
        expectInvalid(ids, op: "SEGMENT_SUM", "one id per data row")
    }
}
