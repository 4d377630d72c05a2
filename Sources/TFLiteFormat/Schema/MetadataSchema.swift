/// Views over the TFLite *metadata* schema (`metadata_schema.fbs`, file identifier
/// `M001`): the FlatBuffer a model carries in the buffer of its `TFLITE_METADATA`
/// metadata entry, describing inputs and outputs for pre- and post-processing.
///
/// Only the tables swift-tflite uses are viewed; slots are the schema's declaration
/// indices, as for ``Schema``. See `spec/format.md` §5.
package enum MetadataSchema {
    /// The file identifier at bytes 4..<8 of a metadata FlatBuffer.
    package static let fileIdentifier: [UInt8] = Array("M001".utf8)
    /// The name of the `Model.metadata` entry whose buffer holds the metadata FlatBuffer.
    package static let entryName = "TFLITE_METADATA"

    /// Type ids of the `ProcessUnitOptions` union.
    package enum ProcessUnitOptionsType {
        package static let normalization: UInt8 = 1
        package static let scoreCalibration: UInt8 = 2
        package static let scoreThresholding: UInt8 = 3
        /// Names of ids 1…6 (tokenizers are 4–6), for messages.
        package static let names = [
            "NONE", "NormalizationOptions", "ScoreCalibrationOptions", "ScoreThresholdingOptions",
            "BertTokenizerOptions", "SentencePieceTokenizerOptions", "RegexTokenizerOptions",
        ]

        package static func name(_ id: UInt8) -> String {
            Int(id) < names.count ? names[Int(id)] : "ProcessUnitOptions_\(id)"
        }
    }

    /// The root table.
    package struct ModelMetadata: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// Opens the root table of `reader` (the identifier is not checked here).
        package init(root reader: FlatBufferReader) throws(FlatBufferError) {
            table = try reader.rootTable(name: "ModelMetadata")
        }

        package var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        package var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        package var version: String? { get throws(FlatBufferError) { try table.string(2, "version") } }
        /// One entry per model subgraph; entry 0 describes the main subgraph.
        package var subgraphMetadata: Schema.TableList<SubGraphMetadata>? {
            get throws(FlatBufferError) { try table.list(3, "subgraph_metadata", of: SubGraphMetadata.self) }
        }
        package var author: String? { get throws(FlatBufferError) { try table.string(4, "author") } }
        package var license: String? { get throws(FlatBufferError) { try table.string(5, "license") } }
        package var associatedFiles: Schema.TableList<AssociatedFile>? {
            get throws(FlatBufferError) { try table.list(6, "associated_files", of: AssociatedFile.self) }
        }
        package var minParserVersion: String? {
            get throws(FlatBufferError) { try table.string(7, "min_parser_version") }
        }
    }

    package struct SubGraphMetadata: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        package var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        /// In the order of the subgraph's `inputs`.
        package var inputTensorMetadata: Schema.TableList<TensorMetadata>? {
            get throws(FlatBufferError) { try table.list(2, "input_tensor_metadata", of: TensorMetadata.self) }
        }
        /// In the order of the subgraph's `outputs`.
        package var outputTensorMetadata: Schema.TableList<TensorMetadata>? {
            get throws(FlatBufferError) { try table.list(3, "output_tensor_metadata", of: TensorMetadata.self) }
        }
        package var associatedFiles: Schema.TableList<AssociatedFile>? {
            get throws(FlatBufferError) { try table.list(4, "associated_files", of: AssociatedFile.self) }
        }
        // Slots 5–8 (subgraph-level process units, tensor groups) are not read.
    }

    package struct TensorMetadata: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        package var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        package var dimensionNames: [String]? {
            get throws(FlatBufferError) { try table.strings(2, "dimension_names") }
        }
        // Slot 3 (`content`) is not read.
        package var processUnits: Schema.TableList<ProcessUnit>? {
            get throws(FlatBufferError) { try table.list(4, "process_units", of: ProcessUnit.self) }
        }
        package var stats: Stats? { get throws(FlatBufferError) { try table.table(5, "stats").map(Stats.init) } }
        package var associatedFiles: Schema.TableList<AssociatedFile>? {
            get throws(FlatBufferError) { try table.list(6, "associated_files", of: AssociatedFile.self) }
        }
    }

    /// One out-of-graph processing step: the `ProcessUnitOptions` union in slots 0 and 1.
    package struct ProcessUnit: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// Type id (see ``ProcessUnitOptionsType``) and table.
        package var options: (type: UInt8, table: FlatBufferTable?) {
            get throws(FlatBufferError) { try table.union(0, "options") }
        }
    }

    /// `(x - mean[c]) / std[c]` per channel; a single value applies to every channel.
    package struct NormalizationOptions: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var mean: [Float]? { get throws(FlatBufferError) { try table.floats(0, "mean") } }
        package var std: [Float]? { get throws(FlatBufferError) { try table.floats(1, "std") } }
    }

    package struct ScoreCalibrationOptions: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// IDENTITY 0, LOG 1, INVERSE_LOGISTIC 2.
        package var scoreTransformation: Int8 {
            get throws(FlatBufferError) { try table.scalar(0, "score_transformation", default: 0) }
        }
        package var defaultScore: Float { get throws(FlatBufferError) { try table.float(1, "default_score") } }
    }

    package struct ScoreThresholdingOptions: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var globalScoreThreshold: Float {
            get throws(FlatBufferError) { try table.float(0, "global_score_threshold") }
        }
    }

    /// Per-channel value range of a tensor.
    package struct Stats: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var max: [Float]? { get throws(FlatBufferError) { try table.floats(0, "max") } }
        package var min: [Float]? { get throws(FlatBufferError) { try table.floats(1, "min") } }
    }

    /// A file packed with the model (labels, vocabularies…), named here.
    package struct AssociatedFile: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        package var description: String? { get throws(FlatBufferError) { try table.string(1, "description") } }
        /// UNKNOWN 0, DESCRIPTIONS 1, TENSOR_AXIS_LABELS 2, TENSOR_VALUE_LABELS 3,
        /// TENSOR_AXIS_SCORE_CALIBRATION 4, VOCABULARY 5.
        package var type: Int8 { get throws(FlatBufferError) { try table.scalar(2, "type", default: 0) } }
        package var locale: String? { get throws(FlatBufferError) { try table.string(3, "locale") } }
    }
}
