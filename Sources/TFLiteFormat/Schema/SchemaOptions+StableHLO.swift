// The `builtin_options_2` tables of the StableHLO operators that name other subgraphs:
// STABLEHLO_COMPOSITE, STABLEHLO_CASE, STABLEHLO_REDUCE_WINDOW and STABLEHLO_SCATTER.
// Absent fields take the schema defaults noted per field.

extension Schema {
    /// `StableHLOCompositeOptions`: name, decomposition_subgraph_index (int32, default 0),
    /// composite_attributes (a FlexBuffer, not kept), composite_attributes_format, version.
    package struct StableHLOCompositeOptions: Hashable, Sendable {
        package var name: String, decompositionSubgraphIndex: Int32, version: Int32
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            name = try t.string(0, "name") ?? ""
            decompositionSubgraphIndex = try t.scalar(1, "decomposition_subgraph_index", default: 0)
            version = try t.scalar(4, "version", default: 0)
        }
    }

    /// `StablehloCaseOptions`: branch_subgraph_indices (int32).
    package static func stablehloCaseBranches(_ t: FlatBufferTable) throws(FlatBufferError) -> [Int32] {
        try t.scalars(0, "branch_subgraph_indices", as: Int32.self) ?? []
    }

    /// `StablehloReduceWindowOptions`: per-dimension int64 lists (padding holds a low and a
    /// high value per dimension) and body_subgraph_index (int32, default 0).
    package struct StablehloReduceWindowOptions: Hashable, Sendable {
        package var windowDimensions: [Int64], windowStrides: [Int64], baseDilations: [Int64]
        package var windowDilations: [Int64], padding: [Int64], bodySubgraphIndex: Int32
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            windowDimensions = try t.scalars(0, "window_dimensions", as: Int64.self) ?? []
            windowStrides = try t.scalars(1, "window_strides", as: Int64.self) ?? []
            baseDilations = try t.scalars(2, "base_dilations", as: Int64.self) ?? []
            windowDilations = try t.scalars(3, "window_dilations", as: Int64.self) ?? []
            padding = try t.scalars(4, "padding", as: Int64.self) ?? []
            bodySubgraphIndex = try t.scalar(5, "body_subgraph_index", default: 0)
        }
    }

    /// `StablehloScatterOptions`.
    package struct StablehloScatterOptions: Hashable, Sendable {
        package var indicesAreSorted: Bool, updateWindowDims: [Int64], insertedWindowDims: [Int64]
        package var scatterDimsToOperandDims: [Int64], indexVectorDim: Int64, uniqueIndices: Bool
        package var updateComputationSubgraphIndex: Int32
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            indicesAreSorted = try t.bool(0, "indices_are_sorted")
            updateWindowDims = try t.scalars(1, "update_window_dims", as: Int64.self) ?? []
            insertedWindowDims = try t.scalars(2, "inserted_window_dims", as: Int64.self) ?? []
            scatterDimsToOperandDims = try t.scalars(3, "scatter_dims_to_operand_dims", as: Int64.self) ?? []
            indexVectorDim = try t.scalar(4, "index_vector_dim", default: 0)
            uniqueIndices = try t.bool(5, "unique_indices")
            updateComputationSubgraphIndex = try t.scalar(6, "update_computation_subgraph_index", default: 0)
        }
    }
}

extension Schema.BuiltinOptions2Type {
    package static let stablehloScatter: UInt8 = 7
    package static let stablehloReduceWindow: UInt8 = 13
    package static let stablehloComposite: UInt8 = 21
    package static let stablehloCase: UInt8 = 23
}
