import TFLiteModel

/// The `inspect --json` document for `model`.
///
/// Operators, tensor counts, the histogram and byte totals describe subgraph 0 (the one
/// the interpreter runs); `subgraphs` gives the total count, `subgraph_operators` the
/// operators of subgraphs 1... (those IF, WHILE and CALL_ONCE run), `variables` the state
/// the model keeps between invokes. Keys are sorted.
public func inspectJSON(_ model: Model) -> JSONValue {
    let summary = ModelSummary(model)
    let main = summary.main
    var histogram: [String: JSONValue] = [:]
    for entry in main?.histogram ?? [] { histogram[entry.name] = .int(entry.count) }
    var members: [String: JSONValue] = [:]
    members["version"] = .int(Int(summary.version))
    members["description"] = .optional(summary.description, JSONValue.string)
    members["subgraphs"] = .int(summary.subgraphs.count)
    members["tensors"] = .int(main?.tensorCount ?? 0)
    members["inputs"] = .array((main?.inputs ?? []).map(json))
    members["outputs"] = .array((main?.outputs ?? []).map(json))
    members["signatures"] = .array(summary.signatures.map(json))
    members["operators"] = .array((main?.operators ?? []).map(json))
    members["subgraph_operators"] = .array(summary.subgraphs.dropFirst().map { .array($0.operators.map(json)) })
    members["variables"] = .array(
        summary.variables.map { v in
            .object([
                "name": .string(v.name), "kind": .string(v.kind), "subgraph": .int(v.subgraph),
                "tensor": .optional(v.tensor, JSONValue.int),
                "type": .optional(v.type) { .string($0.name) },
                "shape": .optional(v.shape) { .array($0.map(JSONValue.int)) },
            ])
        })
    members["op_histogram"] = .object(histogram)
    members["constant_bytes"] = .int(main?.constantBytes ?? 0)
    members["activation_bytes"] = .int(main?.activationBytes ?? 0)
    members["metadata"] = .array(summary.metadata.map { .object(["name": .string($0.name), "size": .int($0.size)]) })
    members["min_runtime_version"] = .optional(summary.minRuntimeVersion, JSONValue.string)
    return .object(members)
}

private func json(_ tensor: ModelSummary.TensorInfo) -> JSONValue {
    .object([
        "index": .int(tensor.index),
        "name": .string(tensor.name),
        "type": .string(tensor.type.name),
        "shape": .array(tensor.shape.map(JSONValue.int)),
        "static_shape": .array(tensor.staticShape.map(JSONValue.int)),
        "quantization": .optional(tensor.quantization) { q in
            .object([
                "scale": .array(q.scales.map(JSONValue.float)),
                "zero_point": .array(q.zeroPoints.map { .int(Int(clamping: $0)) }),
                "quantized_dimension": .int(q.quantizedDimension),
            ])
        },
    ])
}

private func json(_ signature: Signature) -> JSONValue {
    func names(_ list: [Signature.TensorName]) -> JSONValue {
        .object(
            Dictionary(list.map { ($0.name, JSONValue.int($0.tensorIndex)) }, uniquingKeysWith: { first, _ in first }))
    }
    return .object([
        "key": .string(signature.key),
        "subgraph": .int(signature.subgraphIndex),
        "inputs": names(signature.inputs),
        "outputs": names(signature.outputs),
    ])
}

/// An operator; `calls` (role → subgraph) only for IF, WHILE and CALL_ONCE, `variable`
/// only for VAR_HANDLE.
private func json(_ op: ModelSummary.OperatorInfo) -> JSONValue {
    var members: [String: JSONValue] = [
        "index": .int(op.index),
        "op": .string(op.name),
        "version": .int(op.version),
        "activation": .optional(op.activation) { .string($0.name) },
        "inputs": .array(op.inputs.map(JSONValue.int)),
        "outputs": .array(op.outputs.map(JSONValue.int)),
        "custom_options": op.customOptions ?? .null,
    ]
    if !op.calls.isEmpty {
        members["calls"] = .object(
            Dictionary(op.calls.map { ($0.role, JSONValue.int($0.subgraph)) }, uniquingKeysWith: { a, _ in a }))
    }
    if let variable = op.variable { members["variable"] = .string(variable) }
    return .object(members)
}
