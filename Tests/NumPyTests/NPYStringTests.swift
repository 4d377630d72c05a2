import Testing

@testable import NumPy

/// `<U` and `|S` arrays: what NumPy writes for them, read back and written byte for byte,
/// and malformed string headers.
@Suite struct NPYStringTests {
    /// `np.save` of `np.array(['ab', 'héllo'])`: header text and data.
    static func numpyFile(_ dict: String, _ data: [UInt8]) -> [UInt8] {
        let padded = dict + String(repeating: " ", count: 118 - dict.count - 1) + "\n"
        return [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59, 1, 0, 118, 0] + Array(padded.utf8) + data
    }

    static let unicode = numpyFile(
        "{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }",
        [97, 0, 0, 0, 98, 0, 0, 0] + [UInt8](repeating: 0, count: 12)
            + [104, 0, 0, 0, 233, 0, 0, 0, 108, 0, 0, 0, 108, 0, 0, 0, 111, 0, 0, 0])
    static let bytes = numpyFile(
        "{'descr': '|S3', 'fortran_order': False, 'shape': (2, 1), }", [120, 0, 0, 97, 98, 99])

    @Test func readsWhatNumPyWrites() throws {
        let u = try NPYArray(bytes: Self.unicode)
        #expect(u.dtype == .unicode(length: 5) && u.shape == [2])
        #expect(try u.strings() == ["ab", "héllo"])
        #expect(try u.byteStrings() == [Array("ab".utf8), Array("héllo".utf8)])
        let s = try NPYArray(bytes: Self.bytes)
        #expect(s.dtype == .bytes(length: 3) && s.shape == [2, 1])
        #expect(try s.byteStrings() == [[120], [97, 98, 99]])
        #expect(try s.strings() == ["x", "abc"])
    }

    @Test func writesWhatNumPyWrites() throws {
        #expect(try NPYArray(strings: ["ab", "héllo"]).encoded() == Self.unicode)
        #expect(try NPYArray(shape: [2, 1], byteStrings: [[120], [97, 98, 99]]).encoded() == Self.bytes)
        // An empty string still gets one character of width, as in NumPy.
        #expect(try NPYArray(strings: [""]).dtype == .unicode(length: 1))
    }

    @Test func malformedStringArraysAreRefused() throws {
        #expect(throws: NPYError.bigEndian(">U3")) { try NPYDType(descr: ">U3") }
        #expect(throws: NPYError.unsupportedDType("|U3")) { try NPYDType(descr: "|U3") }
        #expect(throws: NPYError.unsupportedDType("<U")) { try NPYDType(descr: "<U") }
        #expect(throws: NPYError.unsupportedDType("<U99999999999")) { try NPYDType(descr: "<U99999999999") }
        #expect(throws: NPYError.unsupportedDType("<Sx")) { try NPYDType(descr: "<Sx") }
        // A code point past U+10FFFF, and a surrogate.
        let bad = try NPYArray(dtype: .unicode(length: 1), shape: [2], data: [0, 0, 0x11, 0, 0x00, 0xD8, 0, 0])
        #expect(throws: NPYError.self) { try bad.strings() }
        let notUTF8 = try NPYArray(byteStrings: [[0xFF, 0xFE]])
        #expect(throws: NPYError.invalidString("element 0 is not UTF-8")) { try notUTF8.strings() }
        #expect(try notUTF8.byteStrings() == [[0xFF, 0xFE]])
        // The data section must be exactly count × width.
        var short = Self.unicode
        short.removeLast()
        #expect(throws: NPYError.self) { try NPYArray(bytes: short) }
        #expect(throws: NPYError.typeMismatch(expected: .unicode(length: 1), actual: .float32)) {
            try NPYArray(values: [Float(1)]).strings()
        }
    }
}
