import TFLiteFormat

/// Why a model's TFLite metadata (the `TFLITE_METADATA` entry) could not be read.
///
/// Only ``Model/tfliteMetadata`` reports these: metadata never makes a model fail to
/// load, since the graph does not depend on it.
public enum ModelMetadataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry points to an empty buffer.
    case emptyBuffer
    /// Bytes 4..<8 are not `M001` (or the buffer is shorter than 8 bytes: `found` is empty).
    case wrongIdentifier(found: String)
    /// Not a well-formed FlatBuffer: an offset, vector or string outside the buffer, a
    /// bad vtable, a missing terminator. The message names the table path and field.
    case malformed(String)
    /// Readable, but inconsistent with the schema (a union type whose table is missing).
    case invalid(String)
    /// A FlatBuffers verifier limit (depth, tables, apparent size) was exceeded.
    case limitExceeded(String)

    public var description: String {
        switch self {
        case .emptyBuffer: return "TFLite metadata: the TFLITE_METADATA entry's buffer is empty"
        case .wrongIdentifier(let found): return "TFLite metadata: file identifier is '\(found)', expected 'M001'"
        case .malformed(let m): return "malformed TFLite metadata: \(m)"
        case .invalid(let m): return "invalid TFLite metadata: \(m)"
        case .limitExceeded(let m): return "TFLite metadata exceeds a limit: \(m)"
        }
    }

    init(_ error: FlatBufferError) {
        self = error.isLimit ? .limitExceeded(error.message) : .malformed(error.message)
    }
}

/// A model's TFLite metadata (`metadata_schema.fbs`), decoded into plain values: what the
/// model is, and how to pre-process its inputs and read its outputs.
///
/// Only the parts swift-tflite uses are decoded (tensor `content` and the tokenizer
/// options are not); process units of other types are kept as ``ProcessUnit/other(typeID:)``.
public struct ModelMetadata: Hashable, Sendable {
    public var name: String?
    public var description: String?
    public var version: String?
    public var author: String?
    public var license: String?
    /// The oldest metadata parser that understands every field written.
    public var minParserVersion: String?
    public var associatedFiles: [AssociatedFile]
    /// One per model subgraph that has metadata; index 0 is the main subgraph.
    public var subgraphs: [Subgraph]

    public init(
        name: String?, description: String?, version: String?, author: String?, license: String?,
        minParserVersion: String?, associatedFiles: [AssociatedFile], subgraphs: [Subgraph]
    ) {
        self.name = name; self.description = description; self.version = version; self.author = author
        self.license = license; self.minParserVersion = minParserVersion
        self.associatedFiles = associatedFiles; self.subgraphs = subgraphs
    }

    public struct Subgraph: Hashable, Sendable {
        public var name: String?
        public var description: String?
        /// In the order of the subgraph's inputs.
        public var inputs: [Tensor]
        /// In the order of the subgraph's outputs.
        public var outputs: [Tensor]
        public var associatedFiles: [AssociatedFile]

        public init(
            name: String?, description: String?, inputs: [Tensor], outputs: [Tensor], associatedFiles: [AssociatedFile]
        ) {
            self.name = name; self.description = description
            self.inputs = inputs; self.outputs = outputs; self.associatedFiles = associatedFiles
        }
    }

    public struct Tensor: Hashable, Sendable {
        public var name: String?
        public var description: String?
        public var dimensionNames: [String]
        /// Out-of-graph processing, in order.
        public var processUnits: [ProcessUnit]
        public var stats: Stats?
        public var associatedFiles: [AssociatedFile]

        public init(
            name: String?, description: String?, dimensionNames: [String], processUnits: [ProcessUnit],
            stats: Stats?, associatedFiles: [AssociatedFile]
        ) {
            self.name = name; self.description = description; self.dimensionNames = dimensionNames
            self.processUnits = processUnits; self.stats = stats; self.associatedFiles = associatedFiles
        }

        /// The first normalization unit's `(mean, std)`, as written (not validated).
        public var normalization: (mean: [Float], std: [Float])? {
            for unit in processUnits {
                if case .normalization(let mean, let std) = unit { return (mean, std) }
            }
            return nil
        }
    }

    /// One entry of a tensor's `process_units` (the `ProcessUnitOptions` union).
    public enum ProcessUnit: Hashable, Sendable {
        /// `(x - mean[c]) / std[c]` per channel; one value applies to every channel.
        case normalization(mean: [Float], std: [Float])
        /// Sigmoid score calibration; `transformation` is IDENTITY 0, LOG 1, INVERSE_LOGISTIC 2.
        case scoreCalibration(transformation: Int8, defaultScore: Float)
        /// Results scoring below `globalThreshold` are meant to be dropped.
        case scoreThresholding(globalThreshold: Float)
        /// A type not decoded here (tokenizers, later schema additions) or NONE (0).
        case other(typeID: UInt8)
    }

    /// Per-channel value range; one value applies to every channel.
    public struct Stats: Hashable, Sendable {
        public var max: [Float]
        public var min: [Float]

        public init(max: [Float], min: [Float]) { self.max = max; self.min = min }
    }

    public struct AssociatedFile: Hashable, Sendable {
        public var name: String?
        public var description: String?
        /// UNKNOWN 0, DESCRIPTIONS 1, TENSOR_AXIS_LABELS 2, TENSOR_VALUE_LABELS 3,
        /// TENSOR_AXIS_SCORE_CALIBRATION 4, VOCABULARY 5.
        public var type: Int8
        public var locale: String?

