/// A tensor element type, as stored in the `TensorType` field of a `.tflite` file.
///
/// This is a raw-value wrapper rather than a closed enum so that a model using a type
/// this version does not know still loads (and `inspect` can show it); the runtime
/// rejects such tensors when it prepares an operator that touches them.
public struct ElementType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }

    public static let float32 = ElementType(rawValue: 0)
    public static let float16 = ElementType(rawValue: 1)
    public static let int32 = ElementType(rawValue: 2)
    public static let uint8 = ElementType(rawValue: 3)
    public static let int64 = ElementType(rawValue: 4)
    public static let string = ElementType(rawValue: 5)
    public static let bool = ElementType(rawValue: 6)
    public static let int16 = ElementType(rawValue: 7)
    public static let complex64 = ElementType(rawValue: 8)
    public static let int8 = ElementType(rawValue: 9)
    public static let float64 = ElementType(rawValue: 10)
    public static let complex128 = ElementType(rawValue: 11)
    public static let uint64 = ElementType(rawValue: 12)
    public static let resource = ElementType(rawValue: 13)
    public static let variant = ElementType(rawValue: 14)
    public static let uint32 = ElementType(rawValue: 15)
    public static let uint16 = ElementType(rawValue: 16)
    public static let int4 = ElementType(rawValue: 17)
    public static let bfloat16 = ElementType(rawValue: 18)

    private static let names: [String] = [
        "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16",
        "COMPLEX64", "INT8", "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT",
        "UINT32", "UINT16", "INT4", "BFLOAT16", "INT2", "UINT4", "FLOAT8_E4M3FN", "FLOAT8_E5M2",
    ]

    /// TFLite's upper-case name (`FLOAT32`, `INT8`, ...), or `TYPE_<n>` for an unknown code.
    public var name: String {
        let i = Int(rawValue)
        return i >= 0 && i < Self.names.count ? Self.names[i] : "TYPE_\(rawValue)"
    }

    public var description: String { name }

    /// Bytes per element for fixed-size numeric types, and 4 for a resource (the `Int32`
    /// id of a variable or table the interpreter keeps, as in LiteRT); `nil` for strings,
    /// variants, sub-byte types and unknown codes (whose storage size cannot be derived
    /// from the shape alone).
    public var byteSize: Int? {
        switch self {
        case .bool, .uint8, .int8: return 1
        case .float16, .int16, .uint16, .bfloat16: return 2
        case .float32, .int32, .uint32, .resource: return 4
        case .float64, .int64, .uint64, .complex64: return 8
        case .complex128: return 16
        default: return nil
        }
    }
}
