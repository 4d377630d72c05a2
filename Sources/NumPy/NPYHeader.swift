/// The preamble of a `.npy` file: magic string, version, header length, and the
/// header dict `{'descr': ..., 'fortran_order': ..., 'shape': (...), }`.
///
/// Layout (all versions): `\x93NUMPY`, major and minor version bytes, the header
/// length (little-endian `UInt16` in 1.0, `UInt32` in 2.0 and 3.0), then the header
/// text (Latin-1 in 1.0 and 2.0, UTF-8 in 3.0) padded with spaces and ending in `\n` so
/// that the data starts on a 64-byte boundary. The data follows, in C order.
struct NPYHeader: Hashable, Sendable {
    var dtype: NPYDType
    var shape: [Int]

    static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59] // \x93NUMPY
    /// Data alignment NumPy pads the preamble to.
    static let alignment = 64
    /// Spare header room NumPy leaves after the dict so the first axis can grow in place.
    static let growthDigits = 21

    /// Reads the preamble of `bytes`; returns the header and the offset of the data.
    static func read(_ bytes: [UInt8]) throws(NPYError) -> (header: NPYHeader, dataOffset: Int) {
        guard bytes.count >= magic.count else {
            if bytes.elementsEqual(magic.prefix(bytes.count)) { throw .truncated("file ends inside the magic string") }
            throw .badMagic
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { throw .badMagic }
        guard bytes.count >= 8 else { throw .truncated("file ends before the format version") }
        let major = bytes[6], minor = bytes[7]
        let lengthFieldSize: Int
        switch (major, minor) {
        case (1, 0): lengthFieldSize = 2
        case (2, 0), (3, 0): lengthFieldSize = 4
        default: throw .unsupportedVersion(major: major, minor: minor)
        }
        let headerStart = 8 + lengthFieldSize
        guard bytes.count >= headerStart else { throw .truncated("file ends inside the header length") }
        var headerLength = 0
        for i in (0 ..< lengthFieldSize).reversed() { headerLength = headerLength << 8 | Int(bytes[8 + i]) }
        // headerLength < 2^32 and headerStart is 10 or 12: no overflow on 64-bit Int,
        // but checked anyway so the arithmetic is obviously safe everywhere.
        let (dataOffset, overflow) = headerStart.addingReportingOverflow(headerLength)
        guard !overflow, dataOffset <= bytes.count else {
            throw .truncated("header length is \(headerLength) bytes, but only \(bytes.count - headerStart) follow")
        }
        let headerBytes = bytes[headerStart ..< dataOffset]
        let text: String
        if major == 3 {
            guard let utf8 = String(validatingUTF8Bytes: headerBytes) else {
                throw .malformedHeader("header is not valid UTF-8")
            }
            text = utf8
        } else {
            text = String(String.UnicodeScalarView(headerBytes.map { Unicode.Scalar($0) })) // Latin-1
        }
        return (try parseDict(text), dataOffset)
    }

    /// Interprets the header dict text.
    static func parseDict(_ text: String) throws(NPYError) -> NPYHeader {
        guard case .dict(let pairs) = try PythonLiteral.parse(text) else {
            throw .malformedHeader("header is not a dict")
        }
        var fields: [String: PythonLiteral] = [:]
        for (key, value) in pairs {
            guard case .string(let name) = key else { throw .malformedHeader("a header key is not a string") }
            guard ["descr", "fortran_order", "shape"].contains(name) else {
                throw .malformedHeader("unexpected key '\(name)'")
            }
            guard fields.updateValue(value, forKey: name) == nil else {
                throw .malformedHeader("duplicate key '\(name)'")
            }
        }
        guard let descr = fields["descr"] else { throw .malformedHeader("missing key 'descr'") }
        guard let fortran = fields["fortran_order"] else { throw .malformedHeader("missing key 'fortran_order'") }
        guard let shapeValue = fields["shape"] else { throw .malformedHeader("missing key 'shape'") }

        let dtype: NPYDType
        switch descr {
        case .string(let s): dtype = try NPYDType(descr: s)
        case .list: throw .unsupportedDType("structured dtype")
        default: throw .malformedHeader("'descr' is not a string")
        }
        guard case .bool(let isFortran) = fortran else {
            throw .malformedHeader("'fortran_order' is not True or False")
        }
        guard !isFortran else { throw .fortranOrder }
        let items: [PythonLiteral]
        switch shapeValue {
        case .tuple(let t), .list(let t): items = t
        default: throw .malformedHeader("'shape' is not a tuple")
        }
        var shape: [Int] = []
        for item in items {
            guard case .int(let d) = item else { throw .malformedHeader("'shape' holds a non-integer") }
            shape.append(d)
        }
        return NPYHeader(dtype: dtype, shape: shape)
    }

    /// The header dict exactly as NumPy's `repr`-based writer spells it.
    var dictText: String {
        let dims: String
        switch shape.count {
        case 0: dims = "()"
        case 1: dims = "(\(shape[0]),)"
        default: dims = "(" + shape.map(String.init).joined(separator: ", ") + ")"
        }
        var text = "{'descr': '\(dtype.descr)', 'fortran_order': False, 'shape': \(dims), }"
        if let first = shape.first {
            text += String(repeating: " ", count: Swift.max(0, Self.growthDigits - String(first).count))
        }
        return text
    }

    /// The full preamble (magic through the final `\n`), byte-identical to NumPy's
    /// `np.save` output: version 1.0 unless the header needs a 32-bit length.
    func encodedPreamble() -> [UInt8] {
        let dict = Array(dictText.utf8) // ASCII: dtype names and digits only
        let withNewline = dict.count + 1
        var lengthFieldSize = 2
        var version: UInt8 = 1
        var padding = Self.alignment - (Self.magic.count + 2 + lengthFieldSize + withNewline) % Self.alignment
        if withNewline + padding > Int(UInt16.max) {
            lengthFieldSize = 4
            version = 2
            padding = Self.alignment - (Self.magic.count + 2 + lengthFieldSize + withNewline) % Self.alignment
        }
        let headerLength = withNewline + padding
        var out = Self.magic + [version, 0]
        for i in 0 ..< lengthFieldSize { out.append(UInt8(truncatingIfNeeded: headerLength >> (8 * i))) }
        out += dict
        out += [UInt8](repeating: 0x20, count: padding)
        out.append(0x0A)
        return out
    }
}

extension String {
    /// Decodes `bytes` as UTF-8, or returns nil if they are not valid UTF-8.
    init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        var scalars = String.UnicodeScalarView()
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = String(scalars)
    }
}
