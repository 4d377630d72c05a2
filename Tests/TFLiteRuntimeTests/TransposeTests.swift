import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct TransposeTests {
    private func transposeGraph(_ shape: [Int], perm: [Int32], type: ElementType = .float32) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(shape, type)
        let p = g.constant(perm, shape: [perm.count])
        let y = g.tensor([], type)
        g.op(.transpose, inputs: [x, p], outputs: [y])
        g.output(y)
        return g
    }

    @Test func goldensFromTensorFlow() throws {
        let a = try ShapeTest.run(
            transposeGraph([2, 3, 4], perm: [2, 0, 1]), input: ShapeTest.iota(24, as: Float.self), as: Float.self)
        #expect(a.shape == [4, 2, 3])
        #expect(a.values == [0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23])
        let b = try ShapeTest.run(
            transposeGraph([2, 2, 3, 4], perm: [3, 1, 0, 2], type: .uint8), input: ShapeTest.iota(48, as: UInt8.self),
            as: UInt8.self)
        #expect(b.shape == [4, 2, 2, 3])
        #expect(
            b.values == [
                0, 4, 8, 24, 28, 32, 12, 16, 20, 36, 40, 44, 1, 5, 9, 25, 29, 33, 13, 17, 21, 37, 41, 45,
                2, 6, 10, 26, 30, 34, 14, 18, 22, 38, 42, 46, 3, 7, 11, 27, 31, 35, 15, 19, 23, 39, 43, 47,
            ])
    }

    @Test func sixDimensionsMatchNaiveReference() throws {
        let shape = [2, 1, 3, 2, 2, 3]
        let perm = [5, 3, 0, 4, 1, 2]
        let n = shape.reduce(1, *)
        let (outShape, values) = try ShapeTest.run(
            transposeGraph(shape, perm: perm.map(Int32.init), type: .int32),
            input: ShapeTest.iota(n, as: Int32.self), as: Int32.self)
        let expectedShape = perm.map { shape[$0] }
        #expect(outShape == expectedShape)
        let expected = (0 ..< n).map { flat -> Int32 in
            let o = ShapeTest.unravel(flat, expectedShape)
            var i = [Int](repeating: 0, count: shape.count)
            for (k, p) in perm.enumerated() { i[p] = o[k] }
            return Int32(ShapeTest.ravel(i, shape))
        }
        #expect(values == expected)
    }

    /// Permutations that move the last axis go through the tiled pair copy (4 × 4 register
    /// blocks for 4-byte elements, edges element by element): every element size, sides
    /// on and off multiples of 4 and of the tile, against the index arithmetic.
    @Test(arguments: [ElementType.uint8, .int16, .float32, .int64])
    func lastAxisMovesMatchNaiveReference(type: ElementType) throws {
        let cases: [([Int], [Int])] = [
            ([5, 7], [1, 0]), ([16, 32], [1, 0]), ([17, 35], [1, 0]), ([3, 19, 4, 6], [0, 2, 3, 1]),
            ([1, 33, 4, 8], [0, 2, 3, 1]), ([2, 4, 9, 13], [0, 1, 3, 2]), ([3, 5, 6], [2, 0, 1]),
            ([4, 1, 21, 1, 18], [4, 2, 0, 1, 3]),
        ]
        for (shape, perm) in cases {
            let n = shape.reduce(1, *)
            let outShape = perm.map { shape[$0] }
            let expected = (0 ..< n).map { flat -> Int in
                let o = ShapeTest.unravel(flat, outShape)
                var i = [Int](repeating: 0, count: shape.count)
                for (k, p) in perm.enumerated() { i[p] = o[k] }
                return ShapeTest.ravel(i, shape)
            }
            let graph = transposeGraph(shape, perm: perm.map(Int32.init), type: type)
            switch type {
            case .uint8:
                let r = try ShapeTest.run(graph, input: (0 ..< n).map { UInt8(truncatingIfNeeded: $0) }, as: UInt8.self)
                #expect(r.shape == outShape && r.values == expected.map { UInt8(truncatingIfNeeded: $0) })
            case .int16:
                let r = try ShapeTest.run(graph, input: (0 ..< n).map { Int16(truncatingIfNeeded: $0) }, as: Int16.self)
                #expect(r.shape == outShape && r.values == expected.map { Int16(truncatingIfNeeded: $0) })
            case .float32:
                let r = try ShapeTest.run(graph, input: (0 ..< n).map { Float($0) }, as: Float.self)
                #expect(r.shape == outShape && r.values == expected.map { Float($0) }, "\(shape) \(perm)")
            default:
                let r = try ShapeTest.run(graph, input: (0 ..< n).map { Int64($0) }, as: Int64.self)
                #expect(r.shape == outShape && r.values == expected.map { Int64($0) })
            }
        }
    }

    @Test func transposeErrors() {
        ShapeTest.expectPrepareError(transposeGraph([2, 3], perm: [0, 0]), "is not a permutation")
        ShapeTest.expectPrepareError(transposeGraph([2, 3], perm: [0, 2]), "is not a permutation")
        ShapeTest.expectPrepareError(transposeGraph([2, 3], perm: [1]), "is not a permutation")
        ShapeTest.expectPrepareError(transposeGraph([1, 1, 1, 1, 1, 1, 1], perm: [0, 1, 2, 3, 4, 5, 6]), "at most 6")
    }

    private func blockGraph(_ code: BuiltinOperator, _ shape: [Int], blockSize: Int) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(shape, .float32)
        let y = g.tensor([], .float32)
        g.op(
            code, inputs: [x], outputs: [y],
            options: code == .depthToSpace ? .depthToSpace(blockSize: blockSize) : .spaceToDepth(blockSize: blockSize))
        g.output(y)
        return g
    }

    @Test func depthToSpaceGolden() throws {
        let (shape, values) = try ShapeTest.run(
            blockGraph(.depthToSpace, [1, 2, 2, 8], blockSize: 2), input: ShapeTest.iota(32, as: Float.self),
            as: Float.self)
        #expect(shape == [1, 4, 4, 2])
        #expect(
            values == [
                0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19, 24, 25, 26, 27, 20, 21, 22, 23,
                28, 29, 30, 31,
            ])
    }

    @Test func spaceToDepthGoldenAndRoundTrip() throws {
        let (shape, values) = try ShapeTest.run(
            blockGraph(.spaceToDepth, [1, 4, 6, 2], blockSize: 2), input: ShapeTest.iota(48, as: Float.self),
            as: Float.self)
        #expect(shape == [1, 2, 3, 8])
        #expect(
            values == [
                0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23,
                24, 25, 26, 27, 36, 37, 38, 39, 28, 29, 30, 31, 40, 41, 42, 43, 32, 33, 34, 35, 44, 45, 46, 47,
            ])
        // SPACE_TO_DEPTH then DEPTH_TO_SPACE with block 3 restores the input.
        var g = GraphBuilder()
        let x = g.input([2, 3, 6, 2], .float32)
        let m = g.tensor([], .float32)
        let y = g.tensor([], .float32)
        g.op(.spaceToDepth, inputs: [x], outputs: [m], options: .spaceToDepth(blockSize: 3))
        g.op(.depthToSpace, inputs: [m], outputs: [y], options: .depthToSpace(blockSize: 3))
        g.output(y)
        let input: [Float] = ShapeTest.iota(72)
        let round = try ShapeTest.run(g, input: input, as: Float.self)
        #expect(round.shape == [2, 3, 6, 2])
        #expect(round.values == input)
    }

    @Test func blockErrors() {
        ShapeTest.expectPrepareError(
            blockGraph(.depthToSpace, [1, 2, 2, 6], blockSize: 2), "not divisible by block_size²")
        ShapeTest.expectPrepareError(
            blockGraph(.spaceToDepth, [1, 3, 4, 1], blockSize: 2), "multiples of block_size 2")
        ShapeTest.expectPrepareError(blockGraph(.spaceToDepth, [1, 4, 4, 1], blockSize: 0), "block_size is 0")
        ShapeTest.expectPrepareError(blockGraph(.depthToSpace, [4, 4, 1], blockSize: 1), "must be 4-D")
    }
}
