/// An element type of a `.npy` array: the fixed-size numeric types that model inputs and
/// outputs use, and NumPy's fixed-width strings (`<U` unicode, `|S` bytes), which hold
/// string tensors.
///
/// Multi-byte types are always little-endian in memory and on disk; a big-endian file
/// is rejected rather than silently byte-swapped.
public enum NPYDType: Hashable, Sendable, CustomStringConvertible {
    case float16
    case float32
    case float64
    case uint8
    case int8
    case int16
    case uint16
    case int32
    case uint32
    case int64
    case uint64
    case bool
    /// Complex numbers of two float32 (real, then imaginary): NumPy's `complex64`.
    case complex64
    /// NumPy's `<U<length>`: each element `length` UTF-32 code points (little-endian), a
    /// shorter string padded with NUL code points.
    case unicode(length: Int)
    /// NumPy's `|S<length>`: each element `length` bytes, a shorter string padded with NULs.
    case bytes(length: Int)

    /// The numeric types, in the order error messages list them.
    public static let numericCases: [NPYDType] = [
        .float16, .float32, .float64, .uint8, .int8, .int16, .uint16, .int32, .uint32, .int64, .uint64, .bool,
        .complex64,
    ]

    /// The longest string element accepted, in code points or bytes (larger lengths are
    /// rejected as malformed rather than trusted to size an allocation).
    public static let maximumStringLength = Int(Int32.max) / 4

    /// NumPy's type code without the byte order: `f4`, `u1`, `U12`, `S5`.
    public var code: String {
        switch self {
        case .float16: return "f2"
        case .float32: return "f4"
        case .float64: return "f8"
        case .uint8: return "u1"
        case .int8: return "i1"
        case .int16: return "i2"
        case .uint16: return "u2"
        case .int32: return "i4"
        case .uint32: return "u4"
        case .int64: return "i8"
        case .uint64: return "u8"
        case .bool: return "b1"
        case .complex64: return "c8"
        case .unicode(let length): return "U\(length)"
        case .bytes(let length): return "S\(length)"
        }
    }

    /// Whether the elements are strings (``unicode(length:)`` or ``bytes(length:)``).
    public var isString: Bool {
        switch self {
        case .unicode, .bytes: return true
        default: return false
        }
    }

    /// Bytes per element.
    public var itemSize: Int {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .float16, .int16, .uint16: return 2
        case .float32, .int32, .uint32: return 4
        case .float64, .int64, .uint64, .complex64: return 8
        case .unicode(let length): return 4 * length
        case .bytes(let length): return length
        }
    }

    /// The `descr` string NumPy writes for this type: `<f4`, `|u1` for 1-byte types,
    /// `<U12`, `|S5`.
    public var descr: String {
        switch self {
        case .bytes: return "|" + code
        case .unicode: return "<" + code
        default: return (itemSize == 1 ? "|" : "<") + code
        }
    }

    public var description: String { descr }

    /// Parses a `descr` string such as `<f4`, `|u1`, `=i1`, `<u1`, `<U12` or `|S5`.
    ///
    /// Byte order is irrelevant for 1-byte types and bytes strings, so every order mark is
    /// accepted for them; multi-byte types and unicode strings must be little-endian (`<`,
    /// or `=` on a little-endian host).
    public init(descr: String) throws(NPYError) {
        let chars = Array(descr.unicodeScalars)
        guard chars.count >= 2 else { throw .unsupportedDType(descr) }
        let order = chars[0]
        let code = String(String.UnicodeScalarView(chars.dropFirst()))
        guard "<>=|".unicodeScalars.contains(order) else { throw .unsupportedDType(descr) }
        let type: NPYDType
        if let kind = chars.dropFirst().first, kind == "U" || kind == "S" {
            let digits = chars.dropFirst(2)
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.value >= 0x30 && $0.value <= 0x39 }),
                let length = Int(String(String.UnicodeScalarView(digits))), length <= Self.maximumStringLength
            else { throw .unsupportedDType(descr) }
            type = kind == "U" ? .unicode(length: length) : .bytes(length: length)
        } else {
            guard let numeric = Self.numericCases.first(where: { $0.code == code }) else {
                throw .unsupportedDType(descr)
            }
            type = numeric
        }
        let orderMatters: Bool
        switch type {
        case .bytes: orderMatters = false
        case .unicode: orderMatters = true
        default: orderMatters = type.itemSize > 1
        }
        if orderMatters {
            switch order {
            case "<": break
            case "=" where Self.hostIsLittleEndian: break
            case ">", "=": throw .bigEndian(descr)
            default: throw .unsupportedDType(descr) // `|` means "no byte order": invalid for multi-byte types
            }
        }
        self = type
    }

    static var hostIsLittleEndian: Bool { UInt16(1).littleEndian == 1 }
}
