import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct ConcatenationTests {
    /// Naive reference: output index → (input, index in input) by walking the axis.
    private func reference(_ shapes: [[Int]], _ datas: [[Float]], axis: Int) -> [Float] {
        var outShape = shapes[0]
        outShape[axis] = shapes.map { $0[axis] }.reduce(0, +)
        return (0 ..< outShape.reduce(1, *)).map { flat in
            var idx = ShapeTest.unravel(flat, outShape)
            var k = 0
            while idx[axis] >= shapes[k][axis] { idx[axis] -= shapes[k][axis]; k += 1 }
            return datas[k][ShapeTest.ravel(idx, shapes[k])]
        }
    }

    @Test(arguments: [0, 1, 2, -1, -3])
    func concatenatesAlongEachAxis(axis: Int) throws {
        let base = [2, 3, 4]
        let a = axis < 0 ? axis + 3 : axis
        var shapes = [base, base, base]
        shapes[1][a] = 1
        shapes[2][a] = 2
        var g = GraphBuilder()
        let x = g.input(shapes[0], .float32)
        let datas = shapes.enumerated().map { k, s in (0 ..< s.reduce(1, *)).map { Float(100 * k + $0) } }
        let c1 = g.constant(datas[1], shape: shapes[1])
        let c2 = g.constant(datas[2], shape: shapes[2])
        let y = g.tensor([], .float32)
        g.op(.concatenation, inputs: [x, c1, c2], outputs: [y], options: .concatenation(axis: axis, activation: .none))
        g.output(y)
        let (shape, values) = try ShapeTest.run(g, input: datas[0], as: Float.self)
        var expectedShape = base
        expectedShape[a] = base[a] + 3
        #expect(shape == expectedShape)
        #expect(values == reference(shapes, datas, axis: a))
    }

    @Test func literalTwoByTwo() throws {
        var g = GraphBuilder()
        let x = g.input([2, 2], .int32)
        let c = g.constant([10, 11] as [Int32], shape: [2, 1])
        let y = g.tensor([], .int32)
        g.op(.concatenation, inputs: [x, c], outputs: [y], options: .concatenation(axis: 1, activation: .none))
        g.output(y)
        let (shape, values) = try ShapeTest.run(g, input: [1, 2, 3, 4] as [Int32], as: Int32.self)
        #expect(shape == [2, 3])
        #expect(values == [1, 2, 10, 3, 4, 11])
    }

    @Test func fusedReluSixClampsFloat() throws {
        var g = GraphBuilder()
        let x = g.input([3], .float32)
        let c = g.constant([7, -0.5] as [Float], shape: [2])
        let y = g.tensor([], .float32)
        g.op(.concatenation, inputs: [x, c], outputs: [y], options: .concatenation(axis: 0, activation: .relu6))
        g.output(y)
        let (_, values) = try ShapeTest.run(g, input: [-1, 3, 6.5] as [Float], as: Float.self)
        #expect(values == [0, 3, 6, 6, 0])
    }

    @Test func quantizedInputsWithEqualParametersCopyCodes() throws {
        let q = Quantization(scales: [0.5], zeroPoints: [-3])
        var g = GraphBuilder()
        let x = g.input([2], .int8, quantization: q)
        let c = g.constant([Int8(-128), 127], shape: [2], .int8, quantization: q)
        let y = g.tensor([], .int8, quantization: q)
        g.op(.concatenation, inputs: [c, x], outputs: [y], options: .concatenation(axis: 0, activation: .none))
        g.output(y)
        let (_, values) = try ShapeTest.run(g, input: [5, -5] as [Int8], as: Int8.self)
        #expect(values == [-128, 127, 5, -5])
    }

    @Test func prepareErrors() {
        func graph(
            _ a: [Int], _ b: [Int], axis: Int, activation: FusedActivation = .none, type: ElementType = .float32,
            qa: Quantization? = nil, qb: Quantization? = nil
        ) -> GraphBuilder {
            var g = GraphBuilder()
            let x = g.input(a, type, quantization: qa)
            let z = g.input(b, type, quantization: qb)
            let y = g.tensor([], type, quantization: qa)
            g.op(
                .concatenation, inputs: [x, z], outputs: [y],
                options: .concatenation(axis: axis, activation: activation))
            g.output(y)
            return g
        }
        ShapeTest.expectPrepareError(graph([2, 3], [2, 3], axis: 2), "axis 2 is out of range for rank 2")
        ShapeTest.expectPrepareError(graph([2, 3], [3, 3], axis: 1), "does not match [2, 3] outside axis 1")
        ShapeTest.expectPrepareError(graph([2, 3], [2, 3, 1], axis: 0), "does not match")
        ShapeTest.expectPrepareError(
            graph([2], [2], axis: 0, activation: .tanh), "fused activation TANH is not supported")
        ShapeTest.expectPrepareError(
            graph([2], [2], axis: 0, activation: .relu, type: .int32), "only supported for FLOAT32")
        // uint8 inputs are requantized (QuantizedElementwiseGoldenTests); int8 ones must
        // match the output, as TFLite requires.
        ShapeTest.expectPrepareError(
            graph(
                [2], [2], axis: 0, type: .int8,
                qa: Quantization(scales: [0.5], zeroPoints: [0]), qb: Quantization(scales: [0.25], zeroPoints: [0])),
            "must be quantized like the output")
    }

    // MARK: - PACK

    @Test(arguments: [0, 1, 2, -1])
    func packsAlongEachAxis(axis: Int) throws {
        let shape = [2, 3]
        var g = GraphBuilder()
        let x = g.input(shape, .float32)
        let b = g.constant((0 ..< 6).map { Float(100 + $0) }, shape: shape)
        let c = g.constant((0 ..< 6).map { Float(200 + $0) }, shape: shape)
        let y = g.tensor([], .float32)
        g.op(.pack, inputs: [x, b, c], outputs: [y], options: .pack(valuesCount: 3, axis: axis))
        g.output(y)
        let (outShape, values) = try ShapeTest.run(g, input: ShapeTest.iota(6, as: Float.self), as: Float.self)
        let a = axis < 0 ? axis + 3 : axis
        var expectedShape = shape
        expectedShape.insert(3, at: a)
        #expect(outShape == expectedShape)
        // out[..., k, ...] = input k at the index without axis a.
        let expected = (0 ..< 18).map { flat -> Float in
            var idx = ShapeTest.unravel(flat, expectedShape)
            let k = idx.remove(at: a)
            return Float(100 * k + ShapeTest.ravel(idx, shape))
        }
        #expect(values == expected)
    }

    @Test func packScalarsIntoAVector() throws {
        var g = GraphBuilder()
        let x = g.input([], .int64)
        let c = g.constant([Int64(-9)], shape: [], .int64)
        let y = g.tensor([], .int64)
        g.op(.pack, inputs: [c, x], outputs: [y], options: .pack(valuesCount: 2, axis: 0))
        g.output(y)
        let (shape, values) = try ShapeTest.run(g, input: [Int64(1) << 40], as: Int64.self)
        #expect(shape == [2])
        #expect(values == [-9, 1 << 40])
    }

    @Test func packErrors() {
        func graph(_ a: [Int], _ b: [Int], count: Int, axis: Int) -> GraphBuilder {
            var g = GraphBuilder()
            let x = g.input(a, .float32)
            let z = g.input(b, .float32)
            let y = g.tensor([], .float32)
            g.op(.pack, inputs: [x, z], outputs: [y], options: .pack(valuesCount: count, axis: axis))
            g.output(y)
            return g
        }
        ShapeTest.expectPrepareError(graph([2], [3], count: 2, axis: 0), "every input must have shape [2]")
        ShapeTest.expectPrepareError(graph([2], [2], count: 3, axis: 0), "expected 3 inputs, found 2")
        ShapeTest.expectPrepareError(graph([2], [2], count: 2, axis: 2), "axis 2 is out of range for rank 2")
        ShapeTest.expectPrepareError(graph([2], [2], count: 2, axis: -3), "out of range")
    }
}
