import Foundation
import Testing
@testable import NumPy

@Suite struct NPYReadTests {
    func load(_ sample: String) throws -> NPYArray {
        try NPYArray(bytes: NumPySamples.bytes(sample))
    }

    @Test func float32Matrix() throws {
        let a = try load(NumPySamples.float32_2x3)
        #expect(a.dtype == .float32)
        #expect(a.shape == [2, 3])
        #expect(try a.values(as: Float.self) == [0.5, -1.25, 3.0e-8, 1e30, -0.0, 7.0])
        #expect(try a.values(as: Float.self)[4].sign == .minus)
    }

    @Test func float64Scalar() throws {
        let a = try load(NumPySamples.float64_scalar)
        #expect(a.shape == [])
        #expect(a.elementCount == 1)
        #expect(try a.values(as: Double.self) == [3.141592653589793])
    }

    @Test func float16WidensExactly() throws {
        let a = try load(NumPySamples.float16_4)
        #expect(a.dtype == .float16)
        // 6.1e-5 is stored as the largest subnormal half, 0x03FF = 1023 × 2^-24.
        #expect(a.floatValues() == [1.0, -2.5, 65504.0, 0x1.ff8p-15])
    }

    @Test func halfConversionEdgeCases() {
        #expect(floatFromHalfBits(0x0001) == 0x1p-24)
        #expect(floatFromHalfBits(0x8001) == -0x1p-24)
        #expect(floatFromHalfBits(0x8000).sign == .minus)
        #expect(floatFromHalfBits(0x7C00) == .infinity)
        #expect(floatFromHalfBits(0xFC00) == -.infinity)
        #expect(floatFromHalfBits(0x7E00).isNaN)
        #expect(floatFromHalfBits(0x3555) == 0.333251953125)
        #expect(floatFromHalfBits(0x0400) == 0x1p-14) // smallest normal
    }

    @Test func emptyArray() throws {
        let a = try load(NumPySamples.uint8_0x3)
        #expect(a.shape == [0, 3])
        #expect(a.data.isEmpty)
        #expect(try a.values(as: UInt8.self) == [])
    }

    @Test func integerTypes() throws {
        #expect(try load(NumPySamples.uint8_2x2x2).values(as: UInt8.self) == [0, 31, 62, 93, 124, 155, 186, 217])
        #expect(try load(NumPySamples.uint8_2x2x2).shape == [2, 2, 2])
        #expect(try load(NumPySamples.int8_5).values(as: Int8.self) == [-128, -1, 0, 1, 127])
        #expect(try load(NumPySamples.int16_3_v2).values(as: Int16.self) == [-32768, 12345, 32767])
        #expect(try load(NumPySamples.uint16_3_v3).values(as: UInt16.self) == [0, 1, 65535])
        #expect(try load(NumPySamples.int32_2).values(as: Int32.self) == [.min, .max])
        #expect(try load(NumPySamples.uint32_2).values(as: UInt32.self) == [0, .max])
        #expect(try load(NumPySamples.int64_2).values(as: Int64.self) == [.min, .max])
        #expect(try load(NumPySamples.uint64_1).values(as: UInt64.self) == [.max])
        #expect(try load(NumPySamples.bool_3).values(as: Bool.self) == [true, false, true])
    }

    @Test func floatValuesConvertsEveryType() throws {
        #expect(try load(NumPySamples.int8_5).floatValues() == [-128, -1, 0, 1, 127])
        #expect(try load(NumPySamples.bool_3).floatValues() == [1, 0, 1])
        #expect(try load(NumPySamples.float64_scalar).floatValues() == [Float(3.141592653589793)])
    }

