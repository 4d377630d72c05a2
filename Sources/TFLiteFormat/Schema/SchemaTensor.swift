extension Schema {
    package struct Tensor: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var shape: [Int32]? { get throws(FlatBufferError) { try table.scalars(0, "shape", as: Int32.self) } }
        /// `TensorType` code (FLOAT32 = 0, INT8 = 9, ...).
        package var type: Int8 { get throws(FlatBufferError) { try table.scalar(1, "type", default: 0) } }
        /// Index into `Model.buffers`; 0 is the empty sentinel (no constant data).
        package var buffer: UInt32 { get throws(FlatBufferError) { try table.scalar(2, "buffer", default: 0) } }
        package var name: String? { get throws(FlatBufferError) { try table.string(3, "name") } }
        package var quantization: QuantizationParameters? {
            get throws(FlatBufferError) { try table.table(4, "quantization").map(QuantizationParameters.init) }
        }
        package var isVariable: Bool { get throws(FlatBufferError) { try table.bool(5, "is_variable") } }
        package var sparsity: SparsityParameters? {
            get throws(FlatBufferError) { try table.table(6, "sparsity").map(SparsityParameters.init) }
        }
        /// The shape with -1 for dimensions unknown until run time.
        package var shapeSignature: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(7, "shape_signature", as: Int32.self) }
        }
        /// Distinguishes a scalar (rank 0, `true`) from an unknown rank (`false`) when `shape` is empty.
        package var hasRank: Bool { get throws(FlatBufferError) { try table.bool(8, "has_rank") } }
    }

    /// Affine quantization: `real = scale * (q - zero_point)`, per tensor or per slice of
    /// `quantized_dimension`.
    package struct QuantizationParameters: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var min: [Float]? { get throws(FlatBufferError) { try table.floats(0, "min") } }
        package var max: [Float]? { get throws(FlatBufferError) { try table.floats(1, "max") } }
        package var scale: [Float]? { get throws(FlatBufferError) { try table.floats(2, "scale") } }
        package var zeroPoint: [Int64]? {
            get throws(FlatBufferError) { try table.scalars(3, "zero_point", as: Int64.self) }
        }
        /// `QuantizationDetails` type id (0 = none); when set, the affine fields are not used.
        package var detailsType: UInt8 {
            get throws(FlatBufferError) { try table.scalar(4, "details_type", default: 0) }
        }
        package var quantizedDimension: Int32 {
            get throws(FlatBufferError) { try table.scalar(6, "quantized_dimension", default: 0) }
        }
    }

    /// Sparse storage of a constant tensor (a variant of the TACO format).
    package struct SparsityParameters: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        package var traversalOrder: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(0, "traversal_order", as: Int32.self) }
        }
        package var blockMap: [Int32]? {
            get throws(FlatBufferError) { try table.scalars(1, "block_map", as: Int32.self) }
        }
        package var dimMetadata: TableList<DimensionMetadata>? {
            get throws(FlatBufferError) { try table.list(2, "dim_metadata", of: DimensionMetadata.self) }
        }
    }

    /// One traversal level of a sparse tensor.
    package struct DimensionMetadata: FlatBufferTableView {
        package let table: FlatBufferTable
        package init(_ table: FlatBufferTable) { self.table = table }

        /// DENSE = 0, SPARSE_CSR = 1.
        package var format: Int8 { get throws(FlatBufferError) { try table.scalar(0, "format", default: 0) } }
        package var denseSize: Int32 { get throws(FlatBufferError) { try table.scalar(1, "dense_size", default: 0) } }
        package var arraySegments: SparseIndexVector? {
            get throws(FlatBufferError) { try SparseIndexVector.read(table, 2, "array_segments") }
        }
        package var arrayIndices: SparseIndexVector? {
            get throws(FlatBufferError) { try SparseIndexVector.read(table, 4, "array_indices") }
        }
    }

    /// The `SparseIndexVector` union: one table with a `values` vector of a given width.
    package enum SparseIndexVector: Hashable, Sendable {
        case int32([Int32])
        case uint16([UInt16])
        case uint8([UInt8])
        /// A type id this schema version does not define.
        case unknown(typeID: UInt8)

        /// The values widened to `Int`, or nil for an unknown type.
        package var values: [Int]? {
            switch self {
            case .int32(let v): return v.map(Int.init)
            case .uint16(let v): return v.map(Int.init)
            case .uint8(let v): return v.map(Int.init)
            case .unknown: return nil
            }
        }

        /// Reads the union whose type tag is in `typeSlot`; nil when NONE or the value
        /// table is absent. An absent `values` vector reads as empty.
        static func read(_ table: FlatBufferTable, _ typeSlot: Int, _ name: String) throws(FlatBufferError)
            -> SparseIndexVector?
        {
            let (type, value) = try table.union(typeSlot, name)
            guard let value else { return nil }
            switch type {
            case 1: return .int32(try value.scalars(0, "values", as: Int32.self) ?? [])
            case 2: return .uint16(try value.scalars(0, "values", as: UInt16.self) ?? [])
            case 3: return .uint8(try value.scalars(0, "values", as: UInt8.self) ?? [])
            default: return .unknown(typeID: type)
            }
        }
    }
}
