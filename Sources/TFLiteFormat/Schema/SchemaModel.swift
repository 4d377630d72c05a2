extension Schema {
    /// The root table.
    package struct Model: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// Opens the root table of `reader` as a `Model` (the identifier is not checked here).
        package init(root reader: FlatBufferReader) throws(FlatBufferError) {
            table = try reader.rootTable(name: "Model")
        }

        package var version: UInt32 { get throws(FlatBufferError) { try table.scalar(0, "version", default: 0) } }
        package var operatorCodes: TableList<OperatorCode>? {
            get throws(FlatBufferError) { try table.list(1, "operator_codes", of: OperatorCode.self) }
        }
        package var subgraphs: TableList<SubGraph>? {
            get throws(FlatBufferError) { try table.list(2, "subgraphs", of: SubGraph.self) }
        }
        package var description: String? { get throws(FlatBufferError) { try table.string(3, "description") } }
        package var buffers: TableList<Buffer>? {
            get throws(FlatBufferError) { try table.list(4, "buffers", of: Buffer.self) }
        }
        /// Deprecated list of buffer indices holding metadata.
        package var metadataBuffer: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(5, "metadata_buffer", as: Int32.self) }
        }
        package var metadata: TableList<Metadata>? {
            get throws(FlatBufferError) { try table.list(6, "metadata", of: Metadata.self) }
        }
        package var signatureDefs: TableList<SignatureDef>? {
            get throws(FlatBufferError) { try table.list(7, "signature_defs", of: SignatureDef.self) }
        }
    }

    /// Raw bytes of constant tensors and metadata: inline `data`, or (for models over
    /// 2 GB) `offset`/`size` locating the bytes in the file after the FlatBuffer.
    package struct Buffer: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// Where the inline `data` bytes lie in the buffer, or nil when absent.
        package var dataRange: Range<Int>? { get throws(FlatBufferError) { try table.byteRange(0, "data") } }
        /// File offset of out-of-line data; meaningful only when greater than 1.
        package var offset: UInt64 { get throws(FlatBufferError) { try table.scalar(1, "offset", default: 0) } }
        package var size: UInt64 { get throws(FlatBufferError) { try table.scalar(2, "size", default: 0) } }
    }

    /// A named reference to a buffer holding model metadata.
    package struct Metadata: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        package var buffer: UInt32 { get throws(FlatBufferError) { try table.scalar(1, "buffer", default: 0) } }
    }

    /// A named entry point: tensor names mapped to tensors of one subgraph.
    package struct SignatureDef: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var inputs: TableList<TensorMap>? {
            get throws(FlatBufferError) { try table.list(0, "inputs", of: TensorMap.self) }
        }
        package var outputs: TableList<TensorMap>? {
            get throws(FlatBufferError) { try table.list(1, "outputs", of: TensorMap.self) }
        }
        package var signatureKey: String? { get throws(FlatBufferError) { try table.string(2, "signature_key") } }
        // Slot 3 is the deprecated `deprecated_tag`.
        package var subgraphIndex: UInt32 {
            get throws(FlatBufferError) { try table.scalar(4, "subgraph_index", default: 0) }
        }
    }

    package struct TensorMap: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var name: String? { get throws(FlatBufferError) { try table.string(0, "name") } }
        package var tensorIndex: UInt32 {
            get throws(FlatBufferError) { try table.scalar(1, "tensor_index", default: 0) }
        }
    }

    /// A builtin operator code or a custom operator name.
    package struct OperatorCode: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// The original 8-bit code; 127 (`PLACEHOLDER_FOR_GREATER_OP_CODES`) for newer ops.
        package var deprecatedBuiltinCode: Int8 {
            get throws(FlatBufferError) { try table.scalar(0, "deprecated_builtin_code", default: 0) }
        }
        package var customCode: String? { get throws(FlatBufferError) { try table.string(1, "custom_code") } }
        package var version: Int32 { get throws(FlatBufferError) { try table.scalar(2, "version", default: 1) } }
        package var builtinCode: Int32 {
            get throws(FlatBufferError) { try table.scalar(3, "builtin_code", default: 0) }
        }

        /// The effective code: the larger of the two fields. Files written before the
        /// 32-bit field existed leave it 0; newer files put 127 in the 8-bit field for
        /// codes that do not fit it.
        package var code: Int32 {
            get throws(FlatBufferError) { Swift.max(try builtinCode, Int32(try deprecatedBuiltinCode)) }
        }
    }
}
