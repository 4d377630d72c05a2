extension Schema {
    /// A graph: tensors, its input and output tensor indices, operators in execution order.
    package struct SubGraph: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var tensors: TableList<Tensor>? {
            get throws(FlatBufferError) { try table.list(0, "tensors", of: Tensor.self) }
        }
        package var inputs: [Int32]? { get throws(FlatBufferError) { try table.scalars(1, "inputs", as: Int32.self) } }
        package var outputs: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(2, "outputs", as: Int32.self) }
        }
        package var operators: TableList<Operator>? {
            get throws(FlatBufferError) { try table.list(3, "operators", of: Operator.self) }
        }
        package var name: String? { get throws(FlatBufferError) { try table.string(4, "name") } }
    }

    /// One node of a subgraph.
    package struct Operator: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var opcodeIndex: UInt32 {
            get throws(FlatBufferError) { try table.scalar(0, "opcode_index", default: 0) }
        }
        /// Tensor indices; -1 marks an omitted optional input.
        package var inputs: [Int32]? { get throws(FlatBufferError) { try table.scalars(1, "inputs", as: Int32.self) } }
        package var outputs: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(2, "outputs", as: Int32.self) }
        }
        /// The `builtin_options` union: type id (see `BuiltinOptionsType`) and table.
        package var builtinOptions: (type: UInt8, table: FlatBufferTable?) {
            get throws(FlatBufferError) { try table.union(3, "builtin_options") }
        }
        /// Where the inline custom options bytes lie, or nil when absent.
        package var customOptionsRange: Range<Int>? {
            get throws(FlatBufferError) { try table.byteRange(5, "custom_options") }
        }
        /// 0 = FlexBuffers, the only format defined.
        package var customOptionsFormat: Int8 {
            get throws(FlatBufferError) { try table.scalar(6, "custom_options_format", default: 0) }
        }
        package var mutatingVariableInputs: [Bool]? {
            get throws(FlatBufferError) { try table.bools(7, "mutating_variable_inputs") }
        }
        package var intermediates: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(8, "intermediates", as: Int32.self) }
        }
        /// File offset of out-of-line custom options (models over 2 GB); valid when > 1.
        package var largeCustomOptionsOffset: UInt64 {
            get throws(FlatBufferError) { try table.scalar(9, "large_custom_options_offset", default: 0) }
        }
        package var largeCustomOptionsSize: UInt64 {
            get throws(FlatBufferError) { try table.scalar(10, "large_custom_options_size", default: 0) }
        }
        /// The `builtin_options_2` union (StableHLO-era options): type id and table.
        package var builtinOptions2: (type: UInt8, table: FlatBufferTable?) {
            get throws(FlatBufferError) { try table.union(11, "builtin_options_2") }
        }
    }
}
