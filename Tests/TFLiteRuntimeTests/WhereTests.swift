import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Row-major coordinates of the elements `isTrue` accepts, as WHERE returns them.
func referenceCoordinates<T>(_ values: [T], shape: [Int], _ isTrue: (T) -> Bool) -> (shape: [Int], rows: [Int64]) {
    var rows: [Int64] = []
    var n = 0
    for (i, v) in values.enumerated() where isTrue(v) {
        rows += unflatten(i, shape).map { Int64($0) }
        n += 1
    }
    return ([n, shape.count], rows)
}

@Suite struct WhereTests {
    /// Runs WHERE on a run-time input of `type` holding `values`.
    func run<T>(_ values: [T], shape: [Int], _ type: ElementType) throws -> (shape: [Int], rows: [Int64]) {
        var g = GraphBuilder()
        let x = g.input(shape, type)
        let y = g.tensor([1, shape.count], .int64)
        g.op(.where, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, values)
        try engine.invoke()
        return (engine.outputShape(0), try engine.output(0, as: Int64.self))
    }

    @Test func coordinatesOfTrueElementsAtEveryRank() throws {
        var random = TestRandom(seed: 18)
        for shape in [[7], [3, 4], [2, 3, 4], [2, 1, 3, 2], [1, 2, 2, 1, 3], [2, 1, 1, 2, 1, 2]] {
            let count = shape.reduce(1, *)
            let values = (0 ..< count).map { _ in random.next() % 3 == 0 }
            let got = try run(values, shape: shape, .bool)
            let want = referenceCoordinates(values, shape: shape) { $0 }
            #expect(got.shape == want.shape, "shape \(shape)")
            #expect(got.rows == want.rows, "shape \(shape)")
        }
    }

    @Test func numericConditionsAreTrueWhenNonzero() throws {
        let ints: [Int32] = [0, -1, 0, 7, Int32.min, 0]
        #expect(try run(ints, shape: [2, 3], .int32).rows == [0, 1, 1, 0, 1, 1])
        let unsigned: [UInt32] = [0, UInt32.max, 0, 1]
        #expect(try run(unsigned, shape: [4], .uint32).rows == [1, 3])
        let wide: [Int64] = [0, 0, Int64.min, 1 << 40]
        #expect(try run(wide, shape: [2, 2], .int64).rows == [1, 0, 1, 1])
        let signed: [Int8] = [0, -128, 0, 1]
        #expect(try run(signed, shape: [4], .int8).rows == [1, 3])
        let bytes: [UInt8] = [0, 0, 255, 2]
        #expect(try run(bytes, shape: [4], .uint8).rows == [2, 3])
        // Any nonzero byte of a bool is true.
        let bools: [UInt8] = [0, 2, 0, 1]
        #expect(try run(bools, shape: [2, 2], .bool).rows == [0, 1, 1, 1])
    }

    @Test func floatZerosAreFalseAndNaNIsTrue() throws {
        let values: [Float] = [0, -0.0, .nan, .leastNonzeroMagnitude, -.infinity, 0]
        let got = try run(values, shape: [3, 2], .float32)
        #expect(got.shape == [3, 2])
        #expect(got.rows == [1, 0, 1, 1, 2, 0])
    }

    @Test func allFalseGivesNoRows() throws {
        let got = try run([Bool](repeating: false, count: 12), shape: [3, 4], .bool)
        #expect(got.shape == [0, 2])
        #expect(got.rows.isEmpty)
    }

    @Test func emptyInputHasAStaticShape() throws {
        var g = GraphBuilder()
        let x = g.input([3, 0, 2], .bool)
        let y = g.tensor([1, 3], .int64)
        g.op(.where, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.outputShape(0) == [0, 3])
        try engine.invoke()
        #expect(engine.tailPreparations == 0)
    }

    @Test func constantConditionIsFoldedAtPrepare() throws {
        var g = GraphBuilder()
        let c = g.constant([true, false, false, true, true, false], shape: [2, 3], .bool)
        let y = g.tensor([1, 2], .int64)
        g.op(.where, inputs: [c], outputs: [y])
        let x = g.input([1, 2], .int64)
        let z = g.tensor([3, 2], .int32)
        let yi = g.tensor([3, 2], .int32)
        let xi = g.tensor([1, 2], .int32)
        g.op(.cast, inputs: [y], outputs: [yi], options: .cast(inType: .int64, outType: .int32))
        g.op(.cast, inputs: [x], outputs: [xi], options: .cast(inType: .int64, outType: .int32))
        g.op(.add, inputs: [yi, xi], outputs: [z], options: .add(activation: .none, potScaleInt16: true))
        g.output(z)
        let engine = try g.engine()
        try engine.allocate()
        // Shape known before any invoke, and WHERE is not among the operators invoke runs.
        #expect(engine.outputShape(0) == [3, 2])
        #expect(engine.tensors[y].isConstant)
        #expect(!engine.preparedKernels.contains { $0 is WhereCoordinates || $0 is WhereDynamic })
        try engine.setInput(0, [10, 20] as [Int64])
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [10, 20, 11, 20, 11, 21])
    }

    @Test func prepareErrors() {
        var scalar = GraphBuilder()
        let s = scalar.input([], .bool)
        scalar.op(.where, inputs: [s], outputs: [scalar.tensor([1, 0], .int64)])
        expectInvalid(scalar, "scalar")

        var float16 = GraphBuilder()
        let h = float16.input([4], .float16)
        float16.op(.where, inputs: [h], outputs: [float16.tensor([1, 1], .int64)])
        expectUnsupportedTypes(float16)

        var twoInputs = GraphBuilder()
        let a = twoInputs.input([4], .bool)
        twoInputs.op(.where, inputs: [a, a], outputs: [twoInputs.tensor([1, 1], .int64)])
        expectInvalid(twoInputs, "inputs")
    }

    @Test func outputTypeIsSetToInt64() throws {
        // A file that leaves the output's type unset (FLOAT32) still gets int64 coordinates.
        var g = GraphBuilder()
        let x = g.input([4], .bool)
        let y = g.tensor([1, 1], .float32)
        g.op(.where, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [false, true, true, false])
        try engine.invoke()
        #expect(engine.tensors[y].type == .int64)
        #expect(try engine.output(0, as: Int64.self) == [1, 2])
    }
}
