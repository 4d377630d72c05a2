/// Views over the TFLite *metadata* schema (`metadata_schema.fbs`, file identifier
/// `M001`): the FlatBuffer a model carries in the buffer of its `TFLITE_METADATA`
/// metadata entry, describing inputs and outputs for pre- and post-processing.
///
/// Only the tables swift-tflite uses are viewed; slots are the schema's declaration
/// indices, as for ``Schema``. See `spec/format.md` §5.
public enum MetadataSchema {
    /// The file identifier at bytes 4..<8 of a metadata FlatBuffer.
    public static let fileIdentifier: [UInt8] = Array("M001".utf8)
    /// The name of the `Model.metadata` entry whose buffer holds the metadata FlatBuffer.
    public static let entryName = "TFLITE_METADATA"

    /// Type ids of the `ProcessUnitOptions` union.
    public enum ProcessUnitOptionsType {
        public static let normalization: UInt8 = 1
        public static let scoreCalibration: UInt8 = 2
        public static let scoreThresholding: UInt8 = 3
        /// Names of ids 1…6 (tokenizers are 4–6), for messages.
        public static let names = ["NONE", "NormalizationOptions", "ScoreCalibrationOptions", "ScoreThresholdingOptions",
                                   "BertTokenizerOptions", "SentencePieceTokenizerOptions", "RegexTokenizerOptions"]

        public static func name(_ id: UInt8) -> String {
            Int(id) < names.count ? names[Int(id)] : "ProcessUnitOptions_\(id)"
        }
    }

    /// The root table.
    public struct ModelMetadata: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        /// Opens the root table of `reader` (the identifier is not checked here).
        public init(root reader: FlatBufferReader) throws(FlatBufferError) {
            table = try reader.rootTable(name: "ModelMetadata")
        }

        public var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        public var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        public var version: String? { get throws(FlatBufferError) { try table.string(2, "version") } }
        /// One entry per model subgraph; entry 0 describes the main subgraph.
        public var subgraphMetadata: Schema.TableList<SubGraphMetadata>? { get throws(FlatBufferError) { try table.list(3, "subgraph_metadata", of: SubGraphMetadata.self) } }
        public var author: String? { get throws(FlatBufferError) { try table.string(4, "author") } }
        public var license: String? { get throws(FlatBufferError) { try table.string(5, "license") } }
        public var associatedFiles: Schema.TableList<AssociatedFile>? { get throws(FlatBufferError) { try table.list(6, "associated_files", of: AssociatedFile.self) } }
        public var minParserVersion: String? { get throws(FlatBufferError) { try table.string(7, "min_parser_version") } }
    }

    public struct SubGraphMetadata: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        public var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        public var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        /// In the order of the subgraph's `inputs`.
        public var inputTensorMetadata: Schema.TableList<TensorMetadata>? { get throws(FlatBufferError) { try table.list(2, "input_tensor_metadata", of: TensorMetadata.self) } }
        /// In the order of the subgraph's `outputs`.
        public var outputTensorMetadata: Schema.TableList<TensorMetadata>? { get throws(FlatBufferError) { try table.list(3, "output_tensor_metadata", of: TensorMetadata.self) } }
        public var associatedFiles: Schema.TableList<AssociatedFile>? { get throws(FlatBufferError) { try table.list(4, "associated_files", of: AssociatedFile.self) } }
        // Slots 5–8 (subgraph-level process units, tensor groups) are not read.
    }

    public struct TensorMetadata: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        public var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        public var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        public var dimensionNames: [String]? { get throws(FlatBufferError) { try table.strings(2, "dimension_names") } }
        // Slot 3 (`content`) is not read.
        public var processUnits: Schema.TableList<ProcessUnit>? { get throws(FlatBufferError) { try table.list(4, "process_units", of: ProcessUnit.self) } }
        public var stats: Stats? { get throws(FlatBufferError) { try table.table(5, "stats").map(Stats.init) } }
        public var associatedFiles: Schema.TableList<AssociatedFile>? { get throws(FlatBufferError) { try table.list(6, "associated_files", of: AssociatedFile.self) } }
    }

    /// One out-of-graph processing step: the `ProcessUnitOptions` union in slots 0 and 1.
    public struct ProcessUnit: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        /// Type id (see ``ProcessUnitOptionsType``) and table.
        public var options: (type: UInt8, table: FlatBufferTable?) { get throws(FlatBufferError) { try table.union(0, "options") } }
    }

    /// `(x - mean[c]) / std[c]` per channel; a single value applies to every channel.
    public struct NormalizationOptions: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        public var mean: [Float]? { get throws(FlatBufferError) { try table.floats(0, "mean") } }
        public var std: [Float]? { get throws(FlatBufferError) { try table.floats(1, "std") } }
    }

    public struct ScoreCalibrationOptions: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        /// IDENTITY 0, LOG 1, INVERSE_LOGISTIC 2.
        public var scoreTransformation: Int8 { get throws(FlatBufferError) { try table.scalar(0, "score_transformation", default: 0) } }
        public var defaultScore: Float { get throws(FlatBufferError) { try table.float(1, "default_score") } }
    }

    public struct ScoreThresholdingOptions: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        public var globalScoreThreshold: Float { get throws(FlatBufferError) { try table.float(0, "global_score_threshold") } }
    }

    /// Per-channel value range of a tensor.
    public struct Stats: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        public var max: [Float]? { get throws(FlatBufferError) { try table.floats(0, "max") } }
        public var min: [Float]? { get throws(FlatBufferError) { try table.floats(1, "min") } }
    }

    /// A file packed with the model (labels, vocabularies…), named here.
    public struct AssociatedFile: FlatBufferTableView {
        public let table: FlatBufferTable
        public init(_ table: FlatBufferTable) { self.table = table }

        public var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        public var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        /// UNKNOWN 0, DESCRIPTIONS 1, TENSOR_AXIS_LABELS 2, TENSOR_VALUE_LABELS 3,
        /// TENSOR_AXIS_SCORE_CALIBRATION 4, VOCABULARY 5.
        public var type: Int8 { get throws(FlatBufferError) { try table.scalar(2, "type", default: 0) } }
        public var locale: String? { get throws(FlatBufferError) { try table.string(3, "locale") } }
    }
}
