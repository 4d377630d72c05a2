// Builtin options tables, decoded eagerly (they hold a few scalars each). Enum-typed
// fields (Padding, ActivationFunctionType, TensorType...) are returned as their raw
// `Int8` codes; absent fields take the schema defaults noted per field.

extension Schema {
    package struct Conv2DOptions: Hashable, Sendable {
        package var padding: Int8, strideW: Int32, strideH: Int32, fusedActivation: Int8
        /// Default 1.
        package var dilationWFactor: Int32, dilationHFactor: Int32
        package var quantizedBiasType: Int8
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            padding = try t.scalar(0, "padding", default: 0)
            strideW = try t.scalar(1, "stride_w", default: 0)
            strideH = try t.scalar(2, "stride_h", default: 0)
            fusedActivation = try t.scalar(3, "fused_activation_function", default: 0)
            dilationWFactor = try t.scalar(4, "dilation_w_factor", default: 1)
            dilationHFactor = try t.scalar(5, "dilation_h_factor", default: 1)
            quantizedBiasType = try t.scalar(6, "quantized_bias_type", default: 0)
        }
    }

    package struct DepthwiseConv2DOptions: Hashable, Sendable {
        package var padding: Int8, strideW: Int32, strideH: Int32, depthMultiplier: Int32, fusedActivation: Int8
        /// Default 1.
        package var dilationWFactor: Int32, dilationHFactor: Int32
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            padding = try t.scalar(0, "padding", default: 0)
            strideW = try t.scalar(1, "stride_w", default: 0)
            strideH = try t.scalar(2, "stride_h", default: 0)
            depthMultiplier = try t.scalar(3, "depth_multiplier", default: 0)
            fusedActivation = try t.scalar(4, "fused_activation_function", default: 0)
            dilationWFactor = try t.scalar(5, "dilation_w_factor", default: 1)
            dilationHFactor = try t.scalar(6, "dilation_h_factor", default: 1)
        }
    }

    package struct Pool2DOptions: Hashable, Sendable {
        package var padding: Int8, strideW: Int32, strideH: Int32, filterWidth: Int32, filterHeight: Int32,
            fusedActivation: Int8
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            padding = try t.scalar(0, "padding", default: 0)
            strideW = try t.scalar(1, "stride_w", default: 0)
            strideH = try t.scalar(2, "stride_h", default: 0)
            filterWidth = try t.scalar(3, "filter_width", default: 0)
            filterHeight = try t.scalar(4, "filter_height", default: 0)
            fusedActivation = try t.scalar(5, "fused_activation_function", default: 0)
        }
    }

    package struct FullyConnectedOptions: Hashable, Sendable {
        package var fusedActivation: Int8, weightsFormat: Int8, keepNumDims: Bool, asymmetricQuantizeInputs: Bool,
            quantizedBiasType: Int8
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            fusedActivation = try t.scalar(0, "fused_activation_function", default: 0)
            weightsFormat = try t.scalar(1, "weights_format", default: 0)
            keepNumDims = try t.bool(2, "keep_num_dims")
            asymmetricQuantizeInputs = try t.bool(3, "asymmetric_quantize_inputs")
            quantizedBiasType = try t.scalar(4, "quantized_bias_type", default: 0)
        }
    }

    package struct TransposeConvOptions: Hashable, Sendable {
        package var padding: Int8, strideW: Int32, strideH: Int32, fusedActivation: Int8, quantizedBiasType: Int8
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            padding = try t.scalar(0, "padding", default: 0)
            strideW = try t.scalar(1, "stride_w", default: 0)
            strideH = try t.scalar(2, "stride_h", default: 0)
            fusedActivation = try t.scalar(3, "fused_activation_function", default: 0)
            quantizedBiasType = try t.scalar(4, "quantized_bias_type", default: 0)
        }
    }

    /// `ResizeBilinearOptions` (slots 0, 1 are deprecated sizes) and
    /// `ResizeNearestNeighborOptions` share these two fields at different slots.
    package struct ResizeOptions: Hashable, Sendable {
        package var alignCorners: Bool, halfPixelCenters: Bool
        package init(bilinear t: FlatBufferTable) throws(FlatBufferError) {
            alignCorners = try t.bool(2, "align_corners")
            halfPixelCenters = try t.bool(3, "half_pixel_centers")
        }
        package init(nearestNeighbor t: FlatBufferTable) throws(FlatBufferError) {
            alignCorners = try t.bool(0, "align_corners")
            halfPixelCenters = try t.bool(1, "half_pixel_centers")
        }
    }

    package struct StridedSliceOptions: Hashable, Sendable {
        package var beginMask: Int32, endMask: Int32, ellipsisMask: Int32, newAxisMask: Int32, shrinkAxisMask: Int32,
            offset: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            beginMask = try t.scalar(0, "begin_mask", default: 0)
            endMask = try t.scalar(1, "end_mask", default: 0)
            ellipsisMask = try t.scalar(2, "ellipsis_mask", default: 0)
            newAxisMask = try t.scalar(3, "new_axis_mask", default: 0)
            shrinkAxisMask = try t.scalar(4, "shrink_axis_mask", default: 0)
            offset = try t.bool(5, "offset")
        }
    }

    package struct BatchMatMulOptions: Hashable, Sendable {
        package var adjX: Bool, adjY: Bool, asymmetricQuantizeInputs: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            adjX = try t.bool(0, "adj_x")
            adjY = try t.bool(1, "adj_y")
            asymmetricQuantizeInputs = try t.bool(2, "asymmetric_quantize_inputs")
        }
    }

    /// Options tables of one or two plain scalar fields, read by slot. Each function
    /// documents the table and its fields.
    package enum SmallOptions {
        /// SoftmaxOptions: beta (f32, default 0).
        package static func softmaxBeta(_ t: FlatBufferTable) throws(FlatBufferError) -> Float {
            try t.float(0, "beta")
        }
        /// ConcatenationOptions: axis, fused_activation_function.
        package static func concatenation(_ t: FlatBufferTable) throws(FlatBufferError) -> (
            axis: Int32, activation: Int8
        ) {
            (try t.scalar(0, "axis", default: 0), try t.scalar(1, "fused_activation_function", default: 0))
        }
        /// AddOptions / SubOptions: fused_activation_function, pot_scale_int16 (default true).
        package static func addSub(_ t: FlatBufferTable) throws(FlatBufferError) -> (
            activation: Int8, potScaleInt16: Bool
        ) {
            (try t.scalar(0, "fused_activation_function", default: 0), try t.bool(1, "pot_scale_int16", default: true))
        }
        /// MulOptions / DivOptions: fused_activation_function.
        package static func activation(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "fused_activation_function", default: 0)
        }
        /// ReshapeOptions: new_shape, nil when absent.
        package static func reshapeNewShape(_ t: FlatBufferTable) throws(FlatBufferError) -> [Int32]? {
            try t.scalars(0, "new_shape", as: Int32.self)
        }
        /// SpaceToDepthOptions / DepthToSpaceOptions: block_size.
        package static func blockSize(_ t: FlatBufferTable) throws(FlatBufferError) -> Int32 {
            try t.scalar(0, "block_size", default: 0)
        }
        /// ReducerOptions: keep_dims.
        package static func keepDims(_ t: FlatBufferTable) throws(FlatBufferError) -> Bool {
            try t.bool(0, "keep_dims")
        }
        /// SqueezeOptions: squeeze_dims (empty when absent).
        package static func squeezeDims(_ t: FlatBufferTable) throws(FlatBufferError) -> [Int32] {
            try t.scalars(0, "squeeze_dims", as: Int32.self) ?? []
        }
        /// GatherOptions: axis, batch_dims.
        package static func gather(_ t: FlatBufferTable) throws(FlatBufferError) -> (axis: Int32, batchDims: Int32) {
            (try t.scalar(0, "axis", default: 0), try t.scalar(1, "batch_dims", default: 0))
        }
        /// LeakyReluOptions: alpha (f32, default 0).
        package static func leakyReluAlpha(_ t: FlatBufferTable) throws(FlatBufferError) -> Float {
            try t.float(0, "alpha")
        }
        /// GeluOptions: approximate (false when absent).
        package static func geluApproximate(_ t: FlatBufferTable) throws(FlatBufferError) -> Bool {
            try t.bool(0, "approximate")
        }
        /// PackOptions: values_count, axis.
        package static func pack(_ t: FlatBufferTable) throws(FlatBufferError) -> (valuesCount: Int32, axis: Int32) {
            (try t.scalar(0, "values_count", default: 0), try t.scalar(1, "axis", default: 0))
        }
        /// UnpackOptions: num, axis.
        package static func unpack(_ t: FlatBufferTable) throws(FlatBufferError) -> (num: Int32, axis: Int32) {
            (try t.scalar(0, "num", default: 0), try t.scalar(1, "axis", default: 0))
        }
        /// SplitOptions / SplitVOptions: num_splits.
        package static func numSplits(_ t: FlatBufferTable) throws(FlatBufferError) -> Int32 {
            try t.scalar(0, "num_splits", default: 0)
        }
        /// MirrorPadOptions: mode (REFLECT = 0, SYMMETRIC = 1).
        package static func mirrorPadMode(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "mode", default: 0)
        }
        /// CastOptions: in_data_type, out_data_type (TensorType codes, default 0).
        package static func cast(_ t: FlatBufferTable) throws(FlatBufferError) -> (inType: Int8, outType: Int8) {
            (try t.scalar(0, "in_data_type", default: 0), try t.scalar(1, "out_data_type", default: 0))
        }
        /// ShapeOptions: out_type (TensorType code, default 0).
        package static func shapeOutType(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "out_type", default: 0)
        }
        /// L2NormOptions: fused_activation_function.
        package static func l2Norm(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "fused_activation_function", default: 0)
        }
        /// LocalResponseNormalizationOptions: radius, bias, alpha, beta.
        package static func localResponseNormalization(_ t: FlatBufferTable) throws(FlatBufferError)
            -> (radius: Int32, bias: Float, alpha: Float, beta: Float)
        {
            (
                try t.scalar(0, "radius", default: 0), try t.float(1, "bias"), try t.float(2, "alpha"),
                try t.float(3, "beta")
            )
        }
        /// CumsumOptions: exclusive, reverse.
        package static func cumsum(_ t: FlatBufferTable) throws(FlatBufferError) -> (exclusive: Bool, reverse: Bool) {
            (try t.bool(0, "exclusive"), try t.bool(1, "reverse"))
        }
        /// IfOptions: then_subgraph_index, else_subgraph_index.
        package static func ifBranches(_ t: FlatBufferTable) throws(FlatBufferError) -> (
            then: Int32, else: Int32
        ) {
            (try t.scalar(0, "then_subgraph_index", default: 0), try t.scalar(1, "else_subgraph_index", default: 0))
        }
        /// WhileOptions: cond_subgraph_index, body_subgraph_index.
        package static func whileLoop(_ t: FlatBufferTable) throws(FlatBufferError) -> (cond: Int32, body: Int32) {
            (try t.scalar(0, "cond_subgraph_index", default: 0), try t.scalar(1, "body_subgraph_index", default: 0))
        }
        /// CallOnceOptions: init_subgraph_index.
        package static func callOnce(_ t: FlatBufferTable) throws(FlatBufferError) -> Int32 {
            try t.scalar(0, "init_subgraph_index", default: 0)
        }
        /// VarHandleOptions: container, shared_name (strings; nil when absent).
        package static func varHandle(_ t: FlatBufferTable) throws(FlatBufferError) -> (
            container: String?, sharedName: String?
        ) {
            (try t.string(0, "container"), try t.string(1, "shared_name"))
        }
        /// OneHotOptions: axis.
        package static func oneHotAxis(_ t: FlatBufferTable) throws(FlatBufferError) -> Int32 {
            try t.scalar(0, "axis", default: 0)
        }
        /// UniqueOptions: idx_out_type (TensorType code, default INT32 = 2).
        package static func uniqueIndexType(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "idx_out_type", default: 2)
        }
        /// ReverseSequenceOptions: seq_dim, batch_dim.
        package static func reverseSequence(_ t: FlatBufferTable) throws(FlatBufferError) -> (
            seqDim: Int32, batchDim: Int32
        ) {
            (try t.scalar(0, "seq_dim", default: 0), try t.scalar(1, "batch_dim", default: 0))
        }
        /// BucketizeOptions: boundaries (empty when absent).
        package static func bucketizeBoundaries(_ t: FlatBufferTable) throws(FlatBufferError) -> [Float] {
            try t.floats(0, "boundaries") ?? []
        }
        /// SparseToDenseOptions: validate_indices.
        package static func sparseToDenseValidate(_ t: FlatBufferTable) throws(FlatBufferError) -> Bool {
            try t.bool(0, "validate_indices")
        }
        /// FakeQuantOptions: min, max (f32, default 0), num_bits, narrow_range.
        package static func fakeQuant(_ t: FlatBufferTable) throws(FlatBufferError) -> (
            min: Float, max: Float, numBits: Int32, narrowRange: Bool
        ) {
            (
                try t.float(0, "min"), try t.float(1, "max"), try t.scalar(2, "num_bits", default: 0),
                try t.bool(3, "narrow_range")
            )
        }
        /// EmbeddingLookupSparseOptions: combiner (SUM = 0, MEAN = 1, SQRTN = 2).
        package static func combiner(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
            try t.scalar(0, "combiner", default: 0)
        }
    }
}
