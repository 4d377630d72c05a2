import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Index and shape-generating ops given bad indices or impossible shapes: typed errors
/// (at prepare when the bad value is in the file, at invoke when it comes from an
/// input), never a crash or an out-of-bounds access.
@Suite struct IndexOpErrorTests {
    /// The invoke error message, or nil when invoke succeeded.
    private func invokeError<I>(_ g: GraphBuilder, inputs: [(Int, [I])], floats: [(Int, [Float])] = []) throws
        -> String?
    {
        let engine = try g.engine()
        try engine.allocate()
        for (p, v) in floats { try engine.setInput(p, v) }
        for (p, v) in inputs { try engine.setInput(p, v) }
        do {
            try engine.invoke()
            return nil
        } catch {
            return error.description
        }
    }

    private func gatherND(indices shape: [Int], wide: Bool) -> GraphBuilder {
        var g = GraphBuilder()
        let p = g.input([3, 2], .float32)
        let i = g.input(shape, wide ? .int64 : .int32)
        let y = g.tensor([], .float32)
        g.op(.gatherND, inputs: [p, i], outputs: [y])
        g.output(y)
        return g
    }

    @Test(arguments: [Int64(3), -1, Int64.max, Int64.min])
    func gatherNDIndexOutOfRangeFailsAtInvoke(bad: Int64) throws {
        let message = try invokeError(
            gatherND(indices: [2, 2], wide: true), inputs: [(1, [0, 1, bad, 0])],
            floats: [(0, [1, 2, 3, 4, 5, 6])])
        #expect(
            message?.contains("GATHER_ND) failed: index \(bad) (component 0 of index tuple 1) is out of range 0..<3")
                == true,
            "\(message ?? "no error")")
    }

    @Test func gatherNDPicksTuplesAndSlices() throws {
        let engine = try gatherND(indices: [3, 1], wide: false).engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Float])
        try engine.setInput(1, [2, 0, 2] as [Int32])
        try engine.invoke()
        #expect(engine.outputShape(0) == [3, 2])
        #expect(try engine.output(0, as: Float.self) == [5, 6, 1, 2, 5, 6])
    }

    @Test func gatherNDTuplesLongerThanTheRankAreRefused() {
        ShapeTest.expectPrepareError(
            gatherND(indices: [2, 3], wide: false), "index tuples of length 3 cannot index the params, of rank 2")
    }

    private func scatterND(shape: [Int32]) -> GraphBuilder {
        var g = GraphBuilder()
        let i = g.input([3, 1], .int32)
        let u = g.input([3, 2], .float32)
        let s = g.constant(shape, shape: [shape.count])
        let y = g.tensor([], .float32)
        g.op(.scatterND, inputs: [i, u, s], outputs: [y])
        g.output(y)
        return g
    }

    @Test func scatterNDAddsDuplicatesAndFailsOnBadIndices() throws {
        let engine = try scatterND(shape: [4, 2]).engine()
        try engine.allocate()
        try engine.setInput(1, [1, 2, 10, 20, 100, 200] as [Float])
        try engine.setInput(0, [3, 0, 3] as [Int32])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [10, 20, 0, 0, 0, 0, 101, 202])
        for bad: Int32 in [4, -1, .min] {
            let message = try invokeError(
                scatterND(shape: [4, 2]), inputs: [(0, [0, bad, 1])], floats: [(1, [1, 2, 3, 4, 5, 6])])
            #expect(
                message?.contains(
                    "SCATTER_ND) failed: index \(bad) (component 0 of index tuple 1) is out of range 0..<4") == true,
                "\(message ?? "no error")")
        }
    }

    @Test func scatterNDShapeMustMatchTheUpdates() {
        ShapeTest.expectPrepareError(scatterND(shape: [4, 3]), "updates have shape [3, 2]")
        ShapeTest.expectPrepareError(scatterND(shape: [4, -2]), "negative dimension")
    }

    @Test func argMaxOverAnEmptyAxisIsRefused() {
        var g = GraphBuilder()
        let x = g.input([3, 0], .float32)
        let a = g.constant([Int32(1)], shape: [1])
        let y = g.tensor([], .int32)
        g.op(.argMax, inputs: [x, a], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(g, "the axis 1 of input shape [3, 0] is empty")
    }

    /// `[0, 2^40, 2^40]` is a valid empty shape, but the dimensions after its first axis
    /// multiply past `Int.max`: prepare says so instead of trapping.
    @Test func overflowingTrailingDimensionsOfAnEmptyShapeAreRefused() {
        var g = GraphBuilder()
        let x = g.input([0, 1 << 40, 1 << 40], .float32)
        let a = g.constant([Int32(0)], shape: [1])
        let y = g.tensor([], .float32)
        g.op(.cumsum, inputs: [x, a], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(
            g, "the dimensions after the axis [1099511627776, 1099511627776] hold too many elements")
        var h = GraphBuilder()
        let p = h.input([0, 1 << 40, 1 << 40], .float32)
        let i = h.input([2, 1], .int32)
        let z = h.tensor([], .float32)
        h.op(.gatherND, inputs: [p, i], outputs: [z])
        h.output(z)
        ShapeTest.expectPrepareError(h, "output 0 shape [2, 1099511627776, 1099511627776] is invalid or too large")
    }

    private func topK(k: Int32, row: Int) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input([2, row], .float32)
        let kt = g.constant([k], shape: [])
        let v = g.tensor([], .float32), i = g.tensor([], .int32)
        g.op(.topkV2, inputs: [x, kt], outputs: [v, i])
        g.output(v); g.output(i)
        return g
    }

    @Test func topKBeyondTheRowIsRefused() {
        ShapeTest.expectPrepareError(topK(k: 5, row: 4), "k = 5 must be in 0...4")
        ShapeTest.expectPrepareError(topK(k: -1, row: 4), "k = -1 must be in 0...4")
    }

    @Test func topKOrdersTiesByIndex() throws {
        let engine = try topK(k: 3, row: 4).engine()
        try engine.allocate()
        try engine.setInput(0, [1, 3, 3, 2, 0, 0, 0, 0] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [3, 3, 2, 0, 0, 0])
        #expect(try engine.output(1, as: Int32.self) == [1, 2, 3, 0, 1, 2])
    }

    @Test func rangeNeedsAReachableLimit() {
        for (start, limit, delta, fragment): (Int32, Int32, Int32, String) in [
            (0, 5, 0, "delta must not be zero"), (0, 5, -1, "does not lead"),
        ] {
            var h = GraphBuilder()
            let a = h.constant([start], shape: []), b = h.constant([limit], shape: []),
                c = h.constant([delta], shape: [])
            let z = h.tensor([], .int32)
            h.op(.range, inputs: [a, b, c], outputs: [z])
            h.output(z)
            ShapeTest.expectPrepareError(h, fragment)
        }
    }

    @Test func rangeCountsExtremeIntegersWithoutOverflow() throws {
        var g = GraphBuilder()
        let a = g.constant([Int32.min], shape: []), b = g.constant([Int32.max], shape: []),
            c = g.constant([Int32.max], shape: [])
        let z = g.tensor([], .int32)
        g.op(.range, inputs: [a, b, c], outputs: [z])
        g.output(z)
        let engine = try g.engine()
        try engine.allocate()
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [Int32.min, -1, Int32.max - 1])
    }

    @Test func fillAndBroadcastToRefuseImpossibleShapes() {
        var g = GraphBuilder()
        let dims = g.constant([Int32(2), -3], shape: [2])
        let v = g.input([], .float32)
        let y = g.tensor([], .float32)
        g.op(.fill, inputs: [dims, v], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(g, "negative dimension")
        var h = GraphBuilder()
        let x = h.input([3, 2], .float32)
        let s = h.constant([Int32(3), 4], shape: [2])
        let z = h.tensor([], .float32)
        h.op(.broadcastTo, inputs: [x, s], outputs: [z])
        h.output(z)
        ShapeTest.expectPrepareError(h, "cannot broadcast shape [3, 2] to [3, 4]")
    }

    @Test func tileWithHugeMultiplesIsRefused() {
        var g = GraphBuilder()
        let x = g.input([3, 2], .float32)
        let m = g.constant([Int32.max, Int32.max], shape: [2])
        let y = g.tensor([], .float32)
        g.op(.tile, inputs: [x, m], outputs: [y])
        g.output(y)
        #expect(throws: RuntimeError.self) { try g.engine() }
    }

    @Test func spaceToBatchRefusesIndivisiblePadding() {
        var g = GraphBuilder()
        let x = g.input([1, 5, 4, 1], .float32)
        let b = g.constant([Int32(2), 2], shape: [2])
        let p = g.constant([Int32(0), 0, 0, 0], shape: [2, 2])
        let y = g.tensor([], .float32)
        g.op(.spaceToBatchND, inputs: [x, b, p], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(g, "is not a multiple of block size 2")
    }

    @Test func rfftLengthsMustBePowersOfTwo() {
        var g = GraphBuilder()
        let x = g.input([4, 6], .float32)
        let f = g.constant([Int32(4), 6], shape: [2])
        let y = g.tensor([], .complex64)
        g.op(.rfft2D, inputs: [x, f], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(g, "must be powers of two")
    }

    /// A constant impulse at the origin has a flat spectrum; a constant row has all its
    /// energy in bin 0. Checks the layout: `[H, W/2 + 1]` interleaved (re, im).
    @Test func rfftOfSimpleSignals() throws {
        var g = GraphBuilder()
        let x = g.input([2, 4], .float32)
        let f = g.constant([Int32(2), 4], shape: [2])
        let z = g.tensor([], .complex64)
        let a = g.tensor([], .float32)
        g.op(.rfft2D, inputs: [x, f], outputs: [z])
        g.op(.complexAbs, inputs: [z], outputs: [a])
        g.output(z); g.output(a)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 0, 0, 0, 0, 0, 0, 0] as [Float])
        try engine.invoke()
        #expect(engine.outputShape(0) == [2, 3])
        #expect(try engine.output(0, as: Float.self) == [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0])
        try engine.setInput(0, [0, 1, 0, 0, 0, 0, 0, 0] as [Float])
        try engine.invoke()
        // x[0, 1] = 1: X[k, l] = e^{−2πi l/4} = 1, −i, −1 for l = 0, 1, 2 on both rows.
        let z1 = try engine.output(0, as: Float.self)
        #expect(z1.map { ($0 * 1e6).rounded() / 1e6 } == [1, 0, 0, -1, -1, 0, 1, 0, 0, -1, -1, 0])
        #expect(try engine.output(1, as: Float.self) == [1, 1, 1, 1, 1, 1])
    }
}
