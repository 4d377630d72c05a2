import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Comparison and selection kernels: broadcasting, NaN, quantized rescaling, SELECT's
/// row form and SELECT_V2's three-way broadcast.
@Suite struct ComparisonTests {
    func compare<T>(
        _ op: BuiltinOperator, _ a: [T], _ aShape: [Int], _ b: [T], _ bShape: [Int], _ type: ElementType,
        quantization: (Quantization?, Quantization?) = (nil, nil)
    ) throws -> (values: [UInt8], shape: [Int]) {
        try runBinary(op, a, aShape, b, bShape, type, output: .bool, quantization: quantization, as: UInt8.self)
    }

    @Test func floatRelationsBroadcastAndHandleNaN() throws {
        let a: [Float] = [1, 2, 3, .nan, 1, 2, 3, .nan]
        let b: [Float] = [2, 2, 2, 2]
        let (less, shape) = try compare(.less, a, [2, 4], b, [4], .float32)
        #expect(shape == [2, 4])
        #expect(less == [1, 0, 0, 0, 1, 0, 0, 0])
        #expect(try compare(.notEqual, a, [2, 4], b, [4], .float32).values == [1, 0, 1, 1, 1, 0, 1, 1])
        #expect(try compare(.greaterEqual, a, [2, 4], b, [4], .float32).values == [0, 1, 1, 0, 0, 1, 1, 0])
        #expect(
            try compare(.equal, [5, 6] as [Int64], [2, 1], [5, 6, 7] as [Int64], [1, 3], .int64).values == [
                1, 0, 0, 0, 1, 0,
            ])
        #expect(try compare(.lessEqual, [1, 5] as [Int32], [2], [3] as [Int32], [], .int32).values == [1, 0])
        #expect(try compare(.equal, [0, 1, 2] as [UInt8], [3], [0, 5, 1] as [UInt8], [3], .bool).values == [1, 1, 1])
    }

    @Test func quantizedOperandsCompareAsRealNumbers() throws {
        // a: scale 0.5, zero 0 → codes 2, 4, 6 are 1, 2, 3; b: scale 0.25, zero 10 → code 18 is 2.
        let qa = Quantization(scales: [0.5], zeroPoints: [0], quantizedDimension: 0)
        let qb = Quantization(scales: [0.25], zeroPoints: [10], quantizedDimension: 0)
        let r = try compare(.greater, [2, 4, 6] as [Int8], [3], [18] as [Int8], [1], .int8, quantization: (qa, qb))
        #expect(r.values == [0, 0, 1])
        let e = try compare(.equal, [2, 4, 6] as [Int8], [3], [18] as [Int8], [1], .int8, quantization: (qa, qb))
        #expect(e.values == [0, 1, 0])
    }

    @Test func selectPicksElementsRowsOrEverything() throws {
        func run(
            _ op: BuiltinOperator, cond: [UInt8], _ cShape: [Int], x: [Int32], _ xShape: [Int],
            y: [Int32], _ yShape: [Int]
        ) throws -> ([Int32], [Int]) {
            var g = GraphBuilder()
            let c = g.input(cShape, .bool)
            let a = g.input(xShape, .int32)
            let b = g.input(yShape, .int32)
            let z = g.tensor([], .int32)
            g.op(op, inputs: [c, a, b], outputs: [z])
            g.output(z)
            let engine = try g.engine(threads: 2)
            try engine.allocate()
            try engine.setInput(0, cond)
            try engine.setInput(1, x)
            try engine.setInput(2, y)
            try engine.invoke()
            return (try engine.output(0, as: Int32.self), engine.outputShape(0))
        }
        let x: [Int32] = [1, 2, 3, 4, 5, 6], y: [Int32] = [-1, -2, -3, -4, -5, -6]
        #expect(
            try run(.select, cond: [1, 0, 1, 0, 0, 1], [2, 3], x: x, [2, 3], y: y, [2, 3]).0 == [1, -2, 3, -4, -5, 6])
        #expect(try run(.select, cond: [0, 1], [2], x: x, [2, 3], y: y, [2, 3]).0 == [-1, -2, -3, 4, 5, 6])
        #expect(try run(.select, cond: [1], [], x: x, [2, 3], y: y, [2, 3]).0 == x)
        let (v2, shape) = try run(.selectV2, cond: [1, 0, 1], [3], x: [10, 20], [2, 1], y: [7], [])
        #expect(shape == [2, 3])
        #expect(v2 == [10, 7, 10, 20, 7, 20])
    }

    @Test func selectRefusesMismatchedShapes() {
        var g = GraphBuilder()
        let c = g.input([3], .bool)
        let a = g.input([2, 3], .float32)
        let b = g.input([2, 3], .float32)
        let z = g.tensor([], .float32)
        g.op(.select, inputs: [c, a, b], outputs: [z])
        g.output(z)
        expectInvalid(g, "condition")
    }
}
