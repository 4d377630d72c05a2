/// Why a `.npy` file could not be read or written. Every message names the fault.
public enum NPYError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case cannotRead(path: String, reason: String)
    /// The file could not be written.
    case cannotWrite(path: String, reason: String)
    /// The first six bytes are not `\x93NUMPY`.
    case badMagic
    /// The format version is not 1.0, 2.0 or 3.0.
    case unsupportedVersion(major: UInt8, minor: UInt8)
    /// The file ends before the named part is complete.
    case truncated(String)
    /// The header is not the Python dict literal the format prescribes.
    case malformedHeader(String)
    /// `descr` names a type this reader does not support (structured, complex, string...).
    case unsupportedDType(String)
    /// `descr` is a big-endian multi-byte type.
    case bigEndian(String)
    /// `fortran_order` is `True`; only C (row-major) order is supported.
    case fortranOrder
    /// A dimension is negative, or the element count or byte size overflows `Int`.
    case invalidShape(String)
    /// The data section's length is not `elementCount * itemSize`.
    case dataSizeMismatch(expected: Int, actual: Int)
    /// A typed accessor asked for a type other than the array's.
    case typeMismatch(expected: NPYDType, actual: NPYDType)
    /// A string element is not valid text: a unicode element holds a value that is not a
    /// Unicode scalar, or a bytes element read as text is not UTF-8.
    case invalidString(String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "cannot read '\(path)': \(reason)"
        case .cannotWrite(let path, let reason): return "cannot write '\(path)': \(reason)"
        case .badMagic: return "not a .npy file: missing the \\x93NUMPY magic string"
        case .unsupportedVersion(let major, let minor):
            return "unsupported .npy format version \(major).\(minor) (expected 1.0, 2.0 or 3.0)"
        case .truncated(let what): return "truncated .npy file: \(what)"
        case .malformedHeader(let what): return "malformed .npy header: \(what)"
        case .unsupportedDType(let descr):
            return
                "unsupported .npy dtype '\(descr)' (supported: \(NPYDType.numericCases.map(\.descr).joined(separator: " ")) <U<n> |S<n>)"
        case .bigEndian(let descr):
            return "big-endian .npy dtype '\(descr)' is not supported; save the array as little-endian"
        case .fortranOrder: return "Fortran-order .npy arrays are not supported; save with np.ascontiguousarray"
        case .invalidShape(let what): return "invalid .npy shape: \(what)"
        case .dataSizeMismatch(let expected, let actual):
            return ".npy data is \(actual) bytes, but dtype and shape need \(expected)"
        case .typeMismatch(let expected, let actual):
            return ".npy array has dtype \(actual.descr), not \(expected.descr)"
        case .invalidString(let what): return "invalid .npy string: \(what)"
        }
    }
}
