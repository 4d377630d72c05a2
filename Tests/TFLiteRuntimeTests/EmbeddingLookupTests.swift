import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct EmbeddingLookupTests {
    @Test func copiesRowsAndRefusesOutOfRangeIds() throws {
        var g = GraphBuilder()
        let ids = g.input([3], .int32)
        let table = g.constant((0 ..< 8).map { Float($0) }, shape: [4, 2])
        let y = g.tensor([3, 2], .float32)
        g.op(.embeddingLookup, inputs: [ids, table], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [3, 0, 3] as [Int32])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [6, 7, 0, 1, 6, 7])
        try engine.setInput(0, [1, 4, 0] as [Int32])
        expectInvokeFailure(engine, op: "EMBEDDING_LOOKUP", "id 4")
        try engine.setInput(0, [-1, 0, 0] as [Int32])
        expectInvokeFailure(engine, op: "EMBEDDING_LOOKUP", "id -1")
    }

    /// An 8-bit table with float output: codes (uint8 read as signed bytes) times the scale
    /// of the tensor or of the row.
    @Test func hybridTablesScaleSignedCodes() throws {
        for (type, scales) in [(ElementType.uint8, [0.5] as [Float]), (.int8, [0.5, 0.25])] {
            var g = GraphBuilder()
            let ids = g.input([2], .int32)
            let q = Quantization(scales: scales, zeroPoints: scales.map { _ in 0 }, quantizedDimension: 0)
            let table = g.constant([0, 200, 255, 1, 128, 127] as [UInt8], shape: [2, 3], type, quantization: q)
            let y = g.tensor([2, 3], .float32)
            g.op(.embeddingLookup, inputs: [ids, table], outputs: [y])
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            try engine.setInput(0, [1, 0] as [Int32])
            try engine.invoke()
            let row1 = scales.count > 1 ? scales[1] : scales[0]
            #expect(try engine.output(0, as: Float.self) == [1 * row1, -128 * row1, 127 * row1, 0, -28, -0.5])
        }
    }

    @Test func hybridTablesNeedZeroPointZero() {
        var g = GraphBuilder()
        let ids = g.input([2], .int32)
        let q = Quantization(scales: [0.5], zeroPoints: [3], quantizedDimension: 0)
        let table = g.constant([UInt8](repeating: 1, count: 6), shape: [2, 3], .uint8, quantization: q)
        g.op(.embeddingLookup, inputs: [ids, table], outputs: [g.tensor([2, 3], .float32)])
        expectInvalid(g, op: "EMBEDDING_LOOKUP", "zero point is 3")

        var rank = GraphBuilder()
        let i = rank.input([2, 1], .int32)
        let t = rank.constant([1, 2] as [Float], shape: [2, 1])
        rank.op(.embeddingLookup, inputs: [i, t], outputs: [rank.tensor([2, 1], .float32)])
        expectInvalid(rank, op: "EMBEDDING_LOOKUP", "1-D ids")
    }

    @Test func sparseLookupCombinesGroupsOfOnePosition() throws {
        // Two batch entries; entry 0 takes rows 0 and 2, entry 1 row 1.
        for (combiner, want) in [
            (Int8(0), [Float](arrayLiteral: 1 * 1 + 2 * 5, 1 * 2 + 2 * 6, 3 * 3, 3 * 4)),
            (1, [11 / 3, 14 / 3, 3, 4]), (2, [11 / Float(5).squareRoot(), 14 / Float(5).squareRoot(), 3, 4]),
        ] {
            var g = GraphBuilder()
            let ids = g.input([3], .int32)
            let positions = g.constant([0, 0, 0, 1, 1, 0] as [Int32], shape: [3, 2])
            let dense = g.constant([2, 4] as [Int32], shape: [2])
            let weights = g.constant([1, 2, 3] as [Float], shape: [3])
            let table = g.constant([1, 2, 3, 4, 5, 6] as [Float], shape: [3, 2])
            let y = g.tensor([2, 2], .float32)
            g.op(
                .embeddingLookupSparse, inputs: [ids, positions, dense, weights, table], outputs: [y],
                options: .embeddingLookupSparse(combiner: combiner))
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            try engine.setInput(0, [0, 2, 1] as [Int32])
            try engine.invoke()
            let got = try engine.output(0, as: Float.self)
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1e-6 }, "combiner \(combiner): \(got)")
            try engine.setInput(0, [0, 3, 1] as [Int32])
            expectInvokeFailure(engine, op: "EMBEDDING_LOOKUP_SPARSE", "id 3")
        }
    }

    @Test func sparseLookupRefusesAnOutputRankPastTheLimit() {
        // Indices with 10 coordinates and no entries hold no data but would give rank 10.
        var g = GraphBuilder()
        let ids = g.input([0], .int32)
        let positions = g.input([0, 10], .int32)
        let dense = g.input([10], .int32)
        let weights = g.input([0], .float32)
        let table = g.constant([1, 2] as [Float], shape: [1, 2])
        g.op(
            .embeddingLookupSparse, inputs: [ids, positions, dense, weights, table],
            outputs: [g.tensor([1], .float32)])
        expectInvalid(g, op: "EMBEDDING_LOOKUP_SPARSE", "rank 10")
    }
}
