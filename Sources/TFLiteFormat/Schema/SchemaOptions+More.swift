// Options tables of CONV_3D / CONV_3D_TRANSPOSE and the random operators (in the
// `builtin_options` union), and the `builtin_options_2` tables the runtime reads
// (StableHLO operators, REDUCE_WINDOW). Enum fields are returned as raw codes; absent
// fields take the schema defaults noted per field.

extension Schema {
    /// `Conv3DOptions`, shared by CONV_3D and CONV_3D_TRANSPOSE. Dilations default to 1.
    package struct Conv3DOptions: Hashable, Sendable {
        package var padding: Int8, strideD: Int32, strideW: Int32, strideH: Int32, fusedActivation: Int8
        package var dilationDFactor: Int32, dilationWFactor: Int32, dilationHFactor: Int32
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            padding = try t.scalar(0, "padding", default: 0)
            strideD = try t.scalar(1, "stride_d", default: 0)
            strideW = try t.scalar(2, "stride_w", default: 0)
            strideH = try t.scalar(3, "stride_h", default: 0)
            fusedActivation = try t.scalar(4, "fused_activation_function", default: 0)
            dilationDFactor = try t.scalar(5, "dilation_d_factor", default: 1)
            dilationWFactor = try t.scalar(6, "dilation_w_factor", default: 1)
            dilationHFactor = try t.scalar(7, "dilation_h_factor", default: 1)
        }
    }

    /// `RandomOptions` (RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL): seed, seed2.
    package struct RandomOptions: Hashable, Sendable {
        package var seed: Int64, seed2: Int64
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            seed = try t.scalar(0, "seed", default: 0)
            seed2 = try t.scalar(1, "seed2", default: 0)
        }
    }

    /// `StablehloPadOptions`: edge_padding_low, edge_padding_high, interior_padding (int64).
    package struct StablehloPadOptions: Hashable, Sendable {
        package var low: [Int64], high: [Int64], interior: [Int64]
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            low = try t.scalars(0, "edge_padding_low", as: Int64.self) ?? []
            high = try t.scalars(1, "edge_padding_high", as: Int64.self) ?? []
            interior = try t.scalars(2, "interior_padding", as: Int64.self) ?? []
        }
    }

    /// `StablehloGatherOptions`.
    package struct StablehloGatherOptions: Hashable, Sendable {
        package var offsetDims: [Int64], collapsedSliceDims: [Int64], startIndexMap: [Int64]
        package var indexVectorDim: Int64, sliceSizes: [Int64], indicesAreSorted: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            offsetDims = try t.scalars(0, "offset_dims", as: Int64.self) ?? []
            collapsedSliceDims = try t.scalars(1, "collapsed_slice_dims", as: Int64.self) ?? []
            startIndexMap = try t.scalars(2, "start_index_map", as: Int64.self) ?? []
            indexVectorDim = try t.scalar(3, "index_vector_dim", default: 0)
            sliceSizes = try t.scalars(4, "slice_sizes", as: Int64.self) ?? []
            indicesAreSorted = try t.bool(5, "indices_are_sorted")
        }
    }

    /// Single-field `builtin_options_2` tables, read by slot.
    package enum SmallOptions2 {
        /// StablehloRngBitGeneratorOptions: algorithm (RngAlgorithm: DEFAULT 0, PHILOX 1, THREEFRY 2).
        package static func rngAlgorithm(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "algorithm", default: 0)
        }
        /// ReduceWindowOptions: reduce_function (ReduceWindowFunction: UNSUPPORTED 0, ADD, MUL,
        /// MINIMUM, MAXIMUM, ALL, ANY).
        package static func reduceFunction(_ t: FlatBufferTable) throws(FlatBufferError) -> Int32 {
            try t.scalar(0, "reduce_function", default: 0)
        }
    }
}

extension Schema.BuiltinOptionsType {
    package static let conv3D: UInt8 = 106
    package static let random: UInt8 = 114
}

extension Schema.BuiltinOptions2Type {
    package static let stablehloPad: UInt8 = 10
    package static let stablehloGather: UInt8 = 16
    package static let dilate: UInt8 = 18
    package static let stablehloRngBitGenerator: UInt8 = 19
    package static let reduceWindow: UInt8 = 20
    package static let stablehloShiftLeft: UInt8 = 22
}
