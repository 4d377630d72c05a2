import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// ADD_N, RANK, REVERSE_SEQUENCE, MATRIX_DIAG, MATRIX_SET_DIAG, BUCKETIZE,
/// SPARSE_TO_DENSE, FAKE_QUANT, REDUCE_ALL and RELU_0_TO_1 against plain loops.
@Suite struct DataOpTests {
    @Test func addNSumsInputsInOrder() throws {
        var g = GraphBuilder()
        let xs = (0 ..< 3).map { _ in g.input([4], .int32) }
        let y = g.tensor([4], .int32)
        g.op(.addN, inputs: xs, outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, Int32.max, 4] as [Int32])
        try engine.setInput(1, [10, 20, 1, 40] as [Int32])
        try engine.setInput(2, [100, 200, 0, -44] as [Int32])
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [111, 222, Int32.min, 0])

        var mismatched = GraphBuilder()
        let a = mismatched.input([4], .float32), b = mismatched.input([2, 2], .float32)
        mismatched.op(.addN, inputs: [a, b], outputs: [mismatched.tensor([4], .float32)])
        expectInvalid(mismatched, op: "ADD_N", "shape")
        var one = GraphBuilder()
        let c = one.input([4], .float32)
        one.op(.addN, inputs: [c], outputs: [one.tensor([4], .float32)])
        expectInvalid(one, op: "ADD_N", "at least 2 inputs")
    }

    @Test func rankIsAConstant() throws {
        var g = GraphBuilder()
        let x = g.input([2, 1, 3], .int8)
        let y = g.tensor([], .float32)
        g.op(.rank, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.tensors[y].isConstant && engine.tensors[y].type == .int32)
        #expect(try engine.output(0, as: Int32.self) == [3])
    }

    @Test func reverseSequenceReversesEachBatchPrefix() throws {
        for (seqAxis, batchAxis) in [(1, 0), (0, 1)] {
            var g = GraphBuilder()
            let shape = seqAxis == 1 ? [2, 4] : [4, 2]
            let x = g.input(shape, .int32)
            let lengths = g.constant([3, 0] as [Int32], shape: [2])
            let y = g.tensor(shape, .int32)
            g.op(
                .reverseSequence, inputs: [x, lengths], outputs: [y],
                options: .reverseSequence(sequenceAxis: seqAxis, batchAxis: batchAxis))
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            try engine.setInput(0, (0 ..< 8).map { Int32($0) })
            try engine.invoke()
            // Batch 0 reverses its first 3 elements, batch 1 none.
            let want: [Int32] = seqAxis == 1 ? [2, 1, 0, 3, 4, 5, 6, 7] : [4, 1, 2, 3, 0, 5, 6, 7]
            #expect(try engine.output(0, as: Int32.self) == want)
        }
        var g = GraphBuilder()
        let x = g.input([2, 3], .float32)
        let lengths = g.input([2], .int64)
        let y = g.tensor([2, 3], .float32)
        g.op(
            .reverseSequence, inputs: [x, lengths], outputs: [y],
            options: .reverseSequence(sequenceAxis: 1, batchAxis: 0))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(1, [1, 4] as [Int64])
        expectInvokeFailure(engine, op: "REVERSE_SEQUENCE", "seq_lengths[1] is 4")

        var same = GraphBuilder()
        let z = same.input([2, 3], .float32)
        let l = same.constant([1, 1] as [Int32], shape: [2])
        same.op(
            .reverseSequence, inputs: [z, l], outputs: [same.tensor([2, 3], .float32)],
            options: .reverseSequence(sequenceAxis: 0, batchAxis: 0))
        expectInvalid(same, op: "REVERSE_SEQUENCE", "different axes")
    }

    @Test func matrixDiagonals() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .int16)
        let y = g.tensor([2, 3, 3], .int16)
        g.op(.matrixDiag, inputs: [x], outputs: [y])
        let m = g.input([2, 3], .int16)
        let d = g.input([2], .int16)
        let z = g.tensor([2, 3], .int16)
        g.op(.matrixSetDiag, inputs: [m, d], outputs: [z])
        g.output(y)
        g.output(z)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Int16])
        try engine.setInput(1, [1, 2, 3, 4, 5, 6] as [Int16])
        try engine.setInput(2, [-1, -2] as [Int16])
        try engine.invoke()
        #expect(try engine.output(0, as: Int16.self) == [1, 0, 0, 0, 2, 0, 0, 0, 3, 4, 0, 0, 0, 5, 0, 0, 0, 6])
        #expect(try engine.output(1, as: Int16.self) == [-1, 2, 3, 4, -2, 6])

        var scalar = GraphBuilder()
        let s = scalar.input([], .float32)
        scalar.op(.matrixDiag, inputs: [s], outputs: [scalar.tensor([1, 1], .float32)])
        expectInvalid(scalar, op: "MATRIX_DIAG", "scalar")
        var diagonal = GraphBuilder()
        let a = diagonal.input([2, 3, 3], .float32), b = diagonal.input([2, 2], .float32)
        diagonal.op(.matrixSetDiag, inputs: [a, b], outputs: [diagonal.tensor([2, 3, 3], .float32)])
        expectInvalid(diagonal, op: "MATRIX_SET_DIAG", "must hold 6 elements")
    }

    @Test func bucketizeCountsBoundariesNotAbove() throws {
        let boundaries: [Float] = [0, 10, 10, 100]
        var g = GraphBuilder()
        let x = g.input([7], .float32)
        let y = g.tensor([7], .float32)
        g.op(.bucketize, inputs: [x], outputs: [y], options: .bucketize(boundaries: boundaries))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [-1, 0, 5, 10, 99, 100, .nan] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [0, 1, 1, 3, 3, 4, 4])

        var unsorted = GraphBuilder()
        let z = unsorted.input([2], .int32)
        unsorted.op(
            .bucketize, inputs: [z], outputs: [unsorted.tensor([2], .int32)], options: .bucketize(boundaries: [1, 0]))
        expectInvalid(unsorted, op: "BUCKETIZE", "sorted")
    }

    @Test func sparseToDenseWritesValuesOverTheDefault() throws {
        var g = GraphBuilder()
        let indices = g.input([3, 2], .int64)
        let shape = g.constant([2, 3] as [Int32], shape: [2])
        let values = g.constant([5, 6, 7] as [Int32], shape: [3])
        let fallback = g.constant([-1] as [Int32], shape: [])
        let y = g.tensor([2, 3], .int32)
        g.op(.sparseToDense, inputs: [indices, shape, values, fallback], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [0, 2, 1, 0, 0, 2] as [Int64])
        try engine.invoke()
        // The repeated index keeps its last value.
        #expect(try engine.output(0, as: Int32.self) == [-1, -1, 7, 6, -1, -1])
        try engine.setInput(0, [0, 2, 2, 0, 0, 0] as [Int64])
        expectInvokeFailure(engine, op: "SPARSE_TO_DENSE", "coordinate 2 on axis 0")

        var count = GraphBuilder()
        let i = count.input([3], .int32)
        let s = count.constant([4] as [Int32], shape: [1])
        let v = count.constant([1, 2] as [Float], shape: [2])
        let d = count.constant([0] as [Float], shape: [])
        count.op(.sparseToDense, inputs: [i, s, v, d], outputs: [count.tensor([4], .float32)])
        expectInvalid(count, op: "SPARSE_TO_DENSE", "3 indices but 2 values")
    }

    @Test func fakeQuantRoundsToTheNudgedGrid() throws {
        var g = GraphBuilder()
        let x = g.input([6], .float32)
        let y = g.tensor([6], .float32)
        // [-1, 2] at 2 bits: scale 1, zero point 1, grid {-1, 0, 1, 2}.
        g.op(
            .fakeQuant, inputs: [x], outputs: [y], options: .fakeQuant(min: -1, max: 2, numBits: 2, narrowRange: false))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [-3, -0.5, 0.4, 1.5, 7, .nan] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [-1, 0, 0, 2, 2, -1])

        var narrow = GraphBuilder()
        let z = narrow.input([2], .float32)
        narrow.op(
            .fakeQuant, inputs: [z], outputs: [narrow.tensor([2], .float32)],
            options: .fakeQuant(min: -1, max: 1, numBits: 8, narrowRange: true))
        expectInvalid(narrow, op: "FAKE_QUANT", "narrow_range")
    }

    @Test func reduceAllAndRelu0To1() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .bool)
        let axes = g.constant([1] as [Int32], shape: [1])
        let y = g.tensor([2], .bool)
        g.op(.reduceAll, inputs: [x, axes], outputs: [y], options: .reducer(keepDims: false))
        let f = g.input([4], .float32)
        let r = g.tensor([4], .float32)
        g.op(.relu0To1, inputs: [f], outputs: [r])
        g.output(y)
        g.output(r)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 1, 1, 0, 1] as [UInt8])
        try engine.setInput(1, [-0.5, 0.25, 1, 3] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: UInt8.self) == [1, 0])
        #expect(try engine.output(1, as: Float.self) == [0, 0.25, 1, 1])
    }
}