        public init(name: String?, description: String?, type: Int8, locale: String?) {
            self.name = name; self.description = description; self.type = type; self.locale = locale
        }
    }

    /// The metadata of input `index` of the main subgraph, if the metadata describes it.
    public func input(_ index: Int) -> Tensor? {
        guard let main = subgraphs.first, main.inputs.indices.contains(index) else { return nil }
        return main.inputs[index]
    }
}

extension ModelMetadata {
    /// Decodes a metadata FlatBuffer (identifier `M001`). Every read is bounds-checked.
    public init(bytes: UnsafeRawBufferPointer, limits: FlatBufferLimits = FlatBufferLimits()) throws(ModelMetadataError)
    {
        let reader = FlatBufferReader(bytes: bytes, limits: limits)
        guard let identifier = reader.fileIdentifier else { throw .wrongIdentifier(found: "") }
        guard identifier == MetadataSchema.fileIdentifier else {
            throw .wrongIdentifier(found: String(decoding: identifier, as: UTF8.self))
        }
        do {
            self = try MetadataDecoder.decode(MetadataSchema.ModelMetadata(root: reader))
        } catch let error as ModelMetadataError {
            throw error
        } catch let error as FlatBufferError {
            throw ModelMetadataError(error)
        } catch {
            throw .invalid("\(error)")
        }
    }

    /// Decodes a metadata FlatBuffer held in an array.
    public init(_ bytes: [UInt8], limits: FlatBufferLimits = FlatBufferLimits()) throws(ModelMetadataError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ModelMetadataError) -> ModelMetadata in try ModelMetadata(bytes: raw, limits: limits) }
        }
        self = try result.get()
    }
}

extension Model {
    /// The model's TFLite metadata: the first `TFLITE_METADATA` entry's buffer decoded,
    /// or `nil` when the model has no such entry.
    ///
    /// Decoded on each access (it is small); a damaged buffer throws here and only here —
    /// the model itself loaded and runs regardless.
    public var tfliteMetadata: ModelMetadata? {
        get throws(ModelMetadataError) {
            guard let entry = metadata.first(where: { $0.name == MetadataSchema.entryName }) else { return nil }
            guard let view = entry.data else { throw .emptyBuffer }
            // The pointer is valid while the model bytes are alive; `view` holds them.
            defer { withExtendedLifetime(view) {} }
            return try ModelMetadata(bytes: view.bytes)
        }
    }
}

/// Reads the metadata views into ``ModelMetadata`` values.
enum MetadataDecoder {
    typealias S = MetadataSchema

    static func decode(_ root: S.ModelMetadata) throws -> ModelMetadata {
        ModelMetadata(
            name: try root.name, description: try root.description, version: try root.version,
            author: try root.author, license: try root.license, minParserVersion: try root.minParserVersion,
            associatedFiles: try files(root.associatedFiles),
            subgraphs: try list(root.subgraphMetadata, subgraph))
    }

    static func list<V: FlatBufferTableView, T>(_ list: Schema.TableList<V>?, _ each: (V) throws -> T) throws -> [T] {
        guard let list else { return [] }
        var result: [T] = []
        result.reserveCapacity(list.count)
        for i in 0 ..< list.count { result.append(try each(try list.element(i))) }
        return result
    }

    static func files(_ l: Schema.TableList<S.AssociatedFile>?) throws -> [ModelMetadata.AssociatedFile] {
        try list(l) { f in
            ModelMetadata.AssociatedFile(
                name: try f.name, description: try f.description, type: try f.type, locale: try f.locale)
        }
    }

    static func subgraph(_ s: S.SubGraphMetadata) throws -> ModelMetadata.Subgraph {
        ModelMetadata.Subgraph(
            name: try s.name, description: try s.description,
            inputs: try list(s.inputTensorMetadata, tensor), outputs: try list(s.outputTensorMetadata, tensor),
            associatedFiles: try files(s.associatedFiles))
    }

    static func tensor(_ t: S.TensorMetadata) throws -> ModelMetadata.Tensor {
        let stats = try t.stats.map { s in ModelMetadata.Stats(max: try s.max ?? [], min: try s.min ?? []) }
        return ModelMetadata.Tensor(
            name: try t.name, description: try t.description, dimensionNames: try t.dimensionNames ?? [],
            processUnits: try list(t.processUnits, processUnit), stats: stats,
            associatedFiles: try files(t.associatedFiles))
    }

    /// A known union type must come with its table; an unknown one is kept by id.
    static func processUnit(_ unit: S.ProcessUnit) throws -> ModelMetadata.ProcessUnit {
        let (type, table) = try unit.options
        typealias T = S.ProcessUnitOptionsType
        guard [T.normalization, T.scoreCalibration, T.scoreThresholding].contains(type) else {
            return .other(typeID: type)
        }
        guard let table else {
            throw ModelMetadataError.invalid("\(unit.table.path): options type \(T.name(type)) but no options table")
        }
        switch type {
        case T.normalization:
            let n = S.NormalizationOptions(table)
            return .normalization(mean: try n.mean ?? [], std: try n.std ?? [])
        case T.scoreCalibration:
            let c = S.ScoreCalibrationOptions(table)
            return .scoreCalibration(transformation: try c.scoreTransformation, defaultScore: try c.defaultScore)
        default:
            return .scoreThresholding(globalThreshold: try S.ScoreThresholdingOptions(table).globalScoreThreshold)
        }
    }
}
