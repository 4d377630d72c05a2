/// A tensor of a subgraph as declared in the model.
public struct ModelTensor: Sendable {
    /// Index of this tensor in its subgraph.
    public var index: Int
    public var name: String
    public var type: ElementType
    /// Static shape; every dimension is ≥ 0 (validated at load).
    public var shape: [Int]
    /// Shape with `-1` for dimensions that may change at run time, when recorded.
    public var shapeSignature: [Int]?
    public var isVariable: Bool
    public var quantization: Quantization?
    public var sparsity: Sparsity?
    /// Index into the model's buffer table (0 = none).
    public var bufferIndex: Int
    /// Constant contents (a view into the model bytes), or nil for activations.
    /// For a dense numeric tensor its size equals `elementCount * type.byteSize`.
    public var constantData: ByteView?

    public init(
        index: Int, name: String, type: ElementType, shape: [Int], shapeSignature: [Int]? = nil,
        isVariable: Bool = false, quantization: Quantization? = nil, sparsity: Sparsity? = nil, bufferIndex: Int = 0,
        constantData: ByteView? = nil
    ) {
        self.index = index; self.name = name; self.type = type; self.shape = shape
        self.shapeSignature = shapeSignature; self.isVariable = isVariable; self.quantization = quantization
        self.sparsity = sparsity; self.bufferIndex = bufferIndex; self.constantData = constantData
    }

    /// Product of `shape` (1 for a scalar). Validated at load not to overflow.
    public var elementCount: Int { shape.reduce(1, *) }
    public var isConstant: Bool { constantData != nil }
}

/// The code of an operator: a builtin operator, or a custom one named by a string.
public struct OperatorCode: Hashable, Sendable, CustomStringConvertible {
    /// `max(builtin_code, deprecated_builtin_code)`, as TFLite reads it.
    public var builtin: BuiltinOperator
    /// The custom op's name when `builtin == .custom`.
    public var customName: String?
    public var version: Int

    public init(builtin: BuiltinOperator, customName: String? = nil, version: Int = 1) {
        self.builtin = builtin; self.customName = customName; self.version = version
    }

    /// `CONV_2D`, or `CUSTOM:TFLite_Detection_PostProcess` for custom ops.
    public var name: String {
        builtin == .custom ? "CUSTOM:\(customName ?? "")" : builtin.name
    }

    public var description: String { name }
}

/// One operator of a subgraph, in execution order.
public struct Operator: Sendable {
    /// Position in the subgraph's execution order.
    public var index: Int
    public var code: OperatorCode
    /// Tensor indices; `-1` marks an absent optional input.
    public var inputs: [Int]
    public var outputs: [Int]
    public var intermediates: [Int]
    public var options: BuiltinOptions
    /// The `builtin_options_2` union (StableHLO operators, REDUCE_WINDOW).
    public var options2: BuiltinOptions2
    /// Raw `custom_options` bytes (FlexBuffers when `customOptionsFormat == 0`).
    public var customOptions: ByteView?
    public var customOptionsFormat: Int8

    public init(
        index: Int, code: OperatorCode, inputs: [Int], outputs: [Int], intermediates: [Int] = [],
        options: BuiltinOptions = .none, customOptions: ByteView? = nil, customOptionsFormat: Int8 = 0,
        options2: BuiltinOptions2 = .none
    ) {
        self.index = index; self.code = code; self.inputs = inputs; self.outputs = outputs
        self.intermediates = intermediates; self.options = options; self.options2 = options2
        self.customOptions = customOptions; self.customOptionsFormat = customOptionsFormat
    }
}

/// A subgraph: tensors, graph inputs and outputs, and operators in execution order.
public struct Subgraph: Sendable {
    public var name: String
    public var tensors: [ModelTensor]
    public var inputs: [Int]
    public var outputs: [Int]
    public var operators: [Operator]

    public init(name: String, tensors: [ModelTensor], inputs: [Int], outputs: [Int], operators: [Operator]) {
        self.name = name; self.tensors = tensors; self.inputs = inputs; self.outputs = outputs;
        self.operators = operators
    }
}

/// A named entry point (`SignatureDef`): names mapped to tensors of one subgraph.
public struct Signature: Hashable, Sendable {
    public struct TensorName: Hashable, Sendable {
        public var name: String
        public var tensorIndex: Int
        public init(name: String, tensorIndex: Int) { self.name = name; self.tensorIndex = tensorIndex }
    }
    public var key: String
    public var subgraphIndex: Int
    public var inputs: [TensorName]
    public var outputs: [TensorName]
    public init(key: String, subgraphIndex: Int, inputs: [TensorName], outputs: [TensorName]) {
        self.key = key; self.subgraphIndex = subgraphIndex; self.inputs = inputs; self.outputs = outputs
    }
}

/// A `Metadata` entry: a name and the buffer it points to.
public struct MetadataEntry: Sendable {
    public var name: String
    public var bufferIndex: Int
    public var data: ByteView?
    public init(name: String, bufferIndex: Int, data: ByteView?) {
        self.name = name; self.bufferIndex = bufferIndex; self.data = data
    }
}
