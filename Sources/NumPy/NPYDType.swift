/// An element type of a `.npy` array, limited to the fixed-size numeric types that
/// model inputs and outputs use.
///
/// Multi-byte types are always little-endian in memory and on disk; a big-endian file
/// is rejected rather than silently byte-swapped.
public enum NPYDType: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case float16 = "f2"
    case float32 = "f4"
    case float64 = "f8"
    case uint8 = "u1"
    case int8 = "i1"
    case int16 = "i2"
    case uint16 = "u2"
    case int32 = "i4"
    case uint32 = "u4"
    case int64 = "i8"
    case uint64 = "u8"
    case bool = "b1"
    /// Complex numbers of two float32 (real, then imaginary): NumPy's `complex64`.
    case complex64 = "c8"

    /// Bytes per element.
    public var itemSize: Int {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .float16, .int16, .uint16: return 2
        case .float32, .int32, .uint32: return 4
        case .float64, .int64, .uint64, .complex64: return 8
        }
    }

    /// The `descr` string NumPy writes for this type: `<f4`, or `|u1` for 1-byte types.
    public var descr: String {
        (itemSize == 1 ? "|" : "<") + rawValue
    }

    public var description: String { descr }

    /// Parses a `descr` string such as `<f4`, `|u1`, `=i1` or `<u1`.
    ///
    /// Byte order is irrelevant for 1-byte types, so every order mark is accepted for
    /// them; multi-byte types must be little-endian (`<`, or `=` on a little-endian host).
    public init(descr: String) throws(NPYError) {
        let chars = Array(descr.unicodeScalars)
        guard chars.count >= 2 else { throw .unsupportedDType(descr) }
        let order = chars[0]
        let code = String(String.UnicodeScalarView(chars.dropFirst()))
        guard "<>=|".unicodeScalars.contains(order) else { throw .unsupportedDType(descr) }
        guard let type = NPYDType(rawValue: code) else { throw .unsupportedDType(descr) }
        if type.itemSize > 1 {
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
