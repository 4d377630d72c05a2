import TFLiteModel

/// What `inspect` reports about a model, computed once and rendered as text
/// (``inspectText(_:)``) or JSON (``inspectJSON(_:)``), so the two never disagree.
///
/// Everything is derived defensively: an out-of-range tensor index (impossible in a
/// decoded model, possible in a hand-built one) is shown, not trapped on.
struct ModelSummary {
    struct TensorInfo {
        var index: Int
        var name: String
        var type: ElementType
        /// `shape` with `-1` where `shape_signature` marks a dynamic dimension.
        var shape: [Int]
        var staticShape: [Int]
        /// nil for unquantized tensors (no parameters, or an empty scale list).
        var quantization: Quantization?
    }

    struct OperatorInfo {
        var index: Int
        /// `CONV_2D`, or `CUSTOM:<name>`.
        var name: String
        var version: Int
        /// nil when the operator's options have no fused-activation field.
        var activation: FusedActivation?
        var inputs: [Int]
        var outputs: [Int]
        /// Byte count of `custom_options`, when present.
        var customOptionsSize: Int?
        /// Decoded `custom_options`, when FlexBuffers decoding is available.
        var customOptions: JSONValue?
        /// The subgraphs a control-flow operator runs (IF, WHILE, CALL_ONCE).
        var calls: [SubgraphCall] = []
        /// The variable a VAR_HANDLE names.
        var variable: String?
    }

    /// State a model keeps between invokes: a variable tensor (`is_variable`, the state
    /// of recurrent operators) or a resource variable a VAR_HANDLE names.
    struct VariableInfo {
        var subgraph: Int
        /// The tensor's name, or the VAR_HANDLE's shared name.
        var name: String
        /// `tensor` or `resource`.
        var kind: String
        /// The variable tensor's index and shape (nil for a resource variable).
        var tensor: Int?
        var type: ElementType?
        var shape: [Int]?
    }

    struct SubgraphInfo {
        var name: String
        var tensorCount: Int
        var inputs: [TensorInfo]
        var outputs: [TensorInfo]
        var operators: [OperatorInfo]
        /// Operator name → count, most frequent first, then by name.
        var histogram: [(name: String, count: Int)]
        /// Distinct constant buffers used by this subgraph's tensors.
        var constantBuffers: Int
        var constantBytes: Int
        /// Static-shape byte size of every non-constant tensor with a fixed-size type.
        var activationBytes: Int
        /// STRING tensors that are not constants: sized at run time, outside the arena.
        var stringTensors = 0
    }

    var version: UInt32
    var description: String?
    var subgraphs: [SubgraphInfo]
    var signatures: [Signature]
    var metadata: [(name: String, size: Int)]
    var minRuntimeVersion: String?
    var variables: [VariableInfo]

    init(_ model: Model) {
        version = model.version
        description = model.modelDescription
        subgraphs = model.subgraphs.map(Self.summarize)
        var variables: [VariableInfo] = []
        var names = Set<String>()
        for (s, subgraph) in model.subgraphs.enumerated() {
            for t in subgraph.tensors where t.isVariable {
                variables.append(
                    VariableInfo(
                        subgraph: s, name: t.name, kind: "tensor", tensor: t.index, type: t.type, shape: t.shape))
            }
            for op in subgraph.operators {
                guard case .varHandle(let container, let name) = op.options else { continue }
                let full = container.isEmpty ? name : "\(container)/\(name)"
                if names.insert(full).inserted {
                    variables.append(VariableInfo(subgraph: s, name: full, kind: "resource"))
                }
            }
        }
        self.variables = variables
        signatures = model.signatures
        metadata = model.metadata.map { ($0.name, $0.data?.count ?? 0) }
        minRuntimeVersion = model.minRuntimeVersion
    }

    /// Subgraph 0, which the interpreter runs (nil only for a hand-built empty model).
    var main: SubgraphInfo? { subgraphs.first }

