import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct SliceTests {
    private func graph(_ shape: [Int], begin: [Int32], size: [Int32], type: ElementType = .float32, wide: Bool = false)
        -> GraphBuilder
    {
        var g = GraphBuilder()
        let x = g.input(shape, type)
        let b =
            wide
            ? g.constant(begin.map(Int64.init), shape: [begin.count], .int64) : g.constant(begin, shape: [begin.count])
        let s =
            wide ? g.constant(size.map(Int64.init), shape: [size.count], .int64) : g.constant(size, shape: [size.count])
        let y = g.tensor([], type)
        g.op(.slice, inputs: [x, b, s], outputs: [y])
        g.output(y)
        return g
    }

    /// Naive reference: out[i] = in[begin + i].
    private func reference(_ shape: [Int], begin: [Int], size: [Int]) -> [Float] {
        (0 ..< size.reduce(1, *)).map { flat in
            let idx = ShapeTest.unravel(flat, size)
            return Float(ShapeTest.ravel(zip(idx, begin).map { $0 + $1 }, shape))
        }
    }

    @Test func sliceThreeD() throws {
        let (shape, values) = try ShapeTest.run(
            graph([3, 4, 5], begin: [1, 0, 2], size: [2, -1, 2]), input: ShapeTest.iota(60, as: Float.self),
            as: Float.self)
        #expect(shape == [2, 4, 2])
        #expect(values == reference([3, 4, 5], begin: [1, 0, 2], size: [2, 4, 2]))
    }

    @Test func sliceLiteralWithInt64Tensors() throws {
        let (shape, values) = try ShapeTest.run(
            graph([2, 3], begin: [0, 1], size: [2, 2], type: .int8, wide: true),
            input: [1, 2, 3, 4, 5, 6] as [Int8], as: Int8.self)
        #expect(shape == [2, 2])
        #expect(values == [2, 3, 5, 6])
    }

    @Test func sliceFourDMatchesReference() throws {
        let shape = [2, 3, 4, 5]
        let (outShape, values) = try ShapeTest.run(
            graph(shape, begin: [1, 1, 0, 3], size: [1, -1, 3, 2]),
            input: ShapeTest.iota(120, as: Float.self), as: Float.self)
        #expect(outShape == [1, 2, 3, 2])
        #expect(values == reference(shape, begin: [1, 1, 0, 3], size: [1, 2, 3, 2]))
    }

    @Test func sliceErrors() {
        ShapeTest.expectPrepareError(graph([3, 4], begin: [2, 0], size: [2, 4]), "runs past dimension 0")
        ShapeTest.expectPrepareError(graph([3, 4], begin: [-1, 0], size: [1, 4]), "begin -1 is outside 0...3")
        ShapeTest.expectPrepareError(graph([3, 4], begin: [0], size: [1]), "must each have 2 entries")
        ShapeTest.expectPrepareError(graph([3, 4], begin: [0, 0], size: [-2, 1]), "size -2")
    }
}
