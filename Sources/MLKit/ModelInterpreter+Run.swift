import Foundation
import TensorFlowLite

/// A model read from its file, and what the checks need to know of its inputs and outputs.
struct LoadedModel: Sendable {
    struct TensorInfo: Sendable {
        var name: String
        /// The type, if the custom-model API can pass it.
        var type: ModelElementType?
        /// The model's name for the type, for messages.
        var typeName: String
        var shape: [Int]
        /// Axes the model marks dynamic (`-1` in its shape signature); for outputs, only
        /// those of an output whose shape is known only once the model runs.
        var dynamicAxes: Set<Int>
    }

    let model: Model
    /// The model file, for messages.
    let path: String
    let inputs: [TensorInfo]
    let outputs: [TensorInfo]
    /// Whether the model keeps state between runs (the state tensors of recurrent
    /// operators, or variables it assigns): then every run uses the same interpreter, one
    /// run at a time, as Firebase's one interpreter did.
    var keepsState: Bool {
        model.subgraphs.contains { graph in
            graph.tensors.contains(where: \.isVariable)
                || graph.operators.contains { $0.code.builtin == .assignVariable || $0.code.builtin == .varHandle }
        }
    }

    /// Reads the model of `source` and makes its first interpreter.
    static func load(_ source: ModelInterpreter.Source) throws -> (LoadedModel, PooledInterpreter) {
        let path: String
        switch source {
        case .local(let local):
            path = local.path
        case .remote(let remote, let manager):
            switch manager.installedPath(remote) {
            case .success(let installed): path = installed
            case .failure:
                throw MachineLearningErrorCode.failedPrecondition.error(
                    "Failed to load the custom model as no models currently exist on the device for the given model options: remote model '\(remote.name)' has not been downloaded to \(manager.cacheDirectory.path); download it with ModelManager first."
                )
            }
        }
        let model: Model
        do {
            model = try Model(contentsOfFile: path)
        } catch {
            throw MachineLearningErrorCode.invalidArgument.error(
                "Failed to load the custom model at \(path): \(error.description)")
        }
        let first = try makeInterpreter(model, path: path)
        let interpreter = first.interpreter
        let signatures =
            model.subgraphs.first.map { graph in
                (graph.inputs + graph.outputs).map {
                    graph.tensors.indices.contains($0) ? graph.tensors[$0].shapeSignature : nil
                }
            } ?? []
        func info(_ tensor: Tensor, signature: [Int]?) -> TensorInfo {
            let dynamic = (signature ?? []).enumerated().filter { $0.element == -1 }.map(\.offset)
            return TensorInfo(
                name: tensor.name, type: ModelElementType(tensor.dataType), typeName: "\(tensor.dataType)",
                shape: tensor.shape.dimensions, dynamicAxes: Set(dynamic))
        }
        func signature(_ i: Int) -> [Int]? { signatures.indices.contains(i) ? signatures[i] : nil }
        do {
            let inputs = try (0 ..< interpreter.inputTensorCount).map { i in
                info(try interpreter.input(at: i), signature: signature(i))
            }
            let outputs = try (0 ..< interpreter.outputTensorCount).map { i in
                let position = interpreter.inputTensorCount + i
                do {
                    return info(try interpreter.output(at: i), signature: nil)
                } catch InterpreterError.invokeInterpreterRequired {
                    // An output whose shape depends on the input values has no memory
                    // until a run: describe it as the file declares it, with the axes its
                    // shape signature marks dynamic (all of them if it marks none) taking
                    // their size from the run.
                    guard let graph = model.subgraphs.first, graph.outputs.indices.contains(i),
                        graph.tensors.indices.contains(graph.outputs[i])
                    else { throw InterpreterError.invokeInterpreterRequired }
                    let tensor = graph.tensors[graph.outputs[i]]
                    let marked = (signature(position) ?? []).enumerated().filter { $0.element == -1 }.map(\.offset)
                    return TensorInfo(
                        name: tensor.name, type: ModelElementType(tfliteName: tensor.type.name),
                        typeName: tensor.type.name, shape: tensor.shape,
                        dynamicAxes: Set(marked.isEmpty ? Array(tensor.shape.indices) : marked))
                }
            }
            return (LoadedModel(model: model, path: path, inputs: inputs, outputs: outputs), first)
        } catch {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The custom model at \(path) has an input or output this runtime cannot read: \(error)")
        }
    }

