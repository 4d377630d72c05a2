extension Schema {
    /// Type ids of the `BuiltinOptions` union (0 = NONE), in schema order.
    package enum BuiltinOptionsType {
        package static let conv2D: UInt8 = 1
        package static let depthwiseConv2D: UInt8 = 2
        package static let pool2D: UInt8 = 5
        package static let fullyConnected: UInt8 = 8
        package static let softmax: UInt8 = 9
        package static let concatenation: UInt8 = 10
        package static let add: UInt8 = 11
        package static let resizeBilinear: UInt8 = 15
        package static let reshape: UInt8 = 17
        package static let spaceToDepth: UInt8 = 19
        package static let mul: UInt8 = 21
        package static let gather: UInt8 = 23
        package static let reducer: UInt8 = 27
        package static let sub: UInt8 = 28
        package static let div: UInt8 = 29
        package static let squeeze: UInt8 = 30
        package static let stridedSlice: UInt8 = 32
        package static let split: UInt8 = 35
        package static let cast: UInt8 = 37
        package static let transposeConv: UInt8 = 49
        package static let shape: UInt8 = 55
        package static let pack: UInt8 = 59
        package static let unpack: UInt8 = 64
        package static let resizeNearestNeighbor: UInt8 = 74
        package static let leakyRelu: UInt8 = 75
        package static let mirrorPad: UInt8 = 77
        package static let splitV: UInt8 = 79
        package static let depthToSpace: UInt8 = 94
        package static let batchMatMul: UInt8 = 101
        package static let gelu: UInt8 = 116
        package static let l2Norm: UInt8 = 12
        package static let localResponseNormalization: UInt8 = 13
        package static let cumsum: UInt8 = 102
        package static let ifOptions: UInt8 = 92
        package static let whileOptions: UInt8 = 93
        package static let callOnce: UInt8 = 103
        package static let varHandle: UInt8 = 111
        package static let lstm: UInt8 = 14
        package static let bidirectionalSequenceLSTM: UInt8 = 69
        package static let unidirectionalSequenceLSTM: UInt8 = 71
        package static let embeddingLookupSparse: UInt8 = 20
        package static let sparseToDense: UInt8 = 50
        package static let fakeQuant: UInt8 = 58
        package static let oneHot: UInt8 = 61
        package static let unique: UInt8 = 80
        package static let reverseSequence: UInt8 = 87
        package static let bucketize: UInt8 = 115

        /// Table names indexed by type id (index 0 is NONE).
        package static let names: [String] = [
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
            "FillOptions", "BidirectionalSequenceLSTMOptions", "BidirectionalSequenceRNNOptions",
            "UnidirectionalSequenceLSTMOptions",
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
        package static let emptyTables: Set<UInt8> = [
            22, 24, 25, 26, 33, 34, 36, 38, 39, 41, 42, 43, 44, 45, 46, 47, 48, 51, 52, 53, 54, 56,
            60, 62, 63, 65, 66, 67, 68, 72, 73, 76, 78, 81, 82, 83, 84, 85, 86, 88, 89, 90, 91,
            95, 96, 97, 98, 99, 100, 104, 105, 108, 109, 110, 112, 113, 117, 118, 119, 120, 121,
            122, 123, 124, 125, 126,
        ]

        /// The table name for `id`, or `BuiltinOptions_<id>` for an id past the schema.
        package static func name(_ id: UInt8) -> String {
            Int(id) < names.count ? names[Int(id)] : "BuiltinOptions_\(id)"
        }
    }

    /// Type ids of the `BuiltinOptions2` union (0 = NONE), in schema order.
    package enum BuiltinOptions2Type {
        package static let names: [String] = [
            "NONE", "StablehloConcatenateOptions", "StablehloBroadcastInDimOptions", "StablehloSliceOptions",
            "StablehloConvolutionOptions", "StablehloCustomCallOptions", "StablehloReduceOptions",
            "StablehloScatterOptions",
            "StablehloCompareOptions", "StablehloDynamicSliceOptions", "StablehloPadOptions", "StablehloIotaOptions",
            "StablehloDotGeneralOptions", "StablehloReduceWindowOptions", "StablehloSortOptions",
            "StablehloWhileOptions",
            "StablehloGatherOptions", "StablehloTransposeOptions", "DilateOptions", "StablehloRngBitGeneratorOptions",
            "ReduceWindowOptions", "StableHLOCompositeOptions", "StablehloShiftLeftOptions", "StablehloCaseOptions",
        ]

        package static func name(_ id: UInt8) -> String {
            Int(id) < names.count ? names[Int(id)] : "BuiltinOptions2_\(id)"
        }
    }
}
