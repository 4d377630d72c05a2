import TFLiteFormat

/// Options of STABLEHLO_REDUCE_WINDOW (schema `StablehloReduceWindowOptions`), as in
/// StableHLO's `reduce_window`: per-dimension window sizes, strides, base (input) and
/// window dilations, and `padding` as a low and a high value per dimension. The reduction
/// is the single operator of the body subgraph.
public struct StablehloReduceWindowOptions: Hashable, Sendable {
    public var windowDimensions: [Int64]
    public var windowStrides: [Int64]
    public var baseDilations: [Int64]
    public var windowDilations: [Int64]
    public var padding: [Int64]
    public var bodySubgraph: Int
    public init(
        windowDimensions: [Int64], windowStrides: [Int64], baseDilations: [Int64], windowDilations: [Int64],
        padding: [Int64], bodySubgraph: Int
    ) {
        self.windowDimensions = windowDimensions; self.windowStrides = windowStrides
        self.baseDilations = baseDilations; self.windowDilations = windowDilations
        self.padding = padding; self.bodySubgraph = bodySubgraph
    }
}

/// Options of STABLEHLO_SCATTER (schema `StablehloScatterOptions`), as in StableHLO's
/// `scatter`. The update computation is the subgraph `updateComputationSubgraph`.
public struct StablehloScatterOptions: Hashable, Sendable {
    public var indicesAreSorted: Bool
    public var updateWindowDims: [Int64]
    public var insertedWindowDims: [Int64]
    public var scatterDimsToOperandDims: [Int64]
    public var indexVectorDim: Int64
    public var uniqueIndices: Bool
    public var updateComputationSubgraph: Int
    public init(
        updateWindowDims: [Int64], insertedWindowDims: [Int64], scatterDimsToOperandDims: [Int64],
        indexVectorDim: Int64, updateComputationSubgraph: Int, indicesAreSorted: Bool = false,
        uniqueIndices: Bool = false
    ) {
        self.updateWindowDims = updateWindowDims; self.insertedWindowDims = insertedWindowDims
        self.scatterDimsToOperandDims = scatterDimsToOperandDims; self.indexVectorDim = indexVectorDim
        self.updateComputationSubgraph = updateComputationSubgraph
        self.indicesAreSorted = indicesAreSorted; self.uniqueIndices = uniqueIndices
    }
}

extension BuiltinOptions2 {
    /// Decodes the StableHLO tables that name subgraphs; nil for any other type id.
    static func decodeCalls(typeID: UInt8, table t: FlatBufferTable) throws(FlatBufferError) -> BuiltinOptions2? {
        typealias ID = Schema.BuiltinOptions2Type
        switch typeID {
        case ID.stablehloComposite:
            let o = try Schema.StableHLOCompositeOptions(t)
            return .stablehloComposite(
                name: o.name, decompositionSubgraph: Int(o.decompositionSubgraphIndex), version: o.version)
        case ID.stablehloCase:
            return .stablehloCase(branchSubgraphs: try Schema.stablehloCaseBranches(t).map { Int($0) })
        case ID.stablehloReduceWindow:
            let o = try Schema.StablehloReduceWindowOptions(t)
            return .stablehloReduceWindow(
                StablehloReduceWindowOptions(
                    windowDimensions: o.windowDimensions, windowStrides: o.windowStrides,
                    baseDilations: o.baseDilations, windowDilations: o.windowDilations, padding: o.padding,
                    bodySubgraph: Int(o.bodySubgraphIndex)))
        case ID.stablehloScatter:
            let o = try Schema.StablehloScatterOptions(t)
            return .stablehloScatter(
                StablehloScatterOptions(
                    updateWindowDims: o.updateWindowDims, insertedWindowDims: o.insertedWindowDims,
                    scatterDimsToOperandDims: o.scatterDimsToOperandDims, indexVectorDim: o.indexVectorDim,
                    updateComputationSubgraph: Int(o.updateComputationSubgraphIndex),
                    indicesAreSorted: o.indicesAreSorted, uniqueIndices: o.uniqueIndices))
        default:
            return nil
        }
    }
}
