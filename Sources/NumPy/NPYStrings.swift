/// String arrays: NumPy's `<U` (UTF-32 code points) and `|S` (bytes), each element padded
/// with NULs to the array's fixed length. As in NumPy, trailing NULs are not part of an
/// element, so a string that ends in NUL loses those bytes.
extension NPYArray {
    /// A `<U` array of `strings` in C order with the given shape (defaults to 1-D), as wide
    /// as the longest string (at least 1, as NumPy makes it).
    public init(shape: [Int]? = nil, strings: [String]) throws(NPYError) {
        let scalars = strings.map { Array($0.unicodeScalars) }
        let length = Swift.max(1, scalars.map(\.count).max() ?? 0)
        guard length <= NPYDType.maximumStringLength else { throw .invalidShape("a string of \(length) characters") }
        var bytes: [UInt8] = []
        let (capacity, overflow) = strings.count.multipliedReportingOverflow(by: 4 * length)
        if !overflow { bytes.reserveCapacity(capacity) }
        for string in scalars {
            for scalar in string { withUnsafeBytes(of: scalar.value.littleEndian) { bytes.append(contentsOf: $0) } }
            bytes.append(contentsOf: repeatElement(0, count: 4 * (length - string.count)))
        }
        try self.init(dtype: .unicode(length: length), shape: shape ?? [strings.count], data: bytes)
    }

    /// A `|S` array of byte strings in C order with the given shape (defaults to 1-D), as
    /// wide as the longest (at least 1).
    public init(shape: [Int]? = nil, byteStrings: [[UInt8]]) throws(NPYError) {
        let length = Swift.max(1, byteStrings.map(\.count).max() ?? 0)
        guard length <= NPYDType.maximumStringLength else { throw .invalidShape("a string of \(length) bytes") }
        var bytes: [UInt8] = []
        let (capacity, overflow) = byteStrings.count.multipliedReportingOverflow(by: length)
        if !overflow { bytes.reserveCapacity(capacity) }
        for string in byteStrings {
            bytes += string
            bytes.append(contentsOf: repeatElement(0, count: length - string.count))
        }
        try self.init(dtype: .bytes(length: length), shape: shape ?? [byteStrings.count], data: bytes)
    }

    /// The elements of a string array as text: a `<U` array's code points, or a `|S`
    /// array's bytes read as UTF-8.
    ///
    /// - Throws: ``NPYError/typeMismatch(expected:actual:)`` for a numeric array;
    ///   ``NPYError/invalidString(_:)`` for a code point that is not a Unicode scalar or
    ///   bytes that are not UTF-8.
    public func strings() throws(NPYError) -> [String] {
        switch dtype {
        case .unicode(let length):
            var result: [String] = []
            result.reserveCapacity(elementCount)
            for i in 0 ..< elementCount {
                var scalars = String.UnicodeScalarView()
                var units: [UInt32] = []
                for k in 0 ..< length {
                    let o = (i * length + k) * 4
                    units.append(
                        UInt32(data[o]) | UInt32(data[o + 1]) << 8 | UInt32(data[o + 2]) << 16 | UInt32(data[o + 3])
                            << 24)
                }
                while units.last == 0 { units.removeLast() }
                for unit in units {
                    guard let scalar = Unicode.Scalar(unit) else {
                        throw .invalidString("element \(i) holds \(unit), which is not a Unicode scalar")
                    }
                    scalars.append(scalar)
                }
                result.append(String(scalars))
            }
            return result
        case .bytes:
            return try byteStrings().enumerated().map { (i, bytes) throws(NPYError) in
                guard let text = String(validatingUTF8Bytes: bytes) else {
                    throw .invalidString("element \(i) is not UTF-8")
                }
                return text
            }
        default:
            throw .typeMismatch(expected: .unicode(length: 1), actual: dtype)
        }
    }

    /// The elements of a string array as bytes: a `|S` array's bytes, or the UTF-8 of a
    /// `<U` array's strings. Errors as for ``strings()``.
    public func byteStrings() throws(NPYError) -> [[UInt8]] {
        switch dtype {
        case .bytes(let length):
            return (0 ..< elementCount).map { i in
                var element = Array(data[(i * length) ..< (i * length + length)])
                while element.last == 0 { element.removeLast() }
                return element
            }
        case .unicode:
            return try strings().map { Array($0.utf8) }
        default:
            throw .typeMismatch(expected: .bytes(length: 1), actual: dtype)
        }
    }
}
