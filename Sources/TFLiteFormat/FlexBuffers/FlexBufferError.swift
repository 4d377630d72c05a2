/// Why a FlexBuffer value could not be read or converted. The message names the value's
/// path (`root["max_detections"]`, `root[3]`) and the byte offset involved.
package struct FlexBufferError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// Fewer bytes than the 3-byte root trailer.
        case bufferTooSmall
        /// A byte width that is not 1, 2, 4 or 8 (or a float narrower than 4 bytes).
        case invalidWidth
        /// A type code this format does not define.
        case invalidType
        /// A value, vector, string or key extends past the buffer.
        case outOfBounds
        /// An offset points forwards or before the start of the buffer.
        case invalidOffset
        /// A string or key has no NUL terminator inside the buffer.
        case missingTerminator
        /// Containers nested deeper than `FlexBuffer.maxDepth`.
        case depthLimitExceeded
        /// Converting to a tree would produce more nodes than allowed.
        case sizeLimitExceeded
        /// The value's type cannot be converted to the requested one.
        case typeMismatch
        /// The value does not fit the requested type (e.g. 2^40 as Int32, NaN as Int).
        case valueOutOfRange
        /// A map's keys vector does not match its values.
        case invalidMap
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

/// The type of a FlexBuffer value, as stored in the upper six bits of a packed type byte.
package enum FlexType: UInt8, Hashable, Sendable, CustomStringConvertible {
    case null = 0
    case int = 1
    case uint = 2
    case float = 3
    case key = 4
    case string = 5
    case indirectInt = 6
    case indirectUInt = 7
    case indirectFloat = 8
    case map = 9
    case vector = 10
    case vectorInt = 11
    case vectorUInt = 12
    case vectorFloat = 13
    case vectorKey = 14
    /// Typed vector of strings; writers no longer produce it, readers still accept it.
    case vectorString = 15
    case vectorInt2 = 16
    case vectorUInt2 = 17
    case vectorFloat2 = 18
    case vectorInt3 = 19
    case vectorUInt3 = 20
    case vectorFloat3 = 21
    case vectorInt4 = 22
    case vectorUInt4 = 23
    case vectorFloat4 = 24
    case blob = 25
    case bool = 26
    case vectorBool = 36

    /// Scalars stored directly in their parent's slot, read with the parent's width.
    package var isInline: Bool { rawValue <= FlexType.float.rawValue || self == .bool }

    /// Vectors whose elements all have one type and no per-element type bytes.
    package var isTypedVector: Bool {
        (rawValue >= FlexType.vectorInt.rawValue && rawValue <= FlexType.vectorString.rawValue) || self == .vectorBool
    }

    /// Typed vectors of 2, 3 or 4 elements with no stored count.
    package var isFixedTypedVector: Bool {
        rawValue >= FlexType.vectorInt2.rawValue && rawValue <= FlexType.vectorFloat4.rawValue
    }

    /// Element type of a typed or fixed typed vector.
    var elementType: FlexType? {
        if self == .vectorBool { return .bool }
        if isTypedVector { return FlexType(rawValue: rawValue - FlexType.vectorInt.rawValue + FlexType.int.rawValue) }
        if isFixedTypedVector {
            return FlexType(rawValue: (rawValue - FlexType.vectorInt2.rawValue) % 3 + FlexType.int.rawValue)
        }
        return nil
    }

    /// Element count of a fixed typed vector.
    var fixedCount: Int? {
        isFixedTypedVector ? Int((rawValue - FlexType.vectorInt2.rawValue) / 3) + 2 : nil
    }

    package var description: String {
        switch self {
        case .null: return "null"
        case .int: return "int"
        case .uint: return "uint"
        case .float: return "float"
        case .key: return "key"
        case .string: return "string"
        case .indirectInt: return "indirect int"
        case .indirectUInt: return "indirect uint"
        case .indirectFloat: return "indirect float"
        case .map: return "map"
        case .vector: return "vector"
        case .blob: return "blob"
        case .bool: return "bool"
        default: return "typed vector (\(rawValue))"
        }
    }
}
