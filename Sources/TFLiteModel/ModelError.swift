/// Why a model could not be loaded. Every message locates the fault.
public enum ModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened, sized or mapped.
    case cannotOpenFile(path: String, reason: String)
    /// The bytes are not a well-formed FlatBuffer of the TFLite schema
    /// (out-of-bounds offset, truncated vector, missing string terminator...).
    case malformed(String)
    /// Bytes 4..<8 are not `TFL3`.
    case wrongIdentifier(found: String)
    /// `Model.version` is not 3.
    case unsupportedSchemaVersion(UInt32)
    /// Structurally readable, but inconsistent: an index out of range, a buffer whose
    /// size does not match its tensor, inconsistent quantization, a dangling tensor...
    case invalidModel(String)
    /// A limit of `ModelLimits` was exceeded (depth, table count, rank, byte size).
    case limitExceeded(String)

    public var description: String {
        switch self {
        case .cannotOpenFile(let path, let reason): return "cannot open model file '\(path)': \(reason)"
        case .malformed(let message): return "malformed model: \(message)"
        case .wrongIdentifier(let found): return "not a TFLite model: file identifier is '\(found)', expected 'TFL3'"
        case .unsupportedSchemaVersion(let v): return "unsupported schema version \(v) (expected 3)"
        case .invalidModel(let message): return "invalid model: \(message)"
        case .limitExceeded(let message): return "model exceeds a limit: \(message)"
        }
    }
}

/// Limits enforced while decoding, like the official FlatBuffers verifier's.
public struct ModelLimits: Hashable, Sendable {
    /// Maximum nesting depth of tables (the root table is depth 1).
    public var maxDepth: Int = 64
    /// Maximum number of tables visited.
    public var maxTables: Int = 1_000_000
    /// Maximum tensor rank.
    public var maxRank: Int = 8
    /// Maximum byte size of one tensor (declared shape × element size).
    public var maxTensorBytes: Int = 1 << 34
    public init() {}
}