    static func summarize(_ subgraph: Subgraph) -> SubgraphInfo {
        let tensors = subgraph.tensors
        func info(_ i: Int) -> TensorInfo {
            guard tensors.indices.contains(i) else {
                return TensorInfo(
                    index: i, name: "<no tensor \(i)>", type: ElementType(rawValue: -1), shape: [], staticShape: [],
                    quantization: nil)
            }
            return tensorInfo(tensors[i], index: i)
        }
        let operators = subgraph.operators.map { op in
            OperatorInfo(
                index: op.index, name: op.code.name, version: op.code.version,
                activation: op.options.fusedActivation, inputs: op.inputs, outputs: op.outputs,
                customOptionsSize: op.customOptions?.count,
                customOptions: op.customOptions.flatMap { op.customOptionsFormat == 0 ? customOptionsJSON($0) : nil },
                calls: op.subgraphCalls, variable: op.variableName)
        }
        var counts: [String: Int] = [:]
        for op in operators { counts[op.name, default: 0] += 1 }
        let histogram = counts.map { (name: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }

        var constantSizes: [Int: Int] = [:]
        var activationBytes = 0
        var stringTensors = 0
        for (i, tensor) in tensors.enumerated() {
            if tensor.type == .string && tensor.constantData == nil { stringTensors += 1 }
            if let data = tensor.constantData {
                // Key by buffer so shared buffers count once; a constant without a buffer
                // index (hand-built models) counts on its own.
                constantSizes[tensor.bufferIndex > 0 ? tensor.bufferIndex : -1 - i] = data.count
            } else {
                activationBytes = saturatingAdd(activationBytes, staticByteSize(tensor) ?? 0)
            }
        }
        return SubgraphInfo(
            name: subgraph.name, tensorCount: tensors.count,
            inputs: subgraph.inputs.map(info), outputs: subgraph.outputs.map(info),
            operators: operators, histogram: histogram,
            constantBuffers: constantSizes.count,
            constantBytes: constantSizes.values.reduce(0, saturatingAdd),
            activationBytes: activationBytes, stringTensors: stringTensors
        )
    }

    static func tensorInfo(_ tensor: ModelTensor, index: Int) -> TensorInfo {
        var shape = tensor.shape
        if let signature = tensor.shapeSignature, signature.count == shape.count {
            shape = zip(shape, signature).map { $1 == -1 ? -1 : $0 }
        }
        let quantization = tensor.quantization.flatMap { $0.scales.isEmpty ? nil : $0 }
        return TensorInfo(
            index: index, name: tensor.name, type: tensor.type, shape: shape, staticShape: tensor.shape,
            quantization: quantization)
    }

    /// `elementCount × byteSize` of the static shape, saturating at `Int.max`; nil for
    /// types without a fixed element size (strings, resources, sub-byte types).
    static func staticByteSize(_ tensor: ModelTensor) -> Int? {
        guard let size = tensor.type.byteSize else { return nil }
        var total = size
        for dim in tensor.shape {
            let (p, overflow) = total.multipliedReportingOverflow(by: Swift.max(dim, 0))
            if overflow { return Int.max }
            total = p
        }
        return total
    }
}

/// `a + b`, clamped to `Int.max`: a byte total shown to a person must not trap.
func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (s, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : s
}

extension BuiltinOptions {
    /// The fused activation, for options tables that have one; nil otherwise.
    var fusedActivation: FusedActivation? {
        switch self {
        case .conv2D(let o): return o.activation
        case .depthwiseConv2D(let o): return o.activation
        case .pool2D(let o): return o.activation
        case .fullyConnected(let o): return o.activation
        case .transposeConv(let o): return o.activation
        case .rnn(let o): return o.activation
        case .sequenceRNN(let o): return o.activation
        case .bidirectionalSequenceRNN(let o): return o.activation
        case .svdf(let o): return o.activation
        case .concatenation(_, let a), .add(let a, _), .sub(let a, _), .mul(let a), .div(let a): return a
        default: return nil
        }
    }
}

extension Operator {
    /// The shared name a VAR_HANDLE gives its variable (`container/name` with a container).
    fileprivate var variableName: String? {
        guard case .varHandle(let container, let name) = options else { return nil }
        return container.isEmpty ? name : "\(container)/\(name)"
    }
}
