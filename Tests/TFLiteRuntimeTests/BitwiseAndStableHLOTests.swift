import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// BITWISE_XOR, RIGHT_SHIFT, BITCAST, ATAN2, REAL/IMAG and the StableHLO elementwise,
/// gather and shift operators on hand-worked values (spec/stablehlo.md), for the types the
/// conformance corpus cannot feed through the public API, and their typed errors.
@Suite struct BitwiseAndStableHLOTests {
    func binary<T>(_ op: BuiltinOperator, _ a: [T], _ b: [T], _ type: ElementType) throws -> [T] {
        try runBinary(op, a, [a.count], b, [b.count], type, output: type, as: T.self).values
    }

    @Test func xorAndRightShift() throws {
        #expect(try binary(.bitwiseXor, [0xF0, 0x0F] as [UInt16], [0xFF, 0xFF], .uint16) == [0x0F, 0xF0])
        #expect(try binary(.bitwiseXor, [-1, 5] as [Int8], [1, 3], .int8) == [-2, 6])
        // Shift amounts clamp to [0, bits - 1]; signed values shift in their sign.
        #expect(try binary(.rightShift, [-128, -128, 64, 64] as [Int8], [9, -3, 1, 7], .int8) == [-1, -128, 32, 0])
        #expect(try binary(.rightShift, [0x8000_0000, 8] as [UInt32], [40, 2], .uint32) == [1, 2])
        let broadcast = try runBinary(
            .bitwiseXor, [1, 2, 3, 4] as [Int32], [2, 2], [1, 0] as [Int32], [2], .int32, output: .int32,
            as: Int32.self)
        #expect(broadcast.values == [0, 2, 2, 4])
    }

    @Test func bitcastReshapesBySize() throws {
        var g = GraphBuilder()
        let x = g.input([2, 4], .int8)
        let y = g.tensor([2], .int32)
        g.op(.bitcast, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 0, 0, 0, -1, -1, -1, -1] as [Int8])
        try engine.invoke()
        #expect(engine.outputShape(0) == [2])
        #expect(try engine.output(0, as: Int32.self) == [1, -1])

        var wide = GraphBuilder()
        let a = wide.input([3], .uint64)
        let b = wide.tensor([3], .uint16)
        wide.op(.bitcast, inputs: [a], outputs: [b])
        wide.output(b)
        let e2 = try wide.engine()
        try e2.allocate()
        #expect(e2.outputShape(0) == [3, 4])

        var bad = GraphBuilder()
        let c = bad.input([2, 3], .int8)
        let d = bad.tensor([2], .int32)
        bad.op(.bitcast, inputs: [c], outputs: [d])
        bad.output(d)
        expectInvalid(bad, "last dimension of 4")

