/// Padding scheme of convolutions and pools (schema `Padding`: SAME = 0, VALID = 1).
public enum Padding: Hashable, Sendable {
    case same
    case valid
    /// A value outside the schema; the kernel that reads it rejects the operator.
    case unknown(Int8)

    public init(rawValue: Int8) {
        switch rawValue {
        case 0: self = .same
        case 1: self = .valid
        default: self = .unknown(rawValue)
        }
    }
}

/// Fused activation applied to an operator's output (schema `ActivationFunctionType`).
public enum FusedActivation: Hashable, Sendable {
    case none, relu, reluN1To1, relu6, tanh, signBit
    case unknown(Int8)

    public init(rawValue: Int8) {
        switch rawValue {
        case 0: self = .none
        case 1: self = .relu
        case 2: self = .reluN1To1
        case 3: self = .relu6
        case 4: self = .tanh
        case 5: self = .signBit
        default: self = .unknown(rawValue)
        }
    }

    /// TFLite's upper-case name, as shown by `inspect`.
    public var name: String {
        switch self {
        case .none: return "NONE"
        case .relu: return "RELU"
        case .reluN1To1: return "RELU_N1_TO_1"
        case .relu6: return "RELU6"
        case .tanh: return "TANH"
        case .signBit: return "SIGN_BIT"
        case .unknown(let v): return "ACTIVATION_\(v)"
        }
    }
}

public struct Conv2DOptions: Hashable, Sendable {
    public var padding: Padding
    public var strideWidth: Int
    public var strideHeight: Int
    public var activation: FusedActivation
    public var dilationWidth: Int
    public var dilationHeight: Int
    public init(
        padding: Padding, strideWidth: Int, strideHeight: Int, activation: FusedActivation, dilationWidth: Int = 1,
        dilationHeight: Int = 1
    ) {
        self.padding = padding; self.strideWidth = strideWidth; self.strideHeight = strideHeight
        self.activation = activation; self.dilationWidth = dilationWidth; self.dilationHeight = dilationHeight
    }
}

public struct DepthwiseConv2DOptions: Hashable, Sendable {
    public var padding: Padding
    public var strideWidth: Int
    public var strideHeight: Int
    /// Recorded by the converter; TFLite derives the multiplier from the shapes instead.
    public var depthMultiplier: Int
    public var activation: FusedActivation
    public var dilationWidth: Int
    public var dilationHeight: Int
    public init(
        padding: Padding, strideWidth: Int, strideHeight: Int, depthMultiplier: Int, activation: FusedActivation,
        dilationWidth: Int = 1, dilationHeight: Int = 1
    ) {
        self.padding = padding; self.strideWidth = strideWidth; self.strideHeight = strideHeight
        self.depthMultiplier = depthMultiplier; self.activation = activation
        self.dilationWidth = dilationWidth; self.dilationHeight = dilationHeight
    }
}

public struct Pool2DOptions: Hashable, Sendable {
    public var padding: Padding
    public var strideWidth: Int
    public var strideHeight: Int
    public var filterWidth: Int
    public var filterHeight: Int
    public var activation: FusedActivation
    public init(
        padding: Padding, strideWidth: Int, strideHeight: Int, filterWidth: Int, filterHeight: Int,
        activation: FusedActivation
    ) {
        self.padding = padding; self.strideWidth = strideWidth; self.strideHeight = strideHeight
        self.filterWidth = filterWidth; self.filterHeight = filterHeight; self.activation = activation
    }
}

public struct FullyConnectedOptions: Hashable, Sendable {
    public var activation: FusedActivation
    /// 0 = DEFAULT, 1 = SHUFFLED4x16INT8 (not supported by the runtime).
    public var weightsFormat: Int8
    public var keepNumDims: Bool
    public var asymmetricQuantizeInputs: Bool
    public init(
        activation: FusedActivation, weightsFormat: Int8 = 0, keepNumDims: Bool = false,
        asymmetricQuantizeInputs: Bool = false
    ) {
        self.activation = activation; self.weightsFormat = weightsFormat
        self.keepNumDims = keepNumDims; self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
    }
}

