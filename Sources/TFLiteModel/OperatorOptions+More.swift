/// Options of CONV_3D and CONV_3D_TRANSPOSE (schema `Conv3DOptions`).
public struct Conv3DOptions: Hashable, Sendable {
    public var padding: Padding
    public var strideDepth: Int, strideHeight: Int, strideWidth: Int
    public var activation: FusedActivation
    public var dilationDepth: Int, dilationHeight: Int, dilationWidth: Int
    public init(
        padding: Padding, strideDepth: Int, strideHeight: Int, strideWidth: Int, activation: FusedActivation = .none,
        dilationDepth: Int = 1, dilationHeight: Int = 1, dilationWidth: Int = 1
    ) {
        self.padding = padding
        self.strideDepth = strideDepth; self.strideHeight = strideHeight; self.strideWidth = strideWidth
        self.activation = activation
        self.dilationDepth = dilationDepth; self.dilationHeight = dilationHeight; self.dilationWidth = dilationWidth
    }
}

/// Options of STABLEHLO_GATHER (schema `StablehloGatherOptions`), as in StableHLO's `gather`.
public struct StablehloGatherOptions: Hashable, Sendable {
    public var offsetDims: [Int64]
    public var collapsedSliceDims: [Int64]
    public var startIndexMap: [Int64]
    public var indexVectorDim: Int64
    public var sliceSizes: [Int64]
    public var indicesAreSorted: Bool
    public init(
        offsetDims: [Int64], collapsedSliceDims: [Int64], startIndexMap: [Int64], indexVectorDim: Int64,
        sliceSizes: [Int64], indicesAreSorted: Bool = false
    ) {
        self.offsetDims = offsetDims; self.collapsedSliceDims = collapsedSliceDims
        self.startIndexMap = startIndexMap; self.indexVectorDim = indexVectorDim
        self.sliceSizes = sliceSizes; self.indicesAreSorted = indicesAreSorted
    }
}

/// The decoded `builtin_options_2` of an operator: the options of the StableHLO operators
/// and of the later builtins whose tables only that union has (REDUCE_WINDOW, DILATE).
///
/// As with ``BuiltinOptions``, tables the runtime does not read keep their type id.
public enum BuiltinOptions2: Hashable, Sendable {
    case none
    /// STABLEHLO_PAD: per-dimension padding before, after and between elements (negative
    /// edge padding crops).
    case stablehloPad(low: [Int64], high: [Int64], interior: [Int64])
    case stablehloGather(StablehloGatherOptions)
    /// STABLEHLO_RNG_BIT_GENERATOR: 0 DEFAULT, 1 PHILOX, 2 THREEFRY.
    case stablehloRngBitGenerator(algorithm: Int8)
    /// REDUCE_WINDOW: 0 UNSUPPORTED, 1 ADD, 2 MUL, 3 MINIMUM, 4 MAXIMUM, 5 ALL, 6 ANY.
    case reduceWindow(function: Int32)
    /// STABLEHLO_COMPOSITE: a named operation whose meaning is its decomposition subgraph,
    /// run on the operator's inputs (the attributes FlexBuffer is not kept).
    case stablehloComposite(name: String, decompositionSubgraph: Int, version: Int32)
    /// STABLEHLO_CASE: the subgraph of each branch, in branch order.
    case stablehloCase(branchSubgraphs: [Int])
    case stablehloReduceWindow(StablehloReduceWindowOptions)
    case stablehloScatter(StablehloScatterOptions)
    /// A table with no fields (DilateOptions, StablehloShiftLeftOptions).
    case empty(typeID: UInt8)
    /// A table this library does not decode (`builtin_options_2_type` value kept).
    case other(typeID: UInt8)
}