    @Test func typedAccessorChecksDType() throws {
        #expect(throws: NPYError.typeMismatch(expected: .float32, actual: .int8)) {
            try load(NumPySamples.int8_5).values(as: Float.self)
        }
    }

    @Test func rejectsUnsupportedLayouts() {
        #expect(throws: NPYError.bigEndian(">f4")) { try load(NumPySamples.bigendian_f4) }
        #expect(throws: NPYError.fortranOrder) { try load(NumPySamples.fortran_2x2) }
        #expect(throws: NPYError.unsupportedDType("structured dtype")) { try load(NumPySamples.structured) }
        let complex128 = npyFile(
            header: "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", data: [UInt8](repeating: 0, count: 16)
        )
        #expect(throws: NPYError.unsupportedDType("<c16")) { try NPYArray(bytes: complex128) }
    }

    /// complex64 (RFFT2D outputs) reads as 8-byte elements: real, then imaginary float32.
    @Test func readsComplex64() throws {
        let array = try load(NumPySamples.complex64)
        #expect(array.dtype == .complex64 && array.shape == [1] && array.data == [UInt8](repeating: 0, count: 8))
        let written = try NPYArray(dtype: .complex64, shape: [2], data: (0 ..< 16).map { UInt8($0) })
        let header = String(decoding: written.encoded().prefix(64), as: UTF8.self)
        #expect(header.contains("'descr': '<c8'"))
    }

    @Test func oneByteTypesAcceptEveryByteOrder() throws {
        for descr in ["|u1", "<u1", ">u1", "=u1"] {
            let file = npyFile(header: "{'descr': '\(descr)', 'fortran_order': False, 'shape': (2,), }", data: [7, 9])
            #expect(try NPYArray(bytes: file).values(as: UInt8.self) == [7, 9])
        }
        #expect(try NPYDType(descr: "=i1") == .int8)
        #expect(try NPYDType(descr: "=f4") == .float32) // native order on a little-endian host
        #expect(throws: NPYError.unsupportedDType("|f4")) { try NPYDType(descr: "|f4") }
        #expect(throws: NPYError.bigEndian(">i8")) { try NPYDType(descr: ">i8") }
    }

    @Test func handWrittenHeaderVariants() throws {
        // Python 2 era: long-integer suffixes, no trailing comma, double quotes, other key order.
        let py2 = npyFile(
            header: "{\"shape\": (2L, 1L), \"fortran_order\": False, \"descr\": \"<i2\"}", data: [1, 0, 2, 0])
        let a = try NPYArray(bytes: py2)
        #expect(a.shape == [2, 1])
        #expect(try a.values(as: Int16.self) == [1, 2])
        // A list for the shape, extra whitespace, format 2.0 length field.
        let v2 = npyFile(
            header: "  {'descr':'<f4' ,'fortran_order':False,'shape':[1]}   ", major: 2, data: [0, 0, 0x80, 0x3F])
        #expect(try NPYArray(bytes: v2).values(as: Float.self) == [1])
        // Format 3.0 allows UTF-8 in the header.
        let v3 = npyFile(header: "{'descr': '<u2', 'fortran_order': False, 'shape': (), }", major: 3, data: [1, 2])
        #expect(try NPYArray(bytes: v3).values(as: UInt16.self) == [0x0201])
    }

    @Test func malformedHeaders() {
        let cases: [(String, NPYError)] = [
            ("[1, 2]", .malformedHeader("header is not a dict")),
            ("{'descr': '<f4', 'fortran_order': False}", .malformedHeader("missing key 'shape'")),
            ("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", .malformedHeader("unexpected key 'x'")),
            (
                "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}",
                .malformedHeader("duplicate key 'descr'")
            ),
            ("{'descr': 4, 'fortran_order': False, 'shape': ()}", .malformedHeader("'descr' is not a string")),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': ()}",
                .malformedHeader("'fortran_order' is not True or False")
            ),
            ("{'descr': '<f4', 'fortran_order': False, 'shape': 3}", .malformedHeader("'shape' is not a tuple")),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': ('a',)}",
                .malformedHeader("'shape' holds a non-integer")
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2}",
                .malformedHeader("expected ',' or ')' at offset 55")
            ),
            ("{'descr': '<f4", .malformedHeader("newline inside a string")), // npyFile appends the \n
            (
                "{'descr': '<f4', 'fortran_order': Maybe, 'shape': ()}",
                .malformedHeader("unexpected 'Maybe' at offset 39")
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
                .malformedHeader("integer out of range at offset 69")
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': ()} x",
                .malformedHeader("unexpected text after the dict at offset 54")
            ),
            ("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", .invalidShape("dimension 0 is -1")),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
                .invalidShape("element count of [4294967296, 4294967296] overflows")
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,)}",
                .invalidShape("byte size of [2305843009213693952] × 8 overflows")
            ),
            ("{'descr': 'f4', 'fortran_order': False, 'shape': ()}", .unsupportedDType("f4")),
            (String(repeating: "(", count: 40), .malformedHeader("nesting deeper than 16")),
        ]
        for (header, error) in cases {
            #expect(throws: error, "\(header)") { try NPYArray(bytes: npyFile(header: header)) }
        }
    }

    @Test func framingErrors() {
        let good = NumPySamples.bytes(NumPySamples.int32_2)
        #expect(throws: NPYError.badMagic) { try NPYArray(bytes: Array("PK\u{3}\u{4}zipfile".utf8)) }
        #expect(throws: NPYError.truncated("file ends inside the magic string")) { try NPYArray(bytes: [0x93, 0x4E]) }
        #expect(throws: NPYError.badMagic) { try NPYArray(bytes: [0x93, 0x4F]) }
        var version = good
        version[6] = 4
        #expect(throws: NPYError.unsupportedVersion(major: 4, minor: 0)) { try NPYArray(bytes: version) }
        version[6] = 1; version[7] = 1
        #expect(throws: NPYError.unsupportedVersion(major: 1, minor: 1)) { try NPYArray(bytes: version) }
        var length = good
        length[8] = 0xFF; length[9] = 0xFF
        #expect(throws: NPYError.truncated("header length is 65535 bytes, but only \(good.count - 10) follow")) {
            try NPYArray(bytes: length)
        }
        #expect(throws: NPYError.truncated("data is 7 bytes, but dtype and shape need 8")) {
            try NPYArray(bytes: Array(good.dropLast()))
        }
        #expect(throws: NPYError.dataSizeMismatch(expected: 8, actual: 9)) { try NPYArray(bytes: good + [0]) }
        #expect(throws: NPYError.malformedHeader("header is not valid UTF-8")) {
            try NPYArray(
                bytes: npyFile(header: "{'descr': '<u2'}", major: 3).map { $0 == UInt8(ascii: "u") ? 0xFF : $0 })
        }
    }

    @Test func missingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/dir/x.npy")
        #expect {
            try NPYArray(contentsOf: url)
        } throws: { error in
            guard case .cannotRead(let path, _) = error as? NPYError else { return false }
            return path == "/nonexistent/dir/x.npy"
        }
    }
}