public struct TransposeConvOptions: Hashable, Sendable {
    public var padding: Padding
    public var strideWidth: Int
    public var strideHeight: Int
    public var activation: FusedActivation
    public init(padding: Padding, strideWidth: Int, strideHeight: Int, activation: FusedActivation = .none) {
        self.padding = padding; self.strideWidth = strideWidth; self.strideHeight = strideHeight;
        self.activation = activation
    }
}

public struct ResizeOptions: Hashable, Sendable {
    public var alignCorners: Bool
    public var halfPixelCenters: Bool
    public init(alignCorners: Bool, halfPixelCenters: Bool) {
        self.alignCorners = alignCorners; self.halfPixelCenters = halfPixelCenters
    }
}

public struct StridedSliceOptions: Hashable, Sendable {
    public var beginMask: Int32
    public var endMask: Int32
    public var ellipsisMask: Int32
    public var newAxisMask: Int32
    public var shrinkAxisMask: Int32
    public var offset: Bool
    public init(
        beginMask: Int32 = 0, endMask: Int32 = 0, ellipsisMask: Int32 = 0, newAxisMask: Int32 = 0,
        shrinkAxisMask: Int32 = 0, offset: Bool = false
    ) {
        self.beginMask = beginMask; self.endMask = endMask; self.ellipsisMask = ellipsisMask
        self.newAxisMask = newAxisMask; self.shrinkAxisMask = shrinkAxisMask; self.offset = offset
    }
}

public struct BatchMatMulOptions: Hashable, Sendable {
    public var adjointX: Bool
    public var adjointY: Bool
    public var asymmetricQuantizeInputs: Bool
    public init(adjointX: Bool, adjointY: Bool, asymmetricQuantizeInputs: Bool = false) {
        self.adjointX = adjointX; self.adjointY = adjointY; self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
    }
}

/// The options of LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM
/// (each decoded from its own table; fields a table lacks keep their defaults).
public struct LSTMOptions: Hashable, Sendable {
    /// The cell gate's and the output's activation (TANH in practice).
    public var activation: FusedActivation
    /// Clip the cell state to `[-cellClip, cellClip]` when positive (0: no clipping).
    public var cellClip: Float
    /// Clip the projection's output to `[-projClip, projClip]` when positive.
    public var projClip: Float
    /// LSTM only: 0 = FULL (the 24-input kernel), 1 = BASIC (the 5-input kernel).
    public var kernelType: Int8
    /// Sequence ops: the input is `[time, batch, features]` instead of `[batch, time, features]`.
    public var timeMajor: Bool
    /// BIDIRECTIONAL_SEQUENCE_LSTM: both directions' outputs go to the first output.
    public var mergeOutputs: Bool
    /// Hybrid kernels quantize each float row with a zero point instead of symmetrically.
    public var asymmetricQuantizeInputs: Bool
    /// UNIDIRECTIONAL_SEQUENCE_LSTM: the recurrent weights may be diagonal (rank 1).
    public var diagonalRecurrentTensors: Bool
    public init(
        activation: FusedActivation, cellClip: Float = 0, projClip: Float = 0, kernelType: Int8 = 0,
        timeMajor: Bool = false, mergeOutputs: Bool = false, asymmetricQuantizeInputs: Bool = false,
        diagonalRecurrentTensors: Bool = false
    ) {
        self.activation = activation; self.cellClip = cellClip; self.projClip = projClip
        self.kernelType = kernelType; self.timeMajor = timeMajor; self.mergeOutputs = mergeOutputs
        self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
        self.diagonalRecurrentTensors = diagonalRecurrentTensors
    }
}

