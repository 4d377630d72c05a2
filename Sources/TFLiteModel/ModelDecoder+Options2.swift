import TFLiteFormat

extension BuiltinOptions2 {
    /// Decodes the `builtin_options_2` union. An absent table is `.none`.
    init(typeID: UInt8, table: FlatBufferTable?) throws(FlatBufferError) {
        guard typeID != 0, let t = table else {
            self = .none
            return
        }
        typealias ID = Schema.BuiltinOptions2Type
        switch typeID {
        case ID.stablehloPad:
            let o = try Schema.StablehloPadOptions(t)
            self = .stablehloPad(low: o.low, high: o.high, interior: o.interior)
        case ID.stablehloGather:
            let o = try Schema.StablehloGatherOptions(t)
            self = .stablehloGather(
                StablehloGatherOptions(
                    offsetDims: o.offsetDims, collapsedSliceDims: o.collapsedSliceDims, startIndexMap: o.startIndexMap,
                    indexVectorDim: o.indexVectorDim, sliceSizes: o.sliceSizes, indicesAreSorted: o.indicesAreSorted))
        case ID.stablehloRngBitGenerator:
            self = .stablehloRngBitGenerator(algorithm: try Schema.SmallOptions2.rngAlgorithm(t))
        case ID.reduceWindow:
            self = .reduceWindow(function: try Schema.SmallOptions2.reduceFunction(t))
        case ID.dilate, ID.stablehloShiftLeft:
            self = .empty(typeID: typeID)
        default:
            self = .other(typeID: typeID)
        }
    }
}

extension BuiltinOptions {
    /// The `builtin_options` tables added with CONV_3D and the random operators.
    static func decodeMore(typeID: UInt8, table t: FlatBufferTable) throws(FlatBufferError) -> BuiltinOptions? {
        typealias ID = Schema.BuiltinOptionsType
        switch typeID {
        case ID.conv3D:
            let o = try Schema.Conv3DOptions(t)
            return .conv3D(
                Conv3DOptions(
                    padding: Padding(rawValue: o.padding), strideDepth: Int(o.strideD),
                    strideHeight: Int(o.strideH), strideWidth: Int(o.strideW),
                    activation: FusedActivation(rawValue: o.fusedActivation), dilationDepth: Int(o.dilationDFactor),
                    dilationHeight: Int(o.dilationHFactor), dilationWidth: Int(o.dilationWFactor)))
        case ID.random:
            let o = try Schema.RandomOptions(t)
            return .random(seed: o.seed, seed2: o.seed2)
        case ID.lshProjection: return .lshProjection(type: try Schema.lshProjectionType(t))
        case ID.skipGram:
            let o = try Schema.skipGram(t)
            return .skipGram(
                ngramSize: Int(o.ngramSize), maxSkipSize: Int(o.maxSkipSize), includeAllNgrams: o.includeAllNgrams)
        case ID.hashtable:
            let o = try Schema.hashtable(t)
            return .hashtable(
                tableID: o.tableID, keyType: ElementType(rawValue: o.keyType),
                valueType: ElementType(rawValue: o.valueType))
        default:
            return nil
        }
    }
}
