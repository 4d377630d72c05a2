import Foundation

/// A validated, immutable TFLite model.
///
/// A `Model` is a value decoded once from the file's bytes: every index, size and
/// quantization array in it has been checked, so the runtime never re-validates the
/// file. Constant tensors are views into the bytes (``ModelBytes``), not copies.
///
/// `Model` is `Sendable`: one model can back many interpreters on many threads.
public struct Model: Sendable {
    /// The bytes the model was decoded from (kept alive by the model).
    public let bytes: ModelBytes
    /// Schema version (always 3 after validation).
    public let version: UInt32
    /// The converter's description string, if any.
    public let modelDescription: String?
    public let operatorCodes: [OperatorCode]
    public let subgraphs: [Subgraph]
    public let signatures: [Signature]
    public let metadata: [MetadataEntry]

    public init(
        bytes: ModelBytes, version: UInt32, modelDescription: String?, operatorCodes: [OperatorCode],
        subgraphs: [Subgraph], signatures: [Signature], metadata: [MetadataEntry]
    ) {
        self.bytes = bytes; self.version = version; self.modelDescription = modelDescription
        self.operatorCodes = operatorCodes; self.subgraphs = subgraphs
        self.signatures = signatures; self.metadata = metadata
    }

    /// Memory-maps and decodes the model file at `path`.
    public init(contentsOfFile path: String, limits: ModelLimits = ModelLimits()) throws(ModelError) {
        try self.init(bytes: ModelBytes(contentsOfFile: path), limits: limits)
    }

    /// Decodes a model from `data`, which the model keeps alive.
    public init(data: Data, limits: ModelLimits = ModelLimits()) throws(ModelError) {
        try self.init(bytes: ModelBytes(data: data), limits: limits)
    }

    /// Decodes and validates `bytes`.
    public init(bytes: ModelBytes, limits: ModelLimits = ModelLimits()) throws(ModelError) {
        self = try ModelDecoder(bytes: bytes, limits: limits).decode()
    }

    /// The main subgraph (index 0), which the interpreter runs.
    public var mainSubgraph: Subgraph { subgraphs[0] }

    /// The `min_runtime_version` metadata string, NUL padding removed.
    public var minRuntimeVersion: String? {
        guard let entry = metadata.first(where: { $0.name == "min_runtime_version" }), let view = entry.data else {
            return nil
        }
        let bytes = view.bytes.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