    func makeInterpreter() throws -> PooledInterpreter {
        try Self.makeInterpreter(model, path: path)
    }

    private static func makeInterpreter(_ model: Model, path: String) throws -> PooledInterpreter {
        do {
            let interpreter = try Interpreter(model: model)
            try interpreter.allocateTensors()
            let shapes = try (0 ..< interpreter.inputTensorCount).map { try interpreter.input(at: $0).shape.dimensions }
            return PooledInterpreter(interpreter, inputShapes: shapes)
        } catch {
            throw MachineLearningErrorCode.invalidArgument.error("The custom model at \(path) cannot run: \(error)")
        }
    }
}

extension ModelInterpreter {
    /// One run, synchronously: check inputs and options against the model, run it on a
    /// pooled interpreter, and collect the declared outputs.
    func runNow(inputs: ModelInputs, options: ModelInputOutputOptions) throws -> ModelOutputs {
        let model = try load()
        let (inputFormats, outputFormats) = options.snapshot
        let values = inputs.snapshot
        let feeds = try Self.checkInputs(model, formats: inputFormats, values: values)
        let outputs = try Self.checkOutputs(model, formats: outputFormats)
        // A model with state runs on one interpreter, one run at a time, so each run
        // continues from the state the previous one left; the pool then never grows past
        // the first interpreter.
        if model.keepsState { statefulRuns.lock() }
        defer { if model.keepsState { statefulRuns.unlock() } }
        let pooled = try acquire(model)
        defer { release(pooled) }
        let interpreter = pooled.interpreter
        do {
            var resized = false
            for (i, feed) in feeds.enumerated() where pooled.inputShapes[i] != feed.shape {
                try interpreter.resizeInput(at: i, to: Tensor.Shape(feed.shape))
                pooled.inputShapes[i] = feed.shape
                resized = true
            }
            if resized { try interpreter.allocateTensors() }
        } catch {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The model cannot take inputs of dimensions \(feeds.map(\.shape)): \(error)")
        }
        do {
            for (i, feed) in feeds.enumerated() { try interpreter.copy(feed.data, toInputAt: i) }
            try interpreter.invoke()
        } catch {
            throw MachineLearningErrorCode.internal.error("Running the custom model at \(model.path) failed: \(error)")
        }
        var results: [UInt: (format: ModelTensorFormat, data: Data)] = [:]
        for (index, format) in outputs {
            let tensor: Tensor
            do {
                tensor = try interpreter.output(at: Int(index))
            } catch {
                throw MachineLearningErrorCode.unknown.error("The model produced no output \(index): \(error)")
            }
            let produced = Self.resolve(format, to: tensor.shape.dimensions, dynamicAxes: model.outputs[Int(index)])
            if format.type == .string {
                let count = (try? [Data](tensor).count) ?? -1
                guard count == produced.elementCount else {
                    throw MachineLearningErrorCode.invalidArgument.error(
                        "Model output \(index) holds \(count) strings, but \(produced.elementCount) expected by data options."
                    )
                }
                results[index] = (produced, tensor.data)
                continue
            }
            guard tensor.data.count == produced.byteCount else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Total size of model output \(index) is \(tensor.data.count), but \(format.byteCount) expected by data options."
                )
            }
            results[index] = (produced, tensor.data)
        }
        return ModelOutputs(outputs: results)
    }

    /// The declared output format, with the sizes of the axes the model marks dynamic
    /// (`-1` in its shape signature: WHERE's row count, say) taken from the run when the
    /// produced shape agrees with the declared one on every other axis.
    private static func resolve(
        _ format: ModelTensorFormat, to shape: [Int], dynamicAxes output: LoadedModel.TensorInfo
    )
        -> ModelTensorFormat
    {
        guard !output.dynamicAxes.isEmpty, shape.count == format.dimensions.count, shape != format.dimensions,
            zip(shape, format.dimensions).enumerated().allSatisfy({
                $0.element.0 == $0.element.1 || output.dynamicAxes.contains($0.offset)
            })
        else { return format }
        return format.resized(to: shape) ?? format
    }

    /// The bytes and shape of each input, in model order, after checking that the options
    /// declare exactly the model's inputs with the model's types and shapes, and that
    /// `values` match them.
    private static func checkInputs(_ model: LoadedModel, formats: [UInt: ModelTensorFormat], values: [ModelInputValue])
        throws -> [(data: Data, shape: [Int])]
    {
        let count = model.inputs.count
        guard !formats.isEmpty else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The options declare no input formats, but the model has \(count) input(s).")
        }
        if let index = formats.keys.sorted().first(where: { $0 >= count }) {
            throw MachineLearningErrorCode.outOfRange.error(
                "Input index \(index) is out of range: the model has \(count) input(s).")
        }
        guard formats.count == count else {
            let declared = formats.keys.sorted().map(String.init).joined(separator: ", ")
            throw MachineLearningErrorCode.invalidArgument.error(
                "The model has \(count) inputs, but the options declare formats for \(formats.count) (indices [\(declared)])."
            )
        }
        guard values.count == count else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The model has \(count) input(s), but \(values.count) were added to the model inputs.")
        }
        return try (0 ..< count).map { i in
            guard let format = formats[UInt(i)] else {
                throw MachineLearningErrorCode.invalidArgument.error("The options declare no format for input \(i).")
            }
            let tensor = model.inputs[i]
            try checkType(tensor, format, role: "Input", index: i)
            // A scalar input is declared with dimensions [1] (Firebase requires at least one).
            let scalar = tensor.shape.isEmpty && format.dimensions == [1]
            guard
                scalar
                    || (tensor.shape.count == format.dimensions.count
                        && zip(tensor.shape, format.dimensions).enumerated().allSatisfy({
                            $0.element.0 == $0.element.1 || tensor.dynamicAxes.contains($0.offset)
                        }))
            else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(i) has dimensions \(tensor.shape) in the model, but \(format.dimensions) expected by data options."
                )
            }
            return (try ModelTensorCoding.encode(values[i], format: format, index: i), scalar ? [] : format.dimensions)
        }
    }

    /// The declared outputs, in index order, after checking their indices and types.
    private static func checkOutputs(_ model: LoadedModel, formats: [UInt: ModelTensorFormat]) throws -> [(
        UInt, ModelTensorFormat
    )] {
        let count = model.outputs.count
        guard !formats.isEmpty else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The options declare no output formats; declare at least one of the model's \(count) output(s).")
        }
        return try formats.keys.sorted().map { index in
            guard index < count, let format = formats[index] else {
                throw MachineLearningErrorCode.outOfRange.error(
                    "Output index \(index) is out of range: the model has \(count) output(s).")
            }
            try checkType(model.outputs[Int(index)], format, role: "Output", index: Int(index))
            return (index, format)
        }
    }

    private static func checkType(
        _ tensor: LoadedModel.TensorInfo, _ format: ModelTensorFormat, role: String, index: Int
    ) throws {
        guard let type = tensor.type else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "\(role) \(index) has type \(tensor.typeName) in the model, which the custom model API cannot pass (it supports float32, int32, uInt8, int64 and string)."
            )
        }
        guard type == format.type else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "\(role) \(index) has type \(type.name) in the model, but \(format.type.name) expected by data options."
            )
        }
    }
}
