import Foundation
import Testing
@testable import NumPy

@Suite struct NPYWriteTests {
    /// Our writer must produce NumPy's exact bytes, so files diff cleanly against
    /// `np.save` output (every version-1.0 sample was written by NumPy itself).
    @Test func encodesByteIdenticallyToNumPy() throws {
        for sample in NumPySamples.valid {
            let bytes = NumPySamples.bytes(sample)
            let array = try NPYArray(bytes: bytes)
            let encoded = array.encoded()
            #expect(try NPYArray(bytes: encoded) == array)
            if bytes[6] == 1 {
                #expect(encoded == bytes, "\(array.dtype) \(array.shape)")
            } else {
                // Same dict and data; padding differs by the 2 bytes of the shorter length field.
                #expect(encoded[10...].filter { $0 != 0x20 } == bytes[12...].filter { $0 != 0x20 })
            }
            #expect(encoded.count >= 128)
            let preamble = encoded.count - array.data.count
            #expect(preamble % 64 == 0)
        }
    }

    @Test func typedRoundTrips() throws {
        let floats: [Float] = [0, -0.0, 1.5, .pi, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity]
        let a = try NPYArray(shape: [7], values: floats)
        #expect(try NPYArray(bytes: a.encoded()).values(as: Float.self) == floats)

        let ints: [Int64] = [.min, -1, 0, 1, .max, 42]
        let b = try NPYArray(shape: [2, 3], values: ints)
        let decoded = try NPYArray(bytes: b.encoded())
        #expect(decoded.shape == [2, 3])
        #expect(try decoded.values(as: Int64.self) == ints)

        #expect(try NPYArray(bytes: NPYArray(shape: [], values: [2.5]).encoded()).values(as: Double.self) == [2.5])
        #expect(try NPYArray(values: [true, false]).values(as: Bool.self) == [true, false])
        #expect(try NPYArray(values: [UInt16(7), 65535]).data == [7, 0, 255, 255])
        #expect(try NPYArray(values: [Int8(-1)]).dtype == .int8)
        #expect(try NPYArray(values: [UInt32(1)]).values(as: UInt32.self) == [1])
        #expect(try NPYArray(values: [Int32(-2)]).values(as: Int32.self) == [-2])
        #expect(try NPYArray(values: [UInt64(3)]).values(as: UInt64.self) == [3])
        #expect(try NPYArray(values: [Int16(-4)]).values(as: Int16.self) == [-4])
        #expect(try NPYArray(values: [UInt8(5)]).values(as: UInt8.self) == [5])
    }

    @Test func initValidatesSize() {
        #expect(throws: NPYError.dataSizeMismatch(expected: 24, actual: 20)) {
            try NPYArray(shape: [2, 3], values: [Float](repeating: 0, count: 5))
        }
        #expect(throws: NPYError.invalidShape("dimension 1 is -2")) {
            try NPYArray(dtype: .uint8, shape: [1, -2], data: [])
        }
    }

    @Test func largeHeaderSwitchesToVersion2() throws {
        // 40 000 dimensions of size 1 make a header longer than 65 535 bytes.
        let array = try NPYArray(dtype: .uint8, shape: [Int](repeating: 1, count: 40_000) + [3], data: [1, 2, 3])
        let encoded = array.encoded()
        #expect(encoded[6] == 2)
        #expect((encoded.count - 3) % 64 == 0)
        #expect(try NPYArray(bytes: encoded) == array)
    }

    @Test func fileRoundTrip() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("npy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("a.npy")
        let array = try NPYArray(shape: [2, 2], values: [Float(1), 2, 3, 4])
        try array.write(to: url)
        #expect(try NPYArray(contentsOf: url) == array)
        #expect {
            try array.write(to: dir.appendingPathComponent("missing/dir/b.npy"))
        } throws: { error in
            guard case .cannotWrite = error as? NPYError else { return false }
            return true
        }
    }
}
