/// A reference to one value inside a `FlexBuffer`: where its slot is, the slot's width
/// and the value's packed type. Reading it (`asInt()`, `asMap()`...) validates the bytes
/// it touches and throws `FlexBufferError` on anything malformed.
package struct FlexValue: Sendable {
    let bytes: [UInt8]
    /// Position of the slot holding the inline value or the offset.
    let slot: Int
    /// Byte width of the slot (the parent's width).
    let parentWidth: Int
    /// Byte width of the pointed-to data (for offset types).
    let childWidth: Int
    package let type: FlexType
    /// Containers above this value.
    let depth: Int
    /// Where the value is, e.g. `root["scales"][2]`, for error messages.
    package let path: String

    init(bytes: [UInt8], slot: Int, parentWidth: Int, packedType: UInt8, depth: Int, path: String)
        throws(FlexBufferError)
    {
        guard let type = FlexType(rawValue: packedType >> 2) else {
            throw FlexBufferError(
                .invalidType,
                "\(path): type code \(packedType >> 2) (packed byte \(packedType)) is not a FlexBuffers type")
        }
        self.init(
            bytes: bytes, slot: slot, parentWidth: parentWidth, childWidth: 1 << Int(packedType & 3), type: type,
            depth: depth, path: path)
    }

    init(bytes: [UInt8], slot: Int, parentWidth: Int, childWidth: Int, type: FlexType, depth: Int, path: String) {
        self.bytes = bytes
        self.slot = slot
        self.parentWidth = parentWidth
        self.childWidth = childWidth
        self.type = type
        self.depth = depth
        self.path = path
    }

    package var isNull: Bool { type == .null }

    // MARK: - Raw access

    func inlineUInt() throws(FlexBufferError) -> UInt64 {
        guard let value = FlexBytes.uint(bytes, at: slot, width: parentWidth) else {
            throw outOfBounds(slot, parentWidth)
        }
        return value
    }

    func outOfBounds(_ position: Int, _ length: Int) -> FlexBufferError {
        FlexBufferError(
            .outOfBounds,
            "\(path): \(length) bytes at offset \(position) run past the end of the \(bytes.count)-byte buffer")
    }

    /// Follows the backwards offset in the slot to the value's data.
    func target() throws(FlexBufferError) -> Int {
        let offset = try inlineUInt()
        guard offset <= UInt64(slot) else {
            throw FlexBufferError(
                .invalidOffset, "\(path): offset \(offset) at offset \(slot) points before the start of the buffer")
        }
        return slot - Int(offset)
    }

    /// The length prefix stored `childWidth` bytes before `data`, checked to be coverable
    /// by `elementSize`-byte items inside the buffer from `data`.
    func lengthPrefix(at data: Int, elementSize: Int) throws(FlexBufferError) -> Int {
        guard let raw = FlexBytes.uint(bytes, at: data - childWidth, width: childWidth) else {
            throw outOfBounds(data - childWidth, childWidth)
        }
        guard raw <= UInt64(bytes.count) else {
            throw FlexBufferError(
                .outOfBounds,
                "\(path): length \(raw) at offset \(data - childWidth) exceeds the \(bytes.count)-byte buffer")
        }
        let count = Int(raw)
        let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, FlexBytes.contains(bytes, data, size) else {
            throw FlexBufferError(
                .outOfBounds,
                "\(path): \(count) elements of \(elementSize) bytes at offset \(data) run past the end of the \(bytes.count)-byte buffer"
            )
        }
        return count
    }

    func mismatch(_ wanted: String) -> FlexBufferError {
        FlexBufferError(.typeMismatch, "\(path): a \(type) value cannot be read as \(wanted)")
    }

    // MARK: - Scalars

    /// The value as a signed integer. Ints, uints, floats (truncated toward zero), bools
    /// (0/1), null (0), their indirect forms and decimal strings convert; other types,
    /// non-finite floats and uints above `Int64.max` throw.
    package func asInt64() throws(FlexBufferError) -> Int64 {
        switch type {
        case .null: return 0
        case .int:
            guard let v = FlexBytes.int(bytes, at: slot, width: parentWidth) else {
                throw outOfBounds(slot, parentWidth)
            }
            return v
        case .indirectInt:
            let at = try target()
            guard let v = FlexBytes.int(bytes, at: at, width: childWidth) else { throw outOfBounds(at, childWidth) }
            return v
        case .uint, .indirectUInt, .bool:
            let u = try asUInt64()
            guard u <= UInt64(Int64.max) else {
                throw FlexBufferError(.valueOutOfRange, "\(path): \(u) does not fit a 64-bit signed integer")
            }
            return Int64(u)
        case .float, .indirectFloat:
            let d = try asDouble()
            // 2^63 is exactly representable; anything at or above it does not fit.
            guard d.isFinite, d > -9_223_372_036_854_775_809.0, d < 9_223_372_036_854_775_808.0 else {
                throw FlexBufferError(.valueOutOfRange, "\(path): \(d) does not fit a 64-bit signed integer")
            }
            return Int64(d)
        case .string, .key:
            let s = try asString()
            guard let v = Int64(s) else {
                throw FlexBufferError(.typeMismatch, "\(path): string \"\(s)\" is not an integer")
            }
            return v
        default:
            throw mismatch("an integer")
        }
    }

    /// `asInt64()` as `Int`.
    package func asInt() throws(FlexBufferError) -> Int {
        let v = try asInt64()
        guard let i = Int(exactly: v) else {
            throw FlexBufferError(.valueOutOfRange, "\(path): \(v) does not fit Int")
        }
        return i
    }

    /// `asInt64()`, checked to fit in 32 bits.
    package func asInt32() throws(FlexBufferError) -> Int32 {
        let v = try asInt64()
        guard let i = Int32(exactly: v) else {
            throw FlexBufferError(.valueOutOfRange, "\(path): \(v) does not fit a 32-bit signed integer")
        }
        return i
    }

    /// The value as an unsigned integer; negative values throw.
    package func asUInt64() throws(FlexBufferError) -> UInt64 {
        switch type {
        case .uint: return try inlineUInt()
        case .bool: return try inlineUInt() != 0 ? 1 : 0
        case .indirectUInt:
            let at = try target()
            guard let v = FlexBytes.uint(bytes, at: at, width: childWidth) else { throw outOfBounds(at, childWidth) }
            return v
        default:
            let v = try asInt64()
            guard v >= 0 else {
                throw FlexBufferError(.valueOutOfRange, "\(path): \(v) is negative, not an unsigned integer")
            }
            return UInt64(v)
        }
    }

    /// The value as a `Double`. Numbers, bools, null (0) and numeric strings convert.
    package func asDouble() throws(FlexBufferError) -> Double {
        switch type {
        case .float:
            guard let d = FlexBytes.double(bytes, at: slot, width: parentWidth) else {
                throw floatError(slot, parentWidth)
            }
            return d
        case .indirectFloat:
            let at = try target()
            guard let d = FlexBytes.double(bytes, at: at, width: childWidth) else { throw floatError(at, childWidth) }
            return d
        case .uint, .indirectUInt, .bool: return Double(try asUInt64())
        case .null, .int, .indirectInt: return Double(try asInt64())
        case .string, .key:
            let s = try asString()
            guard let d = Double(s) else {
                throw FlexBufferError(.typeMismatch, "\(path): string \"\(s)\" is not a number")
            }
            return d
        default:
            throw mismatch("a number")
        }
    }

    func floatError(_ position: Int, _ width: Int) -> FlexBufferError {
        width < 4
            ? FlexBufferError(
                .invalidWidth, "\(path): a float of \(width) bytes at offset \(position); floats are 4 or 8 bytes")
            : outOfBounds(position, width)
    }

    /// `asDouble()` rounded to `Float`.
    package func asFloat() throws(FlexBufferError) -> Float { Float(try asDouble()) }

    /// The value as a bool: a bool's own value, or whether a number is non-zero; null is false.
    package func asBool() throws(FlexBufferError) -> Bool {
        switch type {
        case .bool: return try inlineUInt() != 0
        case .null: return false
        case .int, .indirectInt: return try asInt64() != 0
        case .uint, .indirectUInt: return try asUInt64() != 0
        case .float, .indirectFloat: return try asDouble() != 0
        default: throw mismatch("a bool")
        }
    }

    // MARK: - Strings and blobs

    /// The text of a string or key (invalid UTF-8 is repaired).
    package func asString() throws(FlexBufferError) -> String {
        switch type {
        case .string:
            let data = try target()
            let length = try lengthPrefix(at: data, elementSize: 1)
            guard data + length < bytes.count, bytes[data + length] == 0 else {
                throw FlexBufferError(
                    .missingTerminator,
                    "\(path): string of \(length) bytes at offset \(data) is not followed by a NUL byte")
            }
            return String(decoding: bytes[data ..< data + length], as: UTF8.self)
        case .key:
            return try FlexValue.key(in: bytes, at: try target(), path: path)
        default:
            throw mismatch("a string")
        }
    }

    /// The bytes of a blob.
    package func asBlob() throws(FlexBufferError) -> [UInt8] {
        guard type == .blob else { throw mismatch("a blob") }
        let data = try target()
        let length = try lengthPrefix(at: data, elementSize: 1)
        return Array(bytes[data ..< data + length])
    }

    /// Reads the NUL-terminated key starting at `position`.
    static func key(in bytes: [UInt8], at position: Int, path: String) throws(FlexBufferError) -> String {
        guard position >= 0, position < bytes.count else {
            throw FlexBufferError(
                .outOfBounds, "\(path): key at offset \(position) is outside the \(bytes.count)-byte buffer")
        }
        guard let end = bytes[position...].firstIndex(of: 0) else {
            throw FlexBufferError(
                .missingTerminator, "\(path): key at offset \(position) has no NUL terminator inside the buffer")
        }
        return String(decoding: bytes[position ..< end], as: UTF8.self)
    }

    // MARK: - Containers

    /// The value as a vector: untyped, typed and fixed-size typed vectors, or a map's
    /// values (in key order).
    package func asVector() throws(FlexBufferError) -> FlexVector {
        if type == .map { return try asMap().values }
        guard type == .vector || type.isTypedVector || type.isFixedTypedVector else { throw mismatch("a vector") }
        try checkDepth()
        let data = try target()
        let count: Int
        if let fixed = type.fixedCount {
            let (size, overflow) = fixed.multipliedReportingOverflow(by: childWidth)
            guard !overflow, FlexBytes.contains(bytes, data, size) else { throw outOfBounds(data, fixed * childWidth) }
            count = fixed
        } else {
            // Untyped vectors carry one type byte per element after the slots.
            count = try lengthPrefix(at: data, elementSize: type == .vector ? childWidth + 1 : childWidth)
        }
        return try FlexVector(
            bytes: bytes, data: data, count: count, width: childWidth, elementType: type.elementType, depth: depth + 1,
            path: path)
    }

    /// The value as a map (keys are read and checked here; values on access).
    package func asMap() throws(FlexBufferError) -> FlexMap {
        guard type == .map else { throw mismatch("a map") }
        try checkDepth()
        let data = try target()
        let width = childWidth
        let count = try lengthPrefix(at: data, elementSize: width + 1)
        let values = try FlexVector(
            bytes: bytes, data: data, count: count, width: width, elementType: nil, depth: depth + 1, path: path)
        // Two fields precede the count: the keys vector's offset and its byte width.
        let keysSlot = data - 3 * width
        guard let keysOffset = FlexBytes.uint(bytes, at: keysSlot, width: width),
            let keysWidthRaw = FlexBytes.uint(bytes, at: data - 2 * width, width: width)
        else {
            throw outOfBounds(keysSlot, 2 * width)
        }
        guard keysOffset <= UInt64(keysSlot) else {
            throw FlexBufferError(
                .invalidOffset,
                "\(path): keys offset \(keysOffset) at offset \(keysSlot) points before the start of the buffer")
        }
        guard keysWidthRaw <= 8, FlexBytes.isValidWidth(Int(keysWidthRaw)) else {
            throw FlexBufferError(.invalidWidth, "\(path): keys byte width \(keysWidthRaw) is not 1, 2, 4 or 8")
        }
        let keysData = keysSlot - Int(keysOffset)
        let keysWidth = Int(keysWidthRaw)
        guard let keysCount = FlexBytes.uint(bytes, at: keysData - keysWidth, width: keysWidth) else {
            throw outOfBounds(keysData - keysWidth, keysWidth)
        }
        guard keysCount == UInt64(count) else {
            throw FlexBufferError(
                .invalidMap,
                "\(path): the map has \(count) values but its keys vector at offset \(keysData) has \(keysCount) keys")
        }
        guard FlexBytes.contains(bytes, keysData, count * keysWidth) else {
            throw outOfBounds(keysData, count * keysWidth)
        }
        var keys: [String] = []
        keys.reserveCapacity(count)
        for i in 0 ..< count {
            let keySlot = keysData + i * keysWidth
            // In range: checked just above.
            let offset = FlexBytes.uint(bytes, at: keySlot, width: keysWidth) ?? 0
            guard offset <= UInt64(keySlot) else {
                throw FlexBufferError(
                    .invalidOffset,
                    "\(path): key \(i) offset \(offset) at offset \(keySlot) points before the start of the buffer")
            }
            keys.append(try FlexValue.key(in: bytes, at: keySlot - Int(offset), path: "\(path) key \(i)"))
        }
        return FlexMap(keys: keys, values: values)
    }

    func checkDepth() throws(FlexBufferError) {
        guard depth < FlexBuffer.maxDepth else {
            throw FlexBufferError(
                .depthLimitExceeded, "\(path): containers nested deeper than \(FlexBuffer.maxDepth) levels")
        }
    }
}