/// The decoded `builtin_options` of an operator.
///
/// Only the tables the runtime reads are decoded into typed values; any other table
/// is kept as `.other(typeID:)` so `inspect` can name it and the runtime can reject
/// the operator with a precise message.
public enum BuiltinOptions: Hashable, Sendable {
    case none
    case conv2D(Conv2DOptions)
    case depthwiseConv2D(DepthwiseConv2DOptions)
    case pool2D(Pool2DOptions)
    case fullyConnected(FullyConnectedOptions)
    /// `beta` (0 when the table is absent, as in TFLite).
    case softmax(beta: Float)
    case concatenation(axis: Int, activation: FusedActivation)
    case add(activation: FusedActivation, potScaleInt16: Bool)
    case sub(activation: FusedActivation, potScaleInt16: Bool)
    case mul(activation: FusedActivation)
    case div(activation: FusedActivation)
    case reshape(newShape: [Int]?)
    case resizeBilinear(ResizeOptions)
    case resizeNearestNeighbor(ResizeOptions)
    case spaceToDepth(blockSize: Int)
    case depthToSpace(blockSize: Int)
    case reducer(keepDims: Bool)
    case squeeze(squeezeDims: [Int])
    case stridedSlice(StridedSliceOptions)
    case gather(axis: Int, batchDims: Int)
    case leakyRelu(alpha: Float)
    case transposeConv(TransposeConvOptions)
    case rnn(RNNOptions)
    case sequenceRNN(SequenceRNNOptions)
    case bidirectionalSequenceRNN(BidirectionalSequenceRNNOptions)
    case svdf(SVDFOptions)
    case pack(valuesCount: Int, axis: Int)
    case unpack(num: Int, axis: Int)
    case split(numSplits: Int)
    case splitV(numSplits: Int)
    /// 0 = REFLECT, 1 = SYMMETRIC.
    case mirrorPad(mode: Int8)
    case batchMatMul(BatchMatMulOptions)
    case cast(inType: ElementType, outType: ElementType)
    case shape(outType: ElementType)
    /// GELU: the tanh approximation instead of the exact erf form.
    case gelu(approximate: Bool)
    case l2Norm(activation: FusedActivation)
    /// Window half-width `radius`; `y = x · (bias + alpha · Σ x²)^(−beta)`.
    case localResponseNormalization(radius: Int, bias: Float, alpha: Float, beta: Float)
    case cumsum(exclusive: Bool, reverse: Bool)
    /// IF: the subgraphs run when the condition is true and when it is false.
    case ifBranches(thenSubgraph: Int, elseSubgraph: Int)
    /// WHILE: the condition subgraph and the body subgraph.
    case whileLoop(condSubgraph: Int, bodySubgraph: Int)
    /// CALL_ONCE: the initialization subgraph.
    case callOnce(initSubgraph: Int)
    /// VAR_HANDLE: the variable's container and shared name (empty when absent).
    case varHandle(container: String, sharedName: String)
    case conv3D(Conv3DOptions)
    /// RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL: the generator's two seeds.
    case random(seed: Int64, seed2: Int64)
    case lstm(LSTMOptions)
    case unidirectionalSequenceLSTM(LSTMOptions)
    case bidirectionalSequenceLSTM(LSTMOptions)
    /// ONE_HOT: the new axis (-1: last).
    case oneHot(axis: Int)
    /// UNIQUE: the element type of the index output (INT32 or INT64).
    case unique(indexType: ElementType)
    case reverseSequence(sequenceAxis: Int, batchAxis: Int)
    /// BUCKETIZE: the bucket edges, which TFLite requires sorted.
    case bucketize(boundaries: [Float])
    /// SPARSE_TO_DENSE: recorded by the converter; TFLite's kernel does not read it.
    case sparseToDense(validateIndices: Bool)
    /// FAKE_QUANT: the range `[min, max]` and bit width of the simulated quantization.
    case fakeQuant(min: Float, max: Float, numBits: Int, narrowRange: Bool)
    /// EMBEDDING_LOOKUP_SPARSE: SUM = 0, MEAN = 1, SQRTN = 2 (schema `CombinerType`).
    case embeddingLookupSparse(combiner: Int8)
    /// LSH_PROJECTION: 1 SPARSE (one signature per hash function), 2 DENSE (one bit per
    /// seed); other codes are refused at prepare.
    case lshProjection(type: Int8)
    /// SKIP_GRAM: words per gram, how many words a gram may skip between two of its words,
    /// and whether grams of every size up to `ngramSize` are produced.
    case skipGram(ngramSize: Int, maxSkipSize: Int, includeAllNgrams: Bool)
    /// HASHTABLE: the interpreter's id of the table and its key and value types.
    case hashtable(tableID: Int32, keyType: ElementType, valueType: ElementType)
    /// An options table with no fields (PadOptions, QuantizeOptions, HardSwishOptions...).
    case empty(typeID: UInt8)
    /// A table this library does not decode (`builtin_options_type` value kept).
    case other(typeID: UInt8)
}
