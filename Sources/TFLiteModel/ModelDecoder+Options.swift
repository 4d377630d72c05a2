import TFLiteFormat

extension BuiltinOptions {
    /// Decodes the `builtin_options` union. An absent table is `.none` (kernels that need
    /// options reject it at prepare); tables this library does not decode keep their id.
    init(typeID: UInt8, table: FlatBufferTable?) throws(FlatBufferError) {
        guard typeID != 0, let t = table else {
            self = .none
            return
        }
        typealias ID = Schema.BuiltinOptionsType
        typealias Small = Schema.SmallOptions
        switch typeID {
        case ID.conv2D:
            let o = try Schema.Conv2DOptions(t)
            self = .conv2D(
                Conv2DOptions(
                    padding: Padding(rawValue: o.padding), strideWidth: Int(o.strideW), strideHeight: Int(o.strideH),
                    activation: FusedActivation(rawValue: o.fusedActivation),
                    dilationWidth: Int(o.dilationWFactor), dilationHeight: Int(o.dilationHFactor)))
        case ID.depthwiseConv2D:
            let o = try Schema.DepthwiseConv2DOptions(t)
            self = .depthwiseConv2D(
                DepthwiseConv2DOptions(
                    padding: Padding(rawValue: o.padding), strideWidth: Int(o.strideW), strideHeight: Int(o.strideH),
                    depthMultiplier: Int(o.depthMultiplier), activation: FusedActivation(rawValue: o.fusedActivation),
                    dilationWidth: Int(o.dilationWFactor), dilationHeight: Int(o.dilationHFactor)))
        case ID.pool2D:
            let o = try Schema.Pool2DOptions(t)
            self = .pool2D(
                Pool2DOptions(
                    padding: Padding(rawValue: o.padding), strideWidth: Int(o.strideW), strideHeight: Int(o.strideH),
                    filterWidth: Int(o.filterWidth), filterHeight: Int(o.filterHeight),
                    activation: FusedActivation(rawValue: o.fusedActivation)))
        case ID.fullyConnected:
            let o = try Schema.FullyConnectedOptions(t)
            self = .fullyConnected(
                FullyConnectedOptions(
                    activation: FusedActivation(rawValue: o.fusedActivation), weightsFormat: o.weightsFormat,
                    keepNumDims: o.keepNumDims, asymmetricQuantizeInputs: o.asymmetricQuantizeInputs))
        case ID.softmax: self = .softmax(beta: try Small.softmaxBeta(t))
        case ID.concatenation:
            let o = try Small.concatenation(t)
            self = .concatenation(axis: Int(o.axis), activation: FusedActivation(rawValue: o.activation))
        case ID.add:
            let o = try Small.addSub(t)
            self = .add(activation: FusedActivation(rawValue: o.activation), potScaleInt16: o.potScaleInt16)
        case ID.sub:
            let o = try Small.addSub(t)
            self = .sub(activation: FusedActivation(rawValue: o.activation), potScaleInt16: o.potScaleInt16)
        case ID.mul: self = .mul(activation: FusedActivation(rawValue: try Small.activation(t)))
        case ID.div: self = .div(activation: FusedActivation(rawValue: try Small.activation(t)))
        case ID.reshape: self = .reshape(newShape: try Small.reshapeNewShape(t)?.map(Int.init))
        case ID.resizeBilinear:
            let o = try Schema.ResizeOptions(bilinear: t)
            self = .resizeBilinear(ResizeOptions(alignCorners: o.alignCorners, halfPixelCenters: o.halfPixelCenters))
        case ID.resizeNearestNeighbor:
            let o = try Schema.ResizeOptions(nearestNeighbor: t)
            self = .resizeNearestNeighbor(
                ResizeOptions(alignCorners: o.alignCorners, halfPixelCenters: o.halfPixelCenters))
        case ID.spaceToDepth: self = .spaceToDepth(blockSize: Int(try Small.blockSize(t)))
        case ID.depthToSpace: self = .depthToSpace(blockSize: Int(try Small.blockSize(t)))
        case ID.reducer: self = .reducer(keepDims: try Small.keepDims(t))
        case ID.squeeze: self = .squeeze(squeezeDims: try Small.squeezeDims(t).map(Int.init))
        case ID.stridedSlice:
            let o = try Schema.StridedSliceOptions(t)
            self = .stridedSlice(
                StridedSliceOptions(
                    beginMask: o.beginMask, endMask: o.endMask, ellipsisMask: o.ellipsisMask,
                    newAxisMask: o.newAxisMask, shrinkAxisMask: o.shrinkAxisMask, offset: o.offset))
        case ID.gather:
            let o = try Small.gather(t)
            self = .gather(axis: Int(o.axis), batchDims: Int(o.batchDims))
        case ID.leakyRelu: self = .leakyRelu(alpha: try Small.leakyReluAlpha(t))
        case ID.transposeConv:
            let o = try Schema.TransposeConvOptions(t)
            self = .transposeConv(
                TransposeConvOptions(
                    padding: Padding(rawValue: o.padding), strideWidth: Int(o.strideW), strideHeight: Int(o.strideH),
                    activation: FusedActivation(rawValue: o.fusedActivation)))
        case ID.rnn:
            let o = try Schema.RNNOptions(t)
            self = .rnn(
                RNNOptions(
                    activation: FusedActivation(rawValue: o.fusedActivation),
                    asymmetricQuantizeInputs: o.asymmetricQuantizeInputs))
        case ID.sequenceRNN:
            let o = try Schema.SequenceRNNOptions(t)
            self = .sequenceRNN(
                SequenceRNNOptions(
                    timeMajor: o.timeMajor, activation: FusedActivation(rawValue: o.fusedActivation),
                    asymmetricQuantizeInputs: o.asymmetricQuantizeInputs))
        case ID.bidirectionalSequenceRNN:
            let o = try Schema.BidirectionalSequenceRNNOptions(t)
            self = .bidirectionalSequenceRNN(
                BidirectionalSequenceRNNOptions(
                    timeMajor: o.timeMajor, activation: FusedActivation(rawValue: o.fusedActivation),
                    mergeOutputs: o.mergeOutputs, asymmetricQuantizeInputs: o.asymmetricQuantizeInputs))
        case ID.svdf:
            let o = try Schema.SVDFOptions(t)
            self = .svdf(
                SVDFOptions(
                    rank: Int(o.rank), activation: FusedActivation(rawValue: o.fusedActivation),
                    asymmetricQuantizeInputs: o.asymmetricQuantizeInputs))
        case ID.pack:
            let o = try Small.pack(t)
            self = .pack(valuesCount: Int(o.valuesCount), axis: Int(o.axis))
        case ID.unpack:
            let o = try Small.unpack(t)
            self = .unpack(num: Int(o.num), axis: Int(o.axis))
        case ID.split: self = .split(numSplits: Int(try Small.numSplits(t)))
        case ID.splitV: self = .splitV(numSplits: Int(try Small.numSplits(t)))
        case ID.mirrorPad: self = .mirrorPad(mode: try Small.mirrorPadMode(t))
        case ID.batchMatMul:
            let o = try Schema.BatchMatMulOptions(t)
            self = .batchMatMul(
                BatchMatMulOptions(
                    adjointX: o.adjX, adjointY: o.adjY, asymmetricQuantizeInputs: o.asymmetricQuantizeInputs))
        case ID.cast:
            let o = try Small.cast(t)
            self = .cast(inType: ElementType(rawValue: o.inType), outType: ElementType(rawValue: o.outType))
        case ID.shape: self = .shape(outType: ElementType(rawValue: try Small.shapeOutType(t)))
        case ID.gelu: self = .gelu(approximate: try Small.geluApproximate(t))
        case ID.l2Norm: self = .l2Norm(activation: FusedActivation(rawValue: try Small.l2Norm(t)))
        case ID.localResponseNormalization:
            let o = try Small.localResponseNormalization(t)
            self = .localResponseNormalization(radius: Int(o.radius), bias: o.bias, alpha: o.alpha, beta: o.beta)
        case ID.cumsum:
            let o = try Small.cumsum(t)
            self = .cumsum(exclusive: o.exclusive, reverse: o.reverse)
        case ID.ifOptions:
            let o = try Small.ifBranches(t)
            self = .ifBranches(thenSubgraph: Int(o.then), elseSubgraph: Int(o.else))
        case ID.whileOptions:
            let o = try Small.whileLoop(t)
            self = .whileLoop(condSubgraph: Int(o.cond), bodySubgraph: Int(o.body))
        case ID.callOnce: self = .callOnce(initSubgraph: Int(try Small.callOnce(t)))
        case ID.varHandle:
            let o = try Small.varHandle(t)
            self = .varHandle(container: o.container ?? "", sharedName: o.sharedName ?? "")
        case ID.lstm: self = .lstm(LSTMOptions(try Schema.LSTMOptions(lstm: t)))
        case ID.unidirectionalSequenceLSTM:
            self = .unidirectionalSequenceLSTM(LSTMOptions(try Schema.LSTMOptions(unidirectional: t)))
        case ID.bidirectionalSequenceLSTM:
            self = .bidirectionalSequenceLSTM(LSTMOptions(try Schema.LSTMOptions(bidirectional: t)))
        case ID.oneHot: self = .oneHot(axis: Int(try Small.oneHotAxis(t)))
        case ID.unique: self = .unique(indexType: ElementType(rawValue: try Small.uniqueIndexType(t)))
        case ID.reverseSequence:
            let o = try Small.reverseSequence(t)
            self = .reverseSequence(sequenceAxis: Int(o.seqDim), batchAxis: Int(o.batchDim))
        case ID.bucketize: self = .bucketize(boundaries: try Small.bucketizeBoundaries(t))
        case ID.sparseToDense: self = .sparseToDense(validateIndices: try Small.sparseToDenseValidate(t))
        case ID.fakeQuant:
            let o = try Small.fakeQuant(t)
            self = .fakeQuant(min: o.min, max: o.max, numBits: Int(o.numBits), narrowRange: o.narrowRange)
        case ID.embeddingLookupSparse: self = .embeddingLookupSparse(combiner: try Small.combiner(t))
        default:
            if let more = try BuiltinOptions.decodeMore(typeID: typeID, table: t) {
                self = more
                return
            }
            self =
                Schema.BuiltinOptionsType.emptyTables.contains(typeID) ? .empty(typeID: typeID) : .other(typeID: typeID)
        }
    }
}

extension LSTMOptions {
    init(_ o: Schema.LSTMOptions) {
        self.init(
            activation: FusedActivation(rawValue: o.fusedActivation), cellClip: o.cellClip, projClip: o.projClip,
            kernelType: o.kernelType, timeMajor: o.timeMajor, mergeOutputs: o.mergeOutputs,
            asymmetricQuantizeInputs: o.asymmetricQuantizeInputs, diagonalRecurrentTensors: o.diagonalRecurrentTensors)
    }
}
