import Foundation
import TFLiteModel
@testable import TFLiteRuntime

/// Builds small in-memory models for kernel tests, without a `.tflite` file.
///
///     var g = GraphBuilder()
///     let x = g.input([1, 4], .float32)
///     let w = g.constant([1, 2, 3, 4] as [Float], shape: [1, 4])
///     let y = g.tensor([1, 4], .float32)
///     g.op(.add, inputs: [x, w], outputs: [y], options: .add(activation: .none, potScaleInt16: true))
///     g.output(y)
///     let engine = try g.engine()
struct GraphBuilder {
    private(set) var tensors: [ModelTensor] = []
    private(set) var operators: [Operator] = []
    private(set) var inputs: [Int] = []
    private(set) var outputs: [Int] = []
    /// Constant payloads, concatenated into one byte buffer when the model is built.
    private var constants: [(tensor: Int, bytes: [UInt8])] = []

    @discardableResult
    mutating func tensor(_ shape: [Int], _ type: ElementType, quantization: Quantization? = nil, name: String? = nil)
        -> Int
    {
        let i = tensors.count
        tensors.append(
            ModelTensor(index: i, name: name ?? "t\(i)", type: type, shape: shape, quantization: quantization))
        return i
    }

    /// A variable tensor (`is_variable`: state an operator keeps between invokes).
    mutating func variable(_ shape: [Int], _ type: ElementType, quantization: Quantization? = nil) -> Int {
        let i = tensor(shape, type, quantization: quantization, name: "variable\(tensors.count)")
        tensors[i].isVariable = true
        return i
    }

    mutating func input(_ shape: [Int], _ type: ElementType, quantization: Quantization? = nil) -> Int {
        let i = tensor(shape, type, quantization: quantization, name: "input\(inputs.count)")
        inputs.append(i)
        return i
    }

    mutating func output(_ t: Int) { outputs.append(t) }

    mutating func constant<T>(_ values: [T], shape: [Int], _ type: ElementType, quantization: Quantization? = nil)
        -> Int
    {
        let i = tensor(shape, type, quantization: quantization, name: "const\(constants.count)")
        let bytes = values.withUnsafeBytes { Array($0) }
        constants.append((i, bytes))
        return i
    }

    mutating func constant(_ values: [Float], shape: [Int]) -> Int { constant(values, shape: shape, .float32) }
    mutating func constant(_ values: [Int32], shape: [Int]) -> Int { constant(values, shape: shape, .int32) }

    mutating func op(
        _ code: BuiltinOperator, inputs: [Int], outputs: [Int], options: BuiltinOptions = .none,
        options2: BuiltinOptions2 = .none
    ) {
        operators.append(
            Operator(
                index: operators.count, code: OperatorCode(builtin: code), inputs: inputs, outputs: outputs,
                options: options, options2: options2))
    }

    /// Replaces operator `op`'s inputs (for tests of malformed operand lists).
    mutating func replaceInputs(of op: Int, with inputs: [Int]) { operators[op].inputs = inputs }

    mutating func customOp(_ name: String, inputs: [Int], outputs: [Int], options: [UInt8], version: Int = 1)
        -> ModelBytes
    {
        let storage = ModelBytes(options)
        let view = ByteView(storage: storage, offset: 0, count: options.count)
        operators.append(
            Operator(
                index: operators.count, code: OperatorCode(builtin: .custom, customName: name, version: version),
                inputs: inputs, outputs: outputs, customOptions: view))
        return storage
    }

    /// The model; constants are laid out 16-byte aligned in one shared byte buffer.
    func model() -> Model {
        let (blob, ranges) = constantBlob()
        return model(storage: ModelBytes(blob), ranges: ranges)
    }

    /// The model with its constants read from a memory-mapped file at `path` (written
    /// here), as `Model(contentsOfFile:)` reads weights.
    func mappedModel(path: String) throws -> Model {
        let (blob, ranges) = constantBlob()
        try Data(blob).write(to: URL(fileURLWithPath: path))
        return model(storage: try ModelBytes(contentsOfFile: path), ranges: ranges)
    }

    /// A model of several subgraphs, `graphs[0]` the main one (subgraph `i` is `graphs[i]`,
    /// for IF, WHILE and CALL_ONCE to call).
    static func model(_ graphs: [GraphBuilder]) -> Model {
        var blob: [UInt8] = []
        var rangesPerGraph: [[Int: (Int, Int)]] = []
        for graph in graphs {
            let (own, ranges) = graph.constantBlob(startingAt: blob.count)
            blob += own
            rangesPerGraph.append(ranges)
        }
        let storage = ModelBytes(blob)
        let subgraphs = zip(graphs, rangesPerGraph).enumerated().map { i, pair in
            pair.0.subgraph(storage: storage, ranges: pair.1, name: i == 0 ? "main" : "subgraph\(i)")
        }
        let codes = Array(Set(graphs.flatMap { $0.operators.map(\.code) }))
        return Model(
            bytes: storage, version: 3, modelDescription: "test", operatorCodes: codes,
            subgraphs: subgraphs, signatures: [], metadata: [])
    }

    private func constantBlob(startingAt start: Int = 0) -> ([UInt8], [Int: (Int, Int)]) {
        var blob: [UInt8] = []
        var ranges: [Int: (Int, Int)] = [:]
        for c in constants {
            while (start + blob.count) % 16 != 0 { blob.append(0) }
            ranges[c.tensor] = (start + blob.count, c.bytes.count)
            blob += c.bytes
        }
        return (blob, ranges)
    }

    private func subgraph(storage: ModelBytes, ranges: [Int: (Int, Int)], name: String) -> Subgraph {
        var ts = tensors
        for (t, r) in ranges {
            ts[t].constantData = ByteView(storage: storage, offset: r.0, count: r.1)
            ts[t].bufferIndex = t + 1
        }
        return Subgraph(name: name, tensors: ts, inputs: inputs, outputs: outputs, operators: operators)
    }

    private func model(storage: ModelBytes, ranges: [Int: (Int, Int)]) -> Model {
        let subgraph = self.subgraph(storage: storage, ranges: ranges, name: "main")
        let codes = Array(Set(operators.map(\.code)))
        return Model(
            bytes: storage, version: 3, modelDescription: "test", operatorCodes: codes,
            subgraphs: [subgraph], signatures: [], metadata: [])
    }

    func engine(threads: Int = 1, level: KernelLevel? = nil) throws -> Engine {
        var options = EngineOptions()
        options.threadCount = threads
        options.kernelLevel = level
        return try Engine(model: model(), options: options)
    }
}

extension Engine {
    /// Copies `values` into graph input `position` (allocate first).
    func setInput<T>(_ position: Int, _ values: [T]) throws {
        guard let buffer = buffer(forTensor: inputs[position]) else { throw RuntimeError.notAllocated }
        values.withUnsafeBytes { raw in
            precondition(raw.count == buffer.count, "test input has \(raw.count) bytes, tensor needs \(buffer.count)")
            buffer.copyMemory(from: raw)
        }
    }

    /// Reads graph output `position` as `[T]`.
    func output<T>(_ position: Int, as _: T.Type) throws -> [T] {
        guard let buffer = buffer(forTensor: outputs[position]) else { throw RuntimeError.notAllocated }
        return Array(buffer.bindMemory(to: T.self))
    }

    func outputShape(_ position: Int) -> [Int] { tensors[outputs[position]].shape }
}
