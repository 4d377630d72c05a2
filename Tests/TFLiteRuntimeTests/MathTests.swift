import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// The elementwise math kernels' edge cases, against values worked out by hand from
/// TFLite's rules (spec/ops-math.md). The bulk of the checking against LiteRT is the
/// conformance corpus.
@Suite struct MathTests {
    @Test func roundGoesToEvenOnHalves() throws {
        let x: [Float] = [-3.5, -2.5, -1.5, -0.5, -0.4, 0.5, 1.5, 2.5, 3.5, 2.4, 2.6, 8_388_609]
        let y = try runOneToOne(.round, x, .float32, to: .float32, as: Float.self)
        #expect(y == [-4, -2, -2, 0, 0, 0, 2, 2, 4, 2, 3, 8_388_609])
        #expect(y[4].sign == .plus, "a negative input rounding up to zero gives +0, as TFLite's floor-based rule does")
    }

    @Test func signAndSimpleUnaries() throws {
        let x: [Float] = [-2, -0.0, 0, 3, .nan]
        #expect(try runOneToOne(.sign, x, .float32, to: .float32, as: Float.self).prefix(4) == [-1, 0, 0, 1])
        #expect(try runOneToOne(.sign, x, .float32, to: .float32, as: Float.self)[4] == 0)
        #expect(try runOneToOne(.floor, [-1.5, 1.5] as [Float], .float32, to: .float32, as: Float.self) == [-2, 1])
        #expect(try runOneToOne(.ceil, [-1.5, 1.5] as [Float], .float32, to: .float32, as: Float.self) == [-1, 2])
        #expect(try runOneToOne(.square, [-3, 0.5] as [Float], .float32, to: .float32, as: Float.self) == [9, 0.25])
        #expect(try runOneToOne(.abs, [Int32.min, -7, 7], .int32, to: .int32, as: Int32.self) == [Int32.min, 7, 7])
        #expect(try runOneToOne(.neg, [Int64.min, -7, 7], .int64, to: .int64, as: Int64.self) == [Int64.min, 7, -7])
        // int8 and int16 NEG negate the stored value (quantized or not, as TFLite does).
        #expect(try runOneToOne(.neg, [-128, -7, 127] as [Int8], .int8, to: .int8, as: Int8.self) == [-128, 7, -127])
        #expect(
            try runOneToOne(.neg, [Int16.min, 300] as [Int16], .int16, to: .int16, as: Int16.self) == [Int16.min, -300])
        #expect(try runOneToOne(.sign, [Int32.min, 0, 9], .int32, to: .int32, as: Int32.self) == [-1, 0, 1])
        #expect(
            try runOneToOne(.logicalNot, [0, 1, 2, 255] as [UInt8], .bool, to: .bool, as: UInt8.self) == [1, 0, 0, 0])
    }

    @Test func eluAndGelu() throws {
        let x: [Float] = [-3, -0.5, 0, 0.5, 3]
        expectClose(
            try runOneToOne(.elu, x, .float32, to: .float32, as: Float.self), x.map { $0 < 0 ? expm1f($0) : $0 })
        let exact = x.map { 0.5 * $0 * (1 + erff($0 / Float(2).squareRoot())) }
        expectClose(try runOneToOne(.gelu, x, .float32, to: .float32, as: Float.self), exact)
        var g = GraphBuilder()
        let input = g.input([5], .float32)
        let out = g.tensor([5], .float32)
        g.op(.gelu, inputs: [input], outputs: [out], options: .gelu(approximate: true))
        g.output(out)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.invoke()
        let c = Float((2 / Double.pi).squareRoot())
        let approximate: [Float] = x.map { v in
            let inner: Float = c * (v + 0.044715 * v * v * v)
            return 0.5 * v * (1 + tanhf(inner))
        }
        expectClose(try engine.output(0, as: Float.self), approximate)
    }

    /// Runs a binary op on two 1-D operands of one type.
    func binary<T>(_ op: BuiltinOperator, _ a: [T], _ b: [T], _ type: ElementType) throws -> [T] {
        try runBinary(op, a, [a.count], b, [b.count], type, output: type, as: T.self).values
    }

    @Test func floorDivisionAndModulusFollowTheDivisorsSign() throws {
        let a: [Int32] = [7, -7, 7, -7, 6, Int32.min]
        let b: [Int32] = [2, 2, -2, -2, -3, -1]
        #expect(try binary(.floorDiv, a, b, .int32) == [3, -4, -4, 3, -2, Int32.min])
        #expect(try binary(.floorMod, a, b, .int32) == [1, 1, -1, -1, 0, 0])
        #expect(try binary(.floorMod, [7, -7] as [Int64], [-3, 3], .int64) == [-2, 2])
        // int8 and int16 divide the stored values; T.min // −1 wraps to T.min.
        #expect(try binary(.floorDiv, [7, -7, -128, 127] as [Int8], [-2, 2, -1, -128], .int8) == [-4, -4, -128, -1])
        #expect(try binary(.floorMod, [7, -7, -128, 127] as [Int8], [-2, 2, -1, -128], .int8) == [-1, 1, 0, -1])
        #expect(try binary(.floorDiv, [-32768, 1000] as [Int16], [-1, -7], .int16) == [-32768, -143])
        #expect(try binary(.floorMod, [-32768, 1000] as [Int16], [-1, -7], .int16) == [0, -1])
        let fa: [Float] = [7, -7, 7, -7, 5.5]
        let fb: [Float] = [2, 2, -2, -2, 2]
        #expect(try binary(.floorDiv, fa, fb, .float32) == [3, -4, -4, 3, 2])
        #expect(try binary(.floorMod, fa, fb, .float32) == [1, 1, -1, -1, 1.5])
    }

    @Test func integerZeroDivisorAndNegativeExponentFailAtInvoke() throws {
        for op in [BuiltinOperator.floorDiv, .floorMod] {
            #expect(throws: RuntimeError.self) { _ = try binary(op, [1, 2] as [Int32], [1, 0], .int32) }
            #expect(throws: RuntimeError.self) { _ = try binary(op, [1, 2] as [Int8], [0, 1], .int8) }
            #expect(throws: RuntimeError.self) { _ = try binary(op, [1, 2] as [Int16], [3, 0], .int16) }
        }
        #expect(throws: RuntimeError.self) { _ = try binary(.pow, [2, 2] as [Int32], [3, -1], .int32) }
        #expect(try binary(.pow, [2, -3, 2] as [Int32], [10, 3, 40], .int32) == [1024, -27, Int32.min])
        #expect(try binary(.pow, [2, 4] as [Float], [0.5, -1], .float32) == [Float(2).squareRoot(), 0.25])
    }

    @Test func logicalOpsTreatNonzeroBytesAsTrue() throws {
        #expect(try binary(.logicalAnd, [0, 1, 2, 1] as [UInt8], [0, 0, 7, 1], .bool) == [0, 0, 1, 1])
        #expect(try binary(.logicalOr, [0, 1, 2, 0] as [UInt8], [0, 0, 7, 3], .bool) == [0, 1, 1, 1])
    }

    @Test func wrongTypesAreRefused() {
        var g = GraphBuilder()
        let x = g.input([2], .float32)
        let y = g.tensor([2], .float32)
        g.op(.logicalNot, inputs: [x], outputs: [y])
        g.output(y)
        expectUnsupportedTypes(g)
    }
}
