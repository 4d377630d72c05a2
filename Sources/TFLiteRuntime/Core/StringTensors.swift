import TFLiteModel

/// TFLite's layout of a STRING tensor's bytes: an `Int32` count `n`, then `n + 1` `Int32`
/// offsets from the start of the buffer (the first just past these `4 (n + 2)` header
/// bytes, never decreasing, the last equal to the buffer's size), then the strings' bytes
/// one after the other. String `i` is the bytes from offset `i` to offset `i + 1`.
/// All integers are little-endian.
package enum StringTensorLayout {
    /// The number of strings in `bytes` after checking every offset, or why it is not a
    /// string buffer. `expected` (when given) is the element count the tensor's shape needs.
    package static func validate(_ bytes: UnsafeRawBufferPointer, expected: Int? = nil) -> Result<
        Int, StringBufferFault
    > {
        guard bytes.count >= 4 else { return .failure(.tooShort(bytes.count)) }
        let count = Int(int32(bytes, at: 0))
        guard count >= 0 else { return .failure(.negativeCount(count)) }
        if let expected, count != expected { return .failure(.countMismatch(found: count, expected: expected)) }
        let (entries, o1) = count.addingReportingOverflow(2)
        let (header, o2) = entries.multipliedReportingOverflow(by: 4)
        guard !o1, !o2, header <= bytes.count else { return .failure(.headerPastEnd(count: count, size: bytes.count)) }
        var previous = header
        for i in 0 ... count {
            let offset = Int(int32(bytes, at: 4 + 4 * i))
            let valid = i == 0 ? offset == header : (offset >= previous && offset <= bytes.count)
            guard valid else {
                return .failure(.badOffset(index: i, offset: offset, header: header, size: bytes.count))
            }
            previous = offset
        }
        guard previous == bytes.count else { return .failure(.trailingBytes(last: previous, size: bytes.count)) }
        return .success(count)
    }

    /// The size of the layout of `count` strings holding `payload` bytes in all, or nil when
    /// it overflows or passes `Int32.max` (offsets are `Int32`).
    package static func size(count: Int, payload: Int) -> Int? {
        let (entries, o1) = count.addingReportingOverflow(2)
        let (header, o2) = entries.multipliedReportingOverflow(by: 4)
        let (total, o3) = header.addingReportingOverflow(payload)
        guard count >= 0, payload >= 0, !o1, !o2, !o3, total <= Int(Int32.max) else { return nil }
        return total
    }

    /// Writes the layout of strings given by their end offsets into `payload` (string `i`
    /// spans `ends[i-1] ..< ends[i]`, the first starting at 0) at `destination`, which has
    /// room for `size(count: ends.count, payload: payload.count)` bytes.
    static func write(ends: [Int], payload: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer) {
        let header = 4 * (ends.count + 2)
        destination.storeBytes(of: Int32(truncatingIfNeeded: ends.count).littleEndian, as: Int32.self)
        destination.storeBytes(of: Int32(truncatingIfNeeded: header).littleEndian, toByteOffset: 4, as: Int32.self)
        for (i, end) in ends.enumerated() {
            destination.storeBytes(
                of: Int32(truncatingIfNeeded: header + end).littleEndian, toByteOffset: 8 + 4 * i, as: Int32.self)
        }
        if let base = payload.baseAddress, payload.count > 0 {
            (destination + header).copyMemory(from: base, byteCount: payload.count)
        }
    }

    static func int32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    /// The layout of `strings`, for tests, the API and constants built in memory; nil when
    /// it would pass `Int32.max` bytes.
    package static func encode<S: Collection<UInt8>>(_ strings: [S]) -> [UInt8]? {
        var builder = StringTensorBuilder()
        for s in strings { builder.append(s) }
        return builder.encoded()
    }
}

/// Why bytes are not a valid STRING tensor buffer.
package enum StringBufferFault: Error, Hashable, Sendable, CustomStringConvertible {
    case tooShort(Int)
    case negativeCount(Int)
    case countMismatch(found: Int, expected: Int)
    case headerPastEnd(count: Int, size: Int)
    case badOffset(index: Int, offset: Int, header: Int, size: Int)
    case trailingBytes(last: Int, size: Int)

    package var description: String {
        switch self {
        case .tooShort(let size): return "a string buffer of \(size) bytes is shorter than its 4-byte count"
        case .negativeCount(let count): return "the string buffer's count is \(count)"
        case .countMismatch(let found, let expected):
            return "the string buffer holds \(found) strings, but the tensor's shape has \(expected) elements"
        case .headerPastEnd(let count, let size):
            return "a string buffer of \(size) bytes is too short for the offsets of \(count) strings"
        case .badOffset(let index, let offset, let header, let size):
            return
                "string buffer offset \(index) is \(offset); offsets must start at \(header), not decrease, and stay within \(size) bytes"
        case .trailingBytes(let last, let size):
            return "the string buffer's last offset is \(last), but the buffer holds \(size) bytes"
        }
    }
}

/// A validated STRING tensor value, read string by string: each is a view of its bytes.
package struct StringTensorView {
    /// The whole buffer, in ``StringTensorLayout``.
    package let bytes: UnsafeRawBufferPointer
    package let count: Int

    /// Wraps bytes already checked by ``StringTensorLayout/validate(_:expected:)``.
    package init(validated bytes: UnsafeRawBufferPointer, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// The bytes of string `i`, empty for an index outside `0 ..< count`.
    package subscript(i: Int) -> UnsafeRawBufferPointer {
        guard i >= 0, i < count, let base = bytes.baseAddress else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        let start = Int(StringTensorLayout.int32(bytes, at: 4 + 4 * i))
        let end = Int(StringTensorLayout.int32(bytes, at: 8 + 4 * i))
        return UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// Copies of every string's bytes.
    package var arrays: [[UInt8]] { (0 ..< count).map { Array(self[$0]) } }
}

/// Collects the strings a kernel writes to a STRING output, then lays them out.
package struct StringTensorBuilder {
    /// Where each string ends in `payload`.
    private(set) var ends: [Int] = []
    private(set) var payload: [UInt8] = []

    package init() {}

    package var count: Int { ends.count }
    /// Bytes of the strings collected so far.
    package var payloadCount: Int { payload.count }

    package mutating func append<S: Collection<UInt8>>(_ bytes: S) {
        payload.append(contentsOf: bytes)
        ends.append(payload.count)
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        payload.append(contentsOf: bytes)
        ends.append(payload.count)
    }

    /// Appends one string made of `parts` with `separator` between them.
    package mutating func appendJoined(_ parts: [UnsafeRawBufferPointer], separator: UInt8) {
        for (k, part) in parts.enumerated() {
            if k > 0 { payload.append(separator) }
            payload.append(contentsOf: part)
        }
        ends.append(payload.count)
    }

    /// The size of the laid-out buffer, or nil past `Int32.max`.
    package var encodedSize: Int? { StringTensorLayout.size(count: ends.count, payload: payload.count) }

    /// Writes the layout into `destination`, which has room for ``encodedSize`` bytes.
    func write(to destination: UnsafeMutableRawPointer) {
        payload.withUnsafeBytes { StringTensorLayout.write(ends: ends, payload: $0, to: destination) }
    }

    /// The layout as an array, or nil past `Int32.max` bytes.
    package func encoded() -> [UInt8]? {
        guard let size = encodedSize else { return nil }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            if let base = buffer.baseAddress { write(to: UnsafeMutableRawPointer(base)) }
            initialized = size
        }
    }
}
