import TFLiteFormat

extension ModelDecoder {
    /// Validates a subgraph: its tensors, graph inputs and outputs, each operator's
    /// indices, and that operators run in an order where every tensor read exists.
    func subgraph(_ raw: RawSubgraph, index s: Int, codes: [OperatorCode], buffers: [ByteView?]) throws(ModelError)
        -> Subgraph
    {
        var tensors: [ModelTensor] = []
        tensors.reserveCapacity(raw.tensors.count)
        for (t, rawTensor) in raw.tensors.enumerated() {
            tensors.append(try tensor(rawTensor, index: t, subgraph: s, buffers: buffers))
        }
        let count = tensors.count

        func graphIndices(_ list: [Int32], _ role: String) throws(ModelError) -> [Int] {
            var result: [Int] = []
            for (i, t) in list.enumerated() {
                guard t >= 0, Int(t) < count else {
                    throw .invalidModel(
                        "subgraph \(s): \(role) \(i) refers to tensor \(t), but the subgraph has \(count) tensors")
                }
                result.append(Int(t))
            }
            return result
        }
        let inputs = try graphIndices(raw.inputs, "graph input")
        let outputs = try graphIndices(raw.outputs, "graph output")

        var operators: [Operator] = []
        operators.reserveCapacity(raw.operators.count)
        for (o, rawOp) in raw.operators.enumerated() {
            operators.append(try op(rawOp, index: o, subgraph: s, tensorCount: count, codes: codes))
        }
        try checkDataFlow(subgraph: s, tensors: tensors, inputs: inputs, outputs: outputs, operators: operators)
        return Subgraph(name: raw.name, tensors: tensors, inputs: inputs, outputs: outputs, operators: operators)
    }

    func op(_ raw: RawOperator, index o: Int, subgraph s: Int, tensorCount: Int, codes: [OperatorCode])
        throws(ModelError) -> Operator
    {
        let opcode = Int(raw.opcodeIndex)
        guard opcode < codes.count else {
            throw .invalidModel(
                "subgraph \(s), operator \(o): opcode_index \(opcode) is out of range; the model has \(codes.count) operator codes"
            )
        }
        let code = codes[opcode]
        let place = "subgraph \(s), operator \(o) (\(code.name))"

        func indices(_ list: [Int32], _ role: String, optional: Bool) throws(ModelError) -> [Int] {
            var result: [Int] = []
            result.reserveCapacity(list.count)
            for (i, t) in list.enumerated() {
                if optional && t == -1 {
                    result.append(-1)
                    continue
                }
                guard t >= 0, Int(t) < tensorCount else {
                    throw .invalidModel(
                        "\(place): \(role) \(i) refers to tensor \(t), but the subgraph has \(tensorCount) tensors")
                }
                result.append(Int(t))
            }
            return result
        }

        var customOptions: ByteView?
        if let range = raw.customOptionsRange, !range.isEmpty {
            customOptions = ByteView(storage: bytes, offset: range.lowerBound, count: range.count)
        }
        if raw.largeCustomOptionsOffset > 1 {
            let large = try externalRange(
                offset: raw.largeCustomOptionsOffset, size: raw.largeCustomOptionsSize,
                what: "\(place): large custom options")
            if customOptions == nil { customOptions = large }
        }
        return Operator(
            index: o, code: code,
            inputs: try indices(raw.inputs, "input", optional: true),
            outputs: try indices(raw.outputs, "output", optional: false),
            intermediates: try indices(raw.intermediates, "intermediate", optional: false),
            options: raw.options, customOptions: customOptions, customOptionsFormat: raw.customOptionsFormat,
            options2: raw.options2)
    }

    /// In execution order, every tensor an operator reads must already exist: a graph
    /// input, a constant, a variable, or the output of an earlier operator. Operators may
    /// not overwrite constants or graph inputs, and every graph output must exist.
    func checkDataFlow(subgraph s: Int, tensors: [ModelTensor], inputs: [Int], outputs: [Int], operators: [Operator])
        throws(ModelError)
    {
        var available = [Bool](repeating: false, count: tensors.count)
        var isGraphInput = [Bool](repeating: false, count: tensors.count)
        for t in tensors where t.isConstant || t.isVariable { available[t.index] = true }
        for t in inputs {
            available[t] = true
            isGraphInput[t] = true
        }
        func describe(_ t: Int) -> String { "tensor \(t) ('\(tensors[t].name)')" }
        for op in operators {
            let place = "subgraph \(s), operator \(op.index) (\(op.code.name))"
            for (i, t) in op.inputs.enumerated() where t >= 0 && !available[t] {
                throw .invalidModel(
                    "\(place): input \(i) reads \(describe(t)), which no earlier operator produces and which is not a graph input, constant or variable"
                )
            }
            for (i, t) in op.outputs.enumerated() {
                if tensors[t].isConstant {
                    throw .invalidModel("\(place): output \(i) writes \(describe(t)), which is a constant")
                }
                if isGraphInput[t] {
                    throw .invalidModel("\(place): output \(i) writes \(describe(t)), which is a graph input")
                }
                available[t] = true
            }
        }
        for (i, t) in outputs.enumerated() where !available[t] {
            throw .invalidModel(
                "subgraph \(s): graph output \(i) is \(describe(t)), which no operator produces and which is not a graph input, constant or variable"
            )
        }
    }
}
