extension Schema {
    /// Type ids of the `BuiltinOptions` union (0 = NONE), in schema order.
    public enum BuiltinOptionsType {
        public static let conv2D: UInt8 = 1
        public static let depthwiseConv2D: UInt8 = 2
        public static let pool2D: UInt8 = 5
        public static let fullyConnected: UInt8 = 8
        public static let softmax: UInt8 = 9
        public static let concatenation: UInt8 = 10
        public static let add: UInt8 = 11
        public static let resizeBilinear: UInt8 = 15
        public static let reshape: UInt8 = 17
        public static let spaceToDepth: UInt8 = 19
        public static let mul: UInt8 = 21
        public static let gather: UInt8 = 23
        public static let reducer: UInt8 = 27
        public static let sub: UInt8 = 28
        public static let div: UInt8 = 29
        public static let squeeze: UInt8 = 30
        public static let stridedSlice: UInt8 = 32
        public static let split: UInt8 = 35
        public static let cast: UInt8 = 37
        public static let transposeConv: UInt8 = 49
        public static let shape: UInt8 = 55
        public static let pack: UInt8 = 59
        public static let unpack: UInt8 = 64
        public static let resizeNearestNeighbor: UInt8 = 74
        public static let leakyRelu: UInt8 = 75
        public static let mirrorPad: UInt8 = 77
        public static let splitV: UInt8 = 79
        public static let depthToSpace: UInt8 = 94
        public static let batchMatMul: UInt8 = 101
        public static let l2Norm: UInt8 = 12
        public static let localResponseNormalization: UInt8 = 13
        public static let cumsum: UInt8 = 102

        /// Table names indexed by type id (index 0 is NONE).
        public static let names: [String] = [
            "NONE", "Conv2DOptions", "DepthwiseConv2DOptions", "ConcatEmbeddingsOptions",
            "LSHProjectionOptions", "Pool2DOptions", "SVDFOptions", "RNNOptions",
            "FullyConnectedOptions", "SoftmaxOptions", "ConcatenationOptions", "AddOptions",
            "L2NormOptions", "LocalResponseNormalizationOptions", "LSTMOptions", "ResizeBilinearOptions",
            "CallOptions", "ReshapeOptions", "SkipGramOptions", "SpaceToDepthOptions",
            "EmbeddingLookupSparseOptions", "MulOptions", "PadOptions", "GatherOptions",
            "BatchToSpaceNDOptions", "SpaceToBatchNDOptions", "TransposeOptions", "ReducerOptions",
            "SubOptions", "DivOptions", "SqueezeOptions", "SequenceRNNOptions",
            "StridedSliceOptions", "ExpOptions", "TopKV2Options", "SplitOptions",
            "LogSoftmaxOptions", "CastOptions", "DequantizeOptions", "MaximumMinimumOptions",
            "ArgMaxOptions", "LessOptions", "NegOptions", "PadV2Options",
            "GreaterOptions", "GreaterEqualOptions", "LessEqualOptions", "SelectOptions",
            "SliceOptions", "TransposeConvOptions", "SparseToDenseOptions", "TileOptions",
            "ExpandDimsOptions", "EqualOptions", "NotEqualOptions", "ShapeOptions",
            "PowOptions", "ArgMinOptions", "FakeQuantOptions", "PackOptions",
            "LogicalOrOptions", "OneHotOptions", "LogicalAndOptions", "LogicalNotOptions",
            "UnpackOptions", "FloorDivOptions", "SquareOptions", "ZerosLikeOptions",
            "FillOptions", "BidirectionalSequenceLSTMOptions", "BidirectionalSequenceRNNOptions", "UnidirectionalSequenceLSTMOptions",
            "FloorModOptions", "RangeOptions", "ResizeNearestNeighborOptions", "LeakyReluOptions",
            "SquaredDifferenceOptions", "MirrorPadOptions", "AbsOptions", "SplitVOptions",
            "UniqueOptions", "ReverseV2Options", "AddNOptions", "GatherNdOptions",
            "CosOptions", "WhereOptions", "RankOptions", "ReverseSequenceOptions",
            "MatrixDiagOptions", "QuantizeOptions", "MatrixSetDiagOptions", "HardSwishOptions",
            "IfOptions", "WhileOptions", "DepthToSpaceOptions", "NonMaxSuppressionV4Options",
            "NonMaxSuppressionV5Options", "ScatterNdOptions", "SelectV2Options", "DensifyOptions",
            "SegmentSumOptions", "BatchMatMulOptions", "CumsumOptions", "CallOnceOptions",
            "BroadcastToOptions", "Rfft2dOptions", "Conv3DOptions", "HashtableOptions",
            "HashtableFindOptions", "HashtableImportOptions", "HashtableSizeOptions", "VarHandleOptions",
            "ReadVariableOptions", "AssignVariableOptions", "RandomOptions", "BucketizeOptions",
            "GeluOptions", "DynamicUpdateSliceOptions", "UnsortedSegmentProdOptions", "UnsortedSegmentMaxOptions",
            "UnsortedSegmentMinOptions", "UnsortedSegmentSumOptions", "ATan2Options", "SignOptions",
            "BitcastOptions", "BitwiseXorOptions", "RightShiftOptions",
        ]

        /// Type ids whose tables declare no fields at all.
        public static let emptyTables: Set<UInt8> = [
            22, 24, 25, 26, 33, 34, 36, 38, 39, 41, 42, 43, 44, 45, 46, 47, 48, 51, 52, 53, 54, 56,
            60, 62, 63, 65, 66, 67, 68, 72, 73, 76, 78, 81, 82, 83, 84, 85, 86, 88, 89, 90, 91,
            95, 96, 97, 98, 99, 100, 104, 105, 108, 109, 110, 112, 113, 117, 118, 119, 120, 121,
            122, 123, 124, 125, 126,
        ]

        /// The table name for `id`, or `BuiltinOptions_<id>` for an id past the schema.
        public static func name(_ id: UInt8) -> String {
            Int(id) < names.count ? names[Int(id)] : "BuiltinOptions_\(id)"
        }
    }

    /// Type ids of the `BuiltinOptions2` union (0 = NONE), in schema order.
    public enum BuiltinOptions2Type {
        public static let names: [String] = [
            "NONE", "StablehloConcatenateOptions", "StablehloBroadcastInDimOptions", "StablehloSliceOptions",
            "StablehloConvolutionOptions", "StablehloCustomCallOptions", "StablehloReduceOptions", "StablehloScatterOptions",
            "StablehloCompareOptions", "StablehloDynamicSliceOptions", "StablehloPadOptions", "StablehloIotaOptions",
            "StablehloDotGeneralOptions", "StablehloReduceWindowOptions", "StablehloSortOptions", "StablehloWhileOptions",
            "StablehloGatherOptions", "StablehloTransposeOptions", "DilateOptions", "StablehloRngBitGeneratorOptions",
            "ReduceWindowOptions", "StableHLOCompositeOptions", "StablehloShiftLeftOptions", "StablehloCaseOptions",
        ]

        public static func name(_ id: UInt8) -> String {
            Int(id) < names.count ? names[Int(id)] : "BuiltinOptions2_\(id)"
        }
    }
}