        var scalar = GraphBuilder()
        let s = scalar.input([], .int16)
        let t = scalar.tensor([], .int64)
        scalar.op(.bitcast, inputs: [s], outputs: [t])
        scalar.output(t)
        expectInvalid(scalar, "needs a last dimension")
    }

    @Test func atan2HalfTypesRoundTheFloatResult() throws {
        let y: [Float] = [1, -1, 0, 2.5]
        let x: [Float] = [1, 0, -1, -0.5]
        let want = zip(y, x).map { atan2f($0, $1) }
        let half = try binary(.atan2, y.map(HalfPrecision.bits(from:)), x.map(HalfPrecision.bits(from:)), .float16)
        #expect(half == want.map(HalfPrecision.bits(from:)))
        let brain = try binary(.atan2, y.map(BrainFloat.bits(from:)), x.map(BrainFloat.bits(from:)), .bfloat16)
        #expect(brain == want.map(BrainFloat.bits(from:)))
        #expect(BrainFloat.bits(from: 1.00390625) == 0x3F80, "ties go to even")
        #expect(BrainFloat.bits(from: 1.01171875) == 0x3F82)
        #expect(
            try binary(.atan2, [1.0, -2.0] as [Double], [0.5, -4.0], .float64) == [atan2(1.0, 0.5), atan2(-2.0, -4.0)])

        var g = GraphBuilder()
        let a = g.input([2, 3], .float32)
        let b = g.input([3, 3], .float32)
        let c = g.tensor([2, 3], .float32)
        g.op(.atan2, inputs: [a, b], outputs: [c])
        g.output(c)
        expectInvalid(g, "same rank and element count")
    }

    @Test func realAndImagOfComplex128() throws {
        for (op, want) in [(BuiltinOperator.real, [1.5, -3.0]), (.imag, [2.25, 4.0])] {
            var g = GraphBuilder()
            let x = g.input([2], .complex128)
            let y = g.tensor([2], .float64)
            g.op(op, inputs: [x], outputs: [y])
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            try engine.setInput(0, [1.5, 2.25, -3.0, 4.0] as [Double])
            try engine.invoke()
            #expect(try engine.output(0, as: Double.self) == want)
        }
        var g = GraphBuilder()
        let x = g.input([2], .complex64)
        let y = g.tensor([2], .float64)
        g.op(.real, inputs: [x], outputs: [y])
        g.output(y)
        expectUnsupportedTypes(g)
    }

    @Test func stablehloElementwiseFollowsTheCppRules() throws {
        #expect(try binary(.stablehloMaximum, [UInt64.max, 3], [1, 4], .uint64) == [UInt64.max, 4])
        #expect(try binary(.stablehloMinimum, [UInt32.max, 3], [1, 4], .uint32) == [1, 3])
        #expect(try binary(.stablehloAdd, [0xFFFF, 2] as [UInt16], [1, 3], .uint16) == [0, 5])
        #expect(try binary(.stablehloMultiply, [Int64.max, -3], [2, 5], .int64) == [-2, -15])
        // bool: ADD and MAXIMUM are or, MULTIPLY, MINIMUM and AND are and.
        let p: [UInt8] = [0, 0, 1, 1], q: [UInt8] = [0, 1, 0, 1]
        #expect(try binary(.stablehloAdd, p, q, .bool) == [0, 1, 1, 1])
        #expect(try binary(.stablehloMaximum, p, q, .bool) == [0, 1, 1, 1])
        #expect(try binary(.stablehloMultiply, p, q, .bool) == [0, 0, 0, 1])
        #expect(try binary(.stablehloAnd, p, q, .bool) == [0, 0, 0, 1])
        #expect(try binary(.stablehloAnd, [0b1100, -1] as [Int8], [0b1010, 7], .int8) == [0b1000, 7])
        // A NaN first operand is kept, a NaN second one is not.
        let m = try binary(.stablehloMaximum, [Float.nan, 1], [1, .nan], .float32)
        #expect(m[0].isNaN && m[1] == 1)
        let h = try binary(.stablehloAdd, [HalfPrecision.bits(from: 1)], [HalfPrecision.bits(from: 0.0004)], .float16)
        #expect(h == [HalfPrecision.bits(from: 1)], "the float sum rounds back to 1 in half precision")
        // Shifts by the width or more, or by a negative amount, give 0.
        #expect(try binary(.stablehloShiftLeft, [1, 1, 1, -1] as [Int8], [7, 8, -1, 1], .int8) == [-128, 0, 0, -2])
        #expect(try binary(.stablehloShiftLeft, [3, 3] as [Int32], [31, 32], .int32) == [Int32.min, 0])

        var g = GraphBuilder()
        let a = g.input([2, 3], .float32)
        let b = g.input([3], .float32)
        let c = g.tensor([2, 3], .float32)
        g.op(.stablehloAdd, inputs: [a, b], outputs: [c])
        g.output(c)
        expectInvalid(g, "same shape")
        var f = GraphBuilder()
        let fa = f.input([2], .float32)
        let fb = f.input([2], .float32)
        let fc = f.tensor([2], .float32)
        f.op(.stablehloAnd, inputs: [fa, fb], outputs: [fc])
        f.output(fc)
        expectUnsupportedTypes(f)
    }

    func gather(
        operand: [Int], indices: [Int32], indexShape: [Int], options: StablehloGatherOptions
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(operand, .float32)
        let i = g.constant(indices, shape: indexShape)
        let y = g.tensor([1], .float32)
        g.op(.stablehloGather, inputs: [x, i], outputs: [y], options2: .stablehloGather(options))
        g.output(y)
        return g
    }

    @Test func stablehloGatherClampsStarts() throws {
        let options = StablehloGatherOptions(
            offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1, 3])
        let g = gather(operand: [3, 3], indices: [2, 7, -4], indexShape: [3, 1], options: options)
        // The output tensor's rank must be the result's: 2.
        var fixed = GraphBuilder()
        let x = fixed.input([3, 3], .float32)
        let i = fixed.constant([Int32(2), 7, -4], shape: [3, 1])
        let y = fixed.tensor([3, 3], .float32)
        fixed.op(.stablehloGather, inputs: [x, i], outputs: [y], options2: .stablehloGather(options))
        fixed.output(y)
        let engine = try fixed.engine()
        try engine.allocate()
        try engine.setInput(0, (0 ..< 9).map(Float.init))
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [6, 7, 8, 6, 7, 8, 0, 1, 2])
        expectInvalid(g, "rank 2 but the output tensor has rank 1")
    }

    @Test func badGatherOptionsAreTypedErrors() {
        func options(
            offset: [Int64] = [1], collapsed: [Int64] = [0], map: [Int64] = [0], vector: Int64 = 1,
            sizes: [Int64] = [1, 3]
        ) -> StablehloGatherOptions {
            StablehloGatherOptions(
                offsetDims: offset, collapsedSliceDims: collapsed, startIndexMap: map, indexVectorDim: vector,
                sliceSizes: sizes)
        }
        expectInvalid(
            gather(operand: [3, 3], indices: [0], indexShape: [1, 1], options: options(sizes: [1])), "slice_sizes")
        expectInvalid(
            gather(operand: [3, 3], indices: [0], indexShape: [1, 1], options: options(sizes: [1, 4])), "does not fit")
        expectInvalid(
            gather(operand: [3, 3], indices: [0], indexShape: [1, 1], options: options(collapsed: [5])), "out of range")
        expectInvalid(
            gather(operand: [3, 3], indices: [0], indexShape: [1, 1], options: options(map: [0, 1])), "start_index_map")
        expectInvalid(
            gather(operand: [3, 3], indices: [0], indexShape: [1, 1], options: options(vector: 3)), "index_vector_dim")
        expectInvalid(
            gather(
                operand: [3, 3], indices: [0], indexShape: [1, 1], options: options(collapsed: [1], sizes: [1, 3])),
            "slice size 3")
    }
}
