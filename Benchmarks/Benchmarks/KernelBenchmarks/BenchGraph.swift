import TFLiteModel
import TFLiteRuntime

/// Builds the one-operator in-memory models the benchmarks run: graph inputs filled with
/// seeded pseudo-random values, constants (weights, biases) likewise, no `.tflite` file.
struct BenchGraph {
    private(set) var tensors: [ModelTensor] = []
    private(set) var operators: [Operator] = []
    private(set) var inputs: [Int] = []
    private(set) var outputs: [Int] = []
    private var constants: [(tensor: Int, bytes: [UInt8])] = []
    private var random = SeededFloats(seed: 0xBE7C)

    @discardableResult
    mutating func tensor(_ shape: [Int], _ type: ElementType = .float32, quantization: Quantization? = nil) -> Int {
        let i = tensors.count
        tensors.append(ModelTensor(index: i, name: "t\(i)", type: type, shape: shape, quantization: quantization))
        return i
    }

    mutating func input(_ shape: [Int], _ type: ElementType = .float32, quantization: Quantization? = nil) -> Int {
        let i = tensor(shape, type, quantization: quantization)
        inputs.append(i)
        return i
    }

    /// An int8 constant of `shape` with values uniform in `[-127, 127]`.
    mutating func randomInt8Constant(_ shape: [Int], quantization: Quantization) -> Int {
        let count = shape.reduce(1, *)
        let values = (0 ..< count).map { _ in Int8(clamping: Int((random.next() * 127).rounded())) }
        return rawConstant(values.withUnsafeBytes { Array($0) }, shape: shape, .int8, quantization: quantization)
    }

    /// A uint8 constant of `shape` with codes uniform in `[1, 255]` (legacy uint8 weights).
    mutating func randomUInt8Constant(_ shape: [Int], quantization: Quantization) -> Int {
        let count = shape.reduce(1, *)
        let values = (0 ..< count).map { _ in UInt8(clamping: Int((random.next() * 127).rounded()) + 128) }
        return rawConstant(values, shape: shape, .uint8, quantization: quantization)
    }

    /// An int32 constant (quantized biases).
    mutating func int32Constant(_ values: [Int32], shape: [Int], quantization: Quantization) -> Int {
        rawConstant(values.withUnsafeBytes { Array($0) }, shape: shape, .int32, quantization: quantization)
    }

    private mutating func rawConstant(_ bytes: [UInt8], shape: [Int], _ type: ElementType, quantization: Quantization?)
        -> Int
    {
        let i = tensor(shape, type, quantization: quantization)
        constants.append((i, bytes))
        return i
    }

    mutating func output(_ t: Int) { outputs.append(t) }

    /// A float constant of `shape` with values uniform in `[-scale, scale)`.
    mutating func randomConstant(_ shape: [Int], scale: Float = 1) -> Int {
        let count = shape.reduce(1, *)
        let values = (0 ..< count).map { _ in random.next() * scale }
        return constant(values, shape: shape)
    }

    mutating func constant(_ values: [Float], shape: [Int]) -> Int {
        let i = tensor(shape, .float32)
        constants.append((i, values.withUnsafeBytes { Array($0) }))
        return i
    }

    mutating func op(_ code: BuiltinOperator, _ inputs: [Int], _ outputs: [Int], _ options: BuiltinOptions = .none) {
        operators.append(
            Operator(
                index: operators.count, code: OperatorCode(builtin: code),
                inputs: inputs, outputs: outputs, options: options))
    }

    /// A custom operator with FlexBuffers `options` (the view keeps its bytes alive).
    mutating func customOp(_ name: String, _ inputs: [Int], _ outputs: [Int], options: [UInt8]) {
        let view = ByteView(storage: ModelBytes(options), offset: 0, count: options.count)
        operators.append(
            Operator(
                index: operators.count, code: OperatorCode(builtin: .custom, customName: name),
                inputs: inputs, outputs: outputs, customOptions: view))
    }

    func model() -> Model {
        var blob: [UInt8] = []
        var ranges: [Int: (Int, Int)] = [:]
        for c in constants {
            while blob.count % 64 != 0 { blob.append(0) }
            ranges[c.tensor] = (blob.count, c.bytes.count)
            blob += c.bytes
        }
        let storage = ModelBytes(blob)
        var ts = tensors
        for (t, r) in ranges {
            ts[t].constantData = ByteView(storage: storage, offset: r.0, count: r.1)
            ts[t].bufferIndex = t + 1
        }
        let subgraph = Subgraph(name: "main", tensors: ts, inputs: inputs, outputs: outputs, operators: operators)
        return Model(
            bytes: storage, version: 3, modelDescription: "benchmark", operatorCodes: Array(Set(operators.map(\.code))),
            subgraphs: [subgraph], signatures: [], metadata: [])
    }

    /// An allocated engine running `level`'s kernels, with every input filled.
    func engine(threads: Int, level: KernelLevel) throws -> Engine {
        var options = EngineOptions()
        options.threadCount = threads
        options.kernelLevel = level
        let engine = try Engine(model: model(), options: options)
        // The engine lowers a level the CPU lacks; timing that under the requested
        // level's name would mislabel the result.
        guard engine.kernelLevel == level else { throw LevelUnavailable(requested: level, running: engine.kernelLevel) }
        try engine.allocate()
        var random = SeededFloats(seed: 0x5EED)
        for t in engine.inputs {
            guard let buffer = engine.buffer(forTensor: t) else { continue }
            if engine.tensors[t].type == .float32 {
                let floats = buffer.bindMemory(to: Float.self)
                for i in floats.indices { floats[i] = random.next() }
            } else {
                for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: Int((random.next() + 1) * 128)) }
            }
        }
        return engine
    }
}

/// A benchmark asked for a kernel level its engine does not run.
struct LevelUnavailable: Error, CustomStringConvertible {
    let requested: KernelLevel, running: KernelLevel
    var description: String { "kernel level \(requested) was requested but the engine runs \(running)" }
}

/// A 64-bit LCG giving floats uniform in `[-1, 1)`.
struct SeededFloats {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(Int64(state >> 40)) / Float(1 << 23) - 1
    }
}

/// FlexBuffers map of scalars, every slot 8 bytes wide (the custom options of
/// TFLite_Detection_PostProcess): key strings, keys vector, map, root.
enum FlexMap {
    enum Scalar { case int(Int64), float(Double), bool(Bool) }

    static func encode(_ entries: [(String, Scalar)]) -> [UInt8] {
        let sorted = entries.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        var out: [UInt8] = []
        func pad() { while out.count % 8 != 0 { out.append(0) } }
        func put(_ v: UInt64) { for i in 0 ..< 8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        var keyPositions: [Int] = []
        for (key, _) in sorted {
            keyPositions.append(out.count)
            out += Array(key.utf8) + [0]
        }
        pad()
        put(UInt64(sorted.count))
        let keysVector = out.count
        for k in keyPositions { put(UInt64(out.count - k)) }
        put(UInt64(out.count - keysVector))
        put(8)
        put(UInt64(sorted.count))
        let map = out.count
        var types: [UInt8] = []
        for (_, value) in sorted {
            switch value {
            case .int(let v): put(UInt64(bitPattern: v)); types.append(1 << 2 | 3)
            case .float(let v): put(v.bitPattern); types.append(3 << 2 | 3)
            case .bool(let v): put(v ? 1 : 0); types.append(26 << 2 | 3)
            }
        }
        out += types
        pad()
        put(UInt64(out.count - map))
        out += [9 << 2 | 3, 8]
        return out
    }
}
