import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct CastTests {
    static func cast<S, D>(_ values: [S], _ from: ElementType, to: ElementType, as _: D.Type) throws -> [D] {
        try runOneToOne(.cast, values, from, to: to, as: D.self)
    }

    @Test func floatToIntTruncatesTowardZero() throws {
        let y = try Self.cast(
            [-1.7, -0.5, 0.5, 2.9, 3, -2_147_483_904, 3e9, .nan, .infinity] as [Float], .float32, to: .int32,
            as: Int32.self)
        #expect(y == [-1, 0, 0, 2, 3, Int32.min, Int32.max, 0, Int32.max])
    }

    @Test func floatToUInt8AndInt8Saturate() throws {
        #expect(
            try Self.cast([-3, -0.9, 254.99, 255.5, 1000] as [Float], .float32, to: .uint8, as: UInt8.self) == [
                0, 0, 254, 255, 255,
            ])
        #expect(
            try Self.cast([-128.9, -129, 127.9, 128] as [Float], .float32, to: .int8, as: Int8.self) == [
                -128, -128, 127, 127,
            ])
    }

    @Test func floatToInt64() throws {
        #expect(
            try Self.cast([-5.5, 0x1p40, -0x1p63, 0x1p63] as [Float], .float32, to: .int64, as: Int64.self) == [
                -5, 1 << 40, Int64.min, Int64.max,
            ])
    }

    @Test func integersWrapLikeStaticCast() throws {
        #expect(
            try Self.cast([300, -129, 127, -1] as [Int32], .int32, to: .int8, as: Int8.self) == [44, 127, 127, -1])
        #expect(try Self.cast([300, -1] as [Int32], .int32, to: .uint8, as: UInt8.self) == [44, 255])
        #expect(try Self.cast([0x1_0000_0005, -2] as [Int64], .int64, to: .int32, as: Int32.self) == [5, -2])
        #expect(try Self.cast([200, 255] as [UInt8], .uint8, to: .int16, as: Int16.self) == [200, 255])
        #expect(try Self.cast([-7, 70000] as [Int32], .int32, to: .int64, as: Int64.self) == [-7, 70000])
    }

    @Test func integersToFloatRoundToNearest() throws {
        // 2^24 + 1 is not a Float: rounds to even (2^24); 2^53 + 1 likewise.
        #expect(try Self.cast([16_777_217, -3] as [Int32], .int32, to: .float32, as: Float.self) == [16_777_216, -3])
        #expect(try Self.cast([(1 << 53) + 1] as [Int64], .int64, to: .float32, as: Float.self) == [0x1p53])
    }

    @Test func bool() throws {
        #expect(try Self.cast([0, -0.0, 0.1, .nan] as [Float], .float32, to: .bool, as: UInt8.self) == [0, 0, 1, 1])
        #expect(try Self.cast([0, 1, 2] as [UInt8], .bool, to: .float32, as: Float.self) == [0, 1, 1])
        #expect(try Self.cast([0, 1, 1] as [UInt8], .bool, to: .int32, as: Int32.self) == [0, 1, 1])
        #expect(try Self.cast([0, -5, 256] as [Int32], .int32, to: .bool, as: UInt8.self) == [0, 1, 1])
    }

    @Test func float16() throws {
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: to even (1). 65520 overflows to infinity.
        let bits = try Self.cast(
            [1 + 0x1p-11, 1 + 0x1.8p-11, 65519, 65520, -2.5] as [Float], .float32, to: .float16, as: UInt16.self)
        #expect(bits == [0x3C00, 0x3C01, 0x7BFF, 0x7C00, 0xC100])
        #expect(
            try Self.cast([0x3C00, 0xC100, 0x7C00] as [UInt16], .float16, to: .float32, as: Float.self) == [
                1, -2.5, .infinity,
            ])
        #expect(try Self.cast([0xC100, 0x4940] as [UInt16], .float16, to: .int32, as: Int32.self) == [-2, 10])
        #expect(try Self.cast([3, -65536] as [Int32], .int32, to: .float16, as: UInt16.self) == [0x4200, 0xFC00])
    }

    @Test func unsupportedTypesAreNamed() throws {
        var g = GraphBuilder()
        let x = g.input([1], .float64)
        let y = g.tensor([1], .float32)
        g.op(.cast, inputs: [x], outputs: [y])
        g.output(y)
        #expect(
            throws: RuntimeError.unsupportedTypes(index: 0, op: "CAST", types: "inputs (FLOAT64) -> outputs (FLOAT32)")
        ) { try g.engine() }
    }
}
