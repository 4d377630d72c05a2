import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct ReshapeTests {
    private func reshapeGraph(input: [Int], type: ElementType = .float32, shapeTensor: [Int32]?, options: [Int]? = nil)
        -> GraphBuilder
    {
        var g = GraphBuilder()
        let x = g.input(input, type)
        var inputs = [x]
        if let s = shapeTensor { inputs.append(g.constant(s, shape: [s.count])) }
        let y = g.tensor([], type)
        g.op(.reshape, inputs: inputs, outputs: [y], options: .reshape(newShape: options))
        g.output(y)
        return g
    }

    @Test func shapeTensorWithInferredDimension() throws {
        let g = reshapeGraph(input: [2, 3, 4], shapeTensor: [4, -1])
        let x: [Float] = ShapeTest.iota(24)
        let (shape, values) = try ShapeTest.run(g, input: x, as: Float.self)
        #expect(shape == [4, 6])
        #expect(values == x)
    }

    @Test func newShapeOptionWhenNoShapeTensor() throws {
        let g = reshapeGraph(input: [2, 6], shapeTensor: nil, options: [3, 2, 2])
        let (shape, values) = try ShapeTest.run(g, input: ShapeTest.iota(12, as: Float.self), as: Float.self)
        #expect(shape == [3, 2, 2])
        #expect(values == ShapeTest.iota(12))
    }

    @Test func legacyZeroNewShapeMeansScalar() throws {
        let g = reshapeGraph(input: [1, 1], shapeTensor: nil, options: [0])
        let (shape, values) = try ShapeTest.run(g, input: [42] as [Float], as: Float.self)
        #expect(shape == [])
        #expect(values == [42])
    }

    @Test func nonInt32ShapeTensorFallsBackToOptions() throws {
        var g = GraphBuilder()
        let x = g.input([4], .int32)
        let s = g.constant([2, 2] as [Int64], shape: [2], .int64)
        let y = g.tensor([], .int32)
        g.op(.reshape, inputs: [x, s], outputs: [y], options: .reshape(newShape: [4, 1]))
        g.output(y)
        let (shape, values) = try ShapeTest.run(g, input: [5, 6, 7, 8] as [Int32], as: Int32.self)
        #expect(shape == [4, 1])
        #expect(values == [5, 6, 7, 8])
    }

    @Test func emptyInputInfersZero() throws {
        let g = reshapeGraph(input: [0, 3], shapeTensor: [-1, 3, 2])
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.outputShape(0) == [0, 3, 2])
    }

    /// An empty input whose other dimensions multiply beyond `Int` is an error, not a
    /// trap (RELIABILITY.md finding 13).
    @Test func emptyInputWithHugeDimensionsFailsCleanly() {
        let huge = 1 << 31
        #expect(throws: KernelError.self) {
            _ = try ReshapeKernels.inferShape([-1], inputShape: [13057, 0, huge, huge], source: "shape tensor")
        }
        #expect(throws: KernelError.self) {
            _ = try ReshapeKernels.inferShape([1 << 40, 1 << 40, -1], inputShape: [2, 0, 3], source: "shape tensor")
        }
        #expect(
            (try? ReshapeKernels.inferShape([0, -1], inputShape: [0, 1 << 20, 1 << 20], source: "shape tensor")) == [
                0, 1 << 40,
            ])
    }

    @Test func movesEveryFixedSizeType() throws {
        // int8, float16 (as bits), bool, int64, int16, uint8: bytes move unchanged.
        let int8 = try ShapeTest.run(
            reshapeGraph(input: [2, 2], type: .int8, shapeTensor: [4]), input: [-128, -1, 0, 127] as [Int8],
            as: Int8.self)
        #expect(int8.values == [-128, -1, 0, 127])
        let half = try ShapeTest.run(
            reshapeGraph(input: [3], type: .float16, shapeTensor: [3, 1]), input: [0x3C00, 0xC000, 0x7BFF] as [UInt16],
            as: UInt16.self)
        #expect(half.values == [0x3C00, 0xC000, 0x7BFF])
        let bool = try ShapeTest.run(
            reshapeGraph(input: [2], type: .bool, shapeTensor: [1, 2]), input: [true, false], as: Bool.self)
        #expect(bool.values == [true, false])
        let int64 = try ShapeTest.run(
            reshapeGraph(input: [2], type: .int64, shapeTensor: [-1]), input: [Int64.min, Int64.max], as: Int64.self)
        #expect(int64.values == [Int64.min, Int64.max])
        let int16 = try ShapeTest.run(
            reshapeGraph(input: [1, 2], type: .int16, shapeTensor: [2]), input: [-300, 300] as [Int16], as: Int16.self)
        #expect(int16.values == [-300, 300])
        let uint8 = try ShapeTest.run(
            reshapeGraph(input: [2, 1], type: .uint8, shapeTensor: [2]), input: [0, 255] as [UInt8], as: UInt8.self)
        #expect(uint8.values == [0, 255])
    }

    @Test func prepareErrors() {
        ShapeTest.expectPrepareError(
            reshapeGraph(input: [2, 3], shapeTensor: [4, 2]), "cannot reshape [2, 3] (6 elements)")
        ShapeTest.expectPrepareError(reshapeGraph(input: [2, 3], shapeTensor: [-1, -1]), "more than one -1")
        ShapeTest.expectPrepareError(reshapeGraph(input: [2, 3], shapeTensor: [-2, -3]), "negative dimension")
        ShapeTest.expectPrepareError(reshapeGraph(input: [1], shapeTensor: Array(repeating: 1, count: 9)), "at most 8")
        ShapeTest.expectPrepareError(
            reshapeGraph(input: [2], shapeTensor: [2, 1 << 30, 1 << 30, 1 << 30]), "too many elements")

        var t = GraphBuilder()
        let a = t.input([4], .float32)
        let b = t.tensor([4], .int32)
        t.op(.reshape, inputs: [a], outputs: [b], options: .reshape(newShape: [4]))
        t.output(b)
        ShapeTest.expectPrepareError(t, "does not support the types inputs (FLOAT32) -> outputs (INT32)")
    }

    // MARK: - SQUEEZE

    private func squeezeGraph(_ shape: [Int], dims: [Int]) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(shape, .float32)
        let y = g.tensor([], .float32)
        g.op(.squeeze, inputs: [x], outputs: [y], options: .squeeze(squeezeDims: dims))
        g.output(y)
        return g
    }

    @Test func squeezeAllOnesWhenNoDims() throws {
        let (shape, values) = try ShapeTest.run(
            squeezeGraph([1, 3, 1, 2], dims: []), input: ShapeTest.iota(6, as: Float.self), as: Float.self)
        #expect(shape == [3, 2])
        #expect(values == ShapeTest.iota(6))
    }

    @Test func squeezeListedDimsIncludingNegative() throws {
        let (shape, _) = try ShapeTest.run(
            squeezeGraph([1, 3, 1, 2, 1], dims: [-3, 4]), input: ShapeTest.iota(6, as: Float.self), as: Float.self)
        #expect(shape == [1, 3, 2])
    }

    @Test func squeezeErrors() {
        ShapeTest.expectPrepareError(squeezeGraph([1, 3], dims: [1]), "its size is 3, not 1")
        ShapeTest.expectPrepareError(squeezeGraph([1, 3], dims: [2]), "squeeze dimension 2 is out of range for rank 2")
        ShapeTest.expectPrepareError(squeezeGraph([1, 3], dims: [-3]), "out of range")
    }

    // MARK: - EXPAND_DIMS

    private func expandGraph(_ shape: [Int], axis: Int, wide: Bool = false) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(shape, .float32)
        let a: Int
        if wide {
            a = g.constant([Int64(axis)], shape: [], .int64)
        } else {
            a = g.constant([Int32(axis)], shape: [1])
        }
        let y = g.tensor([], .float32)
        g.op(.expandDims, inputs: [x, a], outputs: [y])
        g.output(y)
        return g
    }

    @Test func expandDimsPositions() throws {
        let cases: [(axis: Int, wide: Bool, shape: [Int])] = [
            (0, false, [1, 2, 3]), (1, true, [2, 1, 3]), (2, false, [2, 3, 1]), (-1, false, [2, 3, 1]),
            (-3, true, [1, 2, 3]),
        ]
        for c in cases {
            let (shape, values) = try ShapeTest.run(
                expandGraph([2, 3], axis: c.axis, wide: c.wide), input: ShapeTest.iota(6, as: Float.self),
                as: Float.self)
            #expect(shape == c.shape, "axis \(c.axis)")
            #expect(values == ShapeTest.iota(6))
        }
    }

    @Test func expandDimsErrors() {
        ShapeTest.expectPrepareError(expandGraph([2, 3], axis: 3), "axis 3 is out of range for rank 3")
        ShapeTest.expectPrepareError(expandGraph([2, 3], axis: -4), "out of range")
        ShapeTest.expectPrepareError(expandGraph([1, 1, 1, 1, 1, 1, 1, 1], axis: 0), "at most 8")
    }
}
