/// A TFLite builtin operator code (`BuiltinOperator` in the schema).
///
/// A raw-value wrapper so that codes newer than this library still load; the runtime
/// reports them as unsupported by name (or number) when it prepares the graph.
public struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let add = BuiltinOperator(rawValue: 0)
    public static let averagePool2D = BuiltinOperator(rawValue: 1)
    public static let concatenation = BuiltinOperator(rawValue: 2)
    public static let conv2D = BuiltinOperator(rawValue: 3)
    public static let depthwiseConv2D = BuiltinOperator(rawValue: 4)
    public static let depthToSpace = BuiltinOperator(rawValue: 5)
    public static let dequantize = BuiltinOperator(rawValue: 6)
    public static let embeddingLookup = BuiltinOperator(rawValue: 7)
    public static let floor = BuiltinOperator(rawValue: 8)
    public static let fullyConnected = BuiltinOperator(rawValue: 9)
    public static let hashtableLookup = BuiltinOperator(rawValue: 10)
    public static let l2Normalization = BuiltinOperator(rawValue: 11)
    public static let l2Pool2D = BuiltinOperator(rawValue: 12)
    public static let localResponseNormalization = BuiltinOperator(rawValue: 13)
    public static let logistic = BuiltinOperator(rawValue: 14)
    public static let lshProjection = BuiltinOperator(rawValue: 15)
    public static let lstm = BuiltinOperator(rawValue: 16)
    public static let maxPool2D = BuiltinOperator(rawValue: 17)
    public static let mul = BuiltinOperator(rawValue: 18)
    public static let relu = BuiltinOperator(rawValue: 19)
    public static let reluN1To1 = BuiltinOperator(rawValue: 20)
    public static let relu6 = BuiltinOperator(rawValue: 21)
    public static let reshape = BuiltinOperator(rawValue: 22)
    public static let resizeBilinear = BuiltinOperator(rawValue: 23)
    public static let rnn = BuiltinOperator(rawValue: 24)
    public static let softmax = BuiltinOperator(rawValue: 25)
    public static let spaceToDepth = BuiltinOperator(rawValue: 26)
    public static let svdf = BuiltinOperator(rawValue: 27)
    public static let tanh = BuiltinOperator(rawValue: 28)
    public static let concatEmbeddings = BuiltinOperator(rawValue: 29)
    public static let skipGram = BuiltinOperator(rawValue: 30)
    public static let call = BuiltinOperator(rawValue: 31)
    public static let custom = BuiltinOperator(rawValue: 32)
    public static let embeddingLookupSparse = BuiltinOperator(rawValue: 33)
    public static let pad = BuiltinOperator(rawValue: 34)
    public static let unidirectionalSequenceRnn = BuiltinOperator(rawValue: 35)
    public static let gather = BuiltinOperator(rawValue: 36)
    public static let batchToSpaceND = BuiltinOperator(rawValue: 37)
    public static let spaceToBatchND = BuiltinOperator(rawValue: 38)
    public static let transpose = BuiltinOperator(rawValue: 39)
    public static let mean = BuiltinOperator(rawValue: 40)
    public static let sub = BuiltinOperator(rawValue: 41)
    public static let div = BuiltinOperator(rawValue: 42)
    public static let squeeze = BuiltinOperator(rawValue: 43)
    public static let unidirectionalSequenceLstm = BuiltinOperator(rawValue: 44)
    public static let stridedSlice = BuiltinOperator(rawValue: 45)
    public static let bidirectionalSequenceRnn = BuiltinOperator(rawValue: 46)
    public static let exp = BuiltinOperator(rawValue: 47)
    public static let topkV2 = BuiltinOperator(rawValue: 48)
    public static let split = BuiltinOperator(rawValue: 49)
    public static let logSoftmax = BuiltinOperator(rawValue: 50)
    public static let delegate = BuiltinOperator(rawValue: 51)
    public static let bidirectionalSequenceLstm = BuiltinOperator(rawValue: 52)
    public static let cast = BuiltinOperator(rawValue: 53)
    public static let prelu = BuiltinOperator(rawValue: 54)
    public static let maximum = BuiltinOperator(rawValue: 55)
    public static let argMax = BuiltinOperator(rawValue: 56)
    public static let minimum = BuiltinOperator(rawValue: 57)
    public static let less = BuiltinOperator(rawValue: 58)
    public static let neg = BuiltinOperator(rawValue: 59)
    public static let padv2 = BuiltinOperator(rawValue: 60)
    public static let greater = BuiltinOperator(rawValue: 61)
    public static let greaterEqual = BuiltinOperator(rawValue: 62)
    public static let lessEqual = BuiltinOperator(rawValue: 63)
    public static let select = BuiltinOperator(rawValue: 64)
    public static let slice = BuiltinOperator(rawValue: 65)
    public static let sin = BuiltinOperator(rawValue: 66)
    public static let transposeConv = BuiltinOperator(rawValue: 67)
    public static let sparseToDense = BuiltinOperator(rawValue: 68)
    public static let tile = BuiltinOperator(rawValue: 69)
    public static let expandDims = BuiltinOperator(rawValue: 70)
    public static let equal = BuiltinOperator(rawValue: 71)
    public static let notEqual = BuiltinOperator(rawValue: 72)
    public static let log = BuiltinOperator(rawValue: 73)
    public static let sum = BuiltinOperator(rawValue: 74)
    public static let sqrt = BuiltinOperator(rawValue: 75)
    public static let rsqrt = BuiltinOperator(rawValue: 76)
    public static let shape = BuiltinOperator(rawValue: 77)
    public static let pow = BuiltinOperator(rawValue: 78)
    public static let argMin = BuiltinOperator(rawValue: 79)
    public static let fakeQuant = BuiltinOperator(rawValue: 80)
    public static let reduceProd = BuiltinOperator(rawValue: 81)
    public static let reduceMax = BuiltinOperator(rawValue: 82)
    public static let pack = BuiltinOperator(rawValue: 83)
    public static let logicalOr = BuiltinOperator(rawValue: 84)
    public static let oneHot = BuiltinOperator(rawValue: 85)
    public static let logicalAnd = BuiltinOperator(rawValue: 86)
    public static let logicalNot = BuiltinOperator(rawValue: 87)
    public static let unpack = BuiltinOperator(rawValue: 88)
    public static let reduceMin = BuiltinOperator(rawValue: 89)
    public static let floorDiv = BuiltinOperator(rawValue: 90)
    public static let reduceAny = BuiltinOperator(rawValue: 91)
    public static let square = BuiltinOperator(rawValue: 92)
    public static let zerosLike = BuiltinOperator(rawValue: 93)
    public static let fill = BuiltinOperator(rawValue: 94)
    public static let floorMod = BuiltinOperator(rawValue: 95)
    public static let range = BuiltinOperator(rawValue: 96)
    public static let resizeNearestNeighbor = BuiltinOperator(rawValue: 97)
    public static let leakyRelu = BuiltinOperator(rawValue: 98)
    public static let squaredDifference = BuiltinOperator(rawValue: 99)
    public static let mirrorPad = BuiltinOperator(rawValue: 100)
    public static let abs = BuiltinOperator(rawValue: 101)
    public static let splitV = BuiltinOperator(rawValue: 102)
    public static let unique = BuiltinOperator(rawValue: 103)
    public static let ceil = BuiltinOperator(rawValue: 104)
    public static let reverseV2 = BuiltinOperator(rawValue: 105)
    public static let addN = BuiltinOperator(rawValue: 106)
    public static let gatherND = BuiltinOperator(rawValue: 107)
    public static let cos = BuiltinOperator(rawValue: 108)
    public static let `where` = BuiltinOperator(rawValue: 109)
    public static let rank = BuiltinOperator(rawValue: 110)
    public static let elu = BuiltinOperator(rawValue: 111)
    public static let reverseSequence = BuiltinOperator(rawValue: 112)
    public static let matrixDiag = BuiltinOperator(rawValue: 113)
    public static let quantize = BuiltinOperator(rawValue: 114)
    public static let matrixSetDiag = BuiltinOperator(rawValue: 115)
    public static let round = BuiltinOperator(rawValue: 116)
    public static let hardSwish = BuiltinOperator(rawValue: 117)
    public static let `if` = BuiltinOperator(rawValue: 118)
    public static let `while` = BuiltinOperator(rawValue: 119)
    public static let nonMaxSuppressionV4 = BuiltinOperator(rawValue: 120)
    public static let nonMaxSuppressionV5 = BuiltinOperator(rawValue: 121)
    public static let scatterND = BuiltinOperator(rawValue: 122)
    public static let selectV2 = BuiltinOperator(rawValue: 123)
    public static let densify = BuiltinOperator(rawValue: 124)
    public static let segmentSum = BuiltinOperator(rawValue: 125)
    public static let batchMatmul = BuiltinOperator(rawValue: 126)
    public static let placeholderForGreaterOpCodes = BuiltinOperator(rawValue: 127)
    public static let cumsum = BuiltinOperator(rawValue: 128)
    public static let callOnce = BuiltinOperator(rawValue: 129)
    public static let broadcastTo = BuiltinOperator(rawValue: 130)
    public static let rfft2D = BuiltinOperator(rawValue: 131)
    public static let conv3D = BuiltinOperator(rawValue: 132)
    public static let imag = BuiltinOperator(rawValue: 133)
    public static let real = BuiltinOperator(rawValue: 134)
    public static let complexAbs = BuiltinOperator(rawValue: 135)
    public static let hashtable = BuiltinOperator(rawValue: 136)
    public static let hashtableFind = BuiltinOperator(rawValue: 137)
    public static let hashtableImport = BuiltinOperator(rawValue: 138)
    public static let hashtableSize = BuiltinOperator(rawValue: 139)
    public static let reduceAll = BuiltinOperator(rawValue: 140)
    public static let conv3DTranspose = BuiltinOperator(rawValue: 141)
    public static let varHandle = BuiltinOperator(rawValue: 142)
    public static let readVariable = BuiltinOperator(rawValue: 143)
    public static let assignVariable = BuiltinOperator(rawValue: 144)
    public static let broadcastArgs = BuiltinOperator(rawValue: 145)
    public static let randomStandardNormal = BuiltinOperator(rawValue: 146)
    public static let bucketize = BuiltinOperator(rawValue: 147)
    public static let randomUniform = BuiltinOperator(rawValue: 148)
    public static let multinomial = BuiltinOperator(rawValue: 149)
    public static let gelu = BuiltinOperator(rawValue: 150)
    public static let dynamicUpdateSlice = BuiltinOperator(rawValue: 151)
    public static let relu0To1 = BuiltinOperator(rawValue: 152)
    public static let unsortedSegmentProd = BuiltinOperator(rawValue: 153)
    public static let unsortedSegmentMax = BuiltinOperator(rawValue: 154)
    public static let unsortedSegmentSum = BuiltinOperator(rawValue: 155)
    public static let atan2 = BuiltinOperator(rawValue: 156)
    public static let unsortedSegmentMin = BuiltinOperator(rawValue: 157)
    public static let sign = BuiltinOperator(rawValue: 158)
    public static let bitcast = BuiltinOperator(rawValue: 159)
    public static let bitwiseXor = BuiltinOperator(rawValue: 160)
    public static let rightShift = BuiltinOperator(rawValue: 161)

    /// Names indexed by code, as in the schema. Codes past the end print as `BUILTIN_<n>`.
    static let names: [String] = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D",
        "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP",
        "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION",
        "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION",
        "LSTM", "MAX_POOL_2D", "MUL", "RELU",
        "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR",
        "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF",
        "TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL",
        "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN",
        "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE",
        "MEAN", "SUB", "DIV", "SQUEEZE",
        "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP",
        "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE",
        "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
        "ARG_MAX", "MINIMUM", "LESS", "NEG",
        "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL",
        "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV",
        "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
        "NOT_EQUAL", "LOG", "SUM", "SQRT",
        "RSQRT", "SHAPE", "POW", "ARG_MIN",
        "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK",
        "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT",
        "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY",
        "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD",
        "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE",
        "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE",
        "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND",
        "COS", "WHERE", "RANK", "ELU",
        "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG",
        "ROUND", "HARD_SWISH", "IF", "WHILE",
        "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2",
        "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES",
        "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D",
        "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS",
        "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE",
        "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE",
        "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE",
        "RANDOM_UNIFORM", "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE",
        "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM",
        "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST",
        "BITWISE_XOR", "RIGHT_SHIFT", "STABLEHLO_LOGISTIC", "STABLEHLO_ADD",
        "STABLEHLO_DIVIDE", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_RESHAPE",
        "STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM", "STABLEHLO_CONVOLUTION",
        "STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL", "STABLEHLO_REDUCE", "STABLEHLO_ABS",
        "STABLEHLO_AND", "STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR",
        "STABLEHLO_LOG", "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR",
        "STABLEHLO_POWER", "STABLEHLO_REMAINDER", "STABLEHLO_RSQRT", "STABLEHLO_SELECT",
        "STABLEHLO_SUBTRACT", "STABLEHLO_TANH", "STABLEHLO_SCATTER", "STABLEHLO_COMPARE",
        "STABLEHLO_CONVERT", "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE", "STABLEHLO_PAD",
        "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL", "STABLEHLO_REDUCE_WINDOW", "STABLEHLO_SORT",
        "STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE", "DILATE",
        "STABLEHLO_RNG_BIT_GENERATOR", "REDUCE_WINDOW", "STABLEHLO_COMPOSITE", "STABLEHLO_SHIFT_LEFT",
        "STABLEHLO_CBRT", "STABLEHLO_CASE",
    ]

    /// TFLite's upper-case name (`CONV_2D`), or `BUILTIN_<n>` for a code this table lacks.
    public var name: String {
        let i = Int(rawValue)
        return i >= 0 && i < Self.names.count ? Self.names[i] : "BUILTIN_\(rawValue)"
    }

    public var description: String { name }

    /// Every operator code the schema names, in code order (including `CUSTOM`,
    /// `DELEGATE`, the placeholder code and the StableHLO operators).
    public static var schemaOperators: [BuiltinOperator] {
        names.indices.map { BuiltinOperator(rawValue: Int32($0)) }
    }
}
