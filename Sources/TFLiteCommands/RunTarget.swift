import Foundation
import TFLiteConformance
import TensorFlowLite

/// What `tflite run` runs: the interpreter's main subgraph, or one signature's subgraph
/// through a `SignatureRunner`, with inputs and outputs by position in that subgraph.
struct RunTarget {
    private let interpreter: Interpreter
    private let runner: SignatureRunner?
    /// The signature's input and output names in its subgraph's order.
    private let inputNames: [String]
    private let outputNames: [String]

    init(_ interpreter: Interpreter, signature key: String?) throws {
        self.interpreter = interpreter
        guard let key else {
            (runner, inputNames, outputNames) = (nil, [], [])
            return
        }
        let model = interpreter.model
        guard let names = model.signatureNamesInSubgraphOrder(key) else {
            let keys = model.signatures.map { "'\($0.key)'" }.joined(separator: ", ")
            throw ToolError("the model has no signature '\(key)'; its signatures are [\(keys)]")
        }
        (inputNames, outputNames) = names
        runner = try interpreter.signatureRunner(with: key)
    }

    var inputCount: Int { runner == nil ? interpreter.inputTensorCount : inputNames.count }
    var outputCount: Int { runner == nil ? interpreter.outputTensorCount : outputNames.count }

    func allocate() throws {
        if let runner { try runner.allocateTensors() } else { try interpreter.allocateTensors() }
    }

    func input(_ i: Int) throws -> Tensor {
        if let runner { return try runner.input(named: inputNames[i]) }
        return try interpreter.input(at: i)
    }

    func resize(_ i: Int, to shape: [Int]) throws {
        if let runner {
            try runner.resizeInput(named: inputNames[i], toShape: Tensor.Shape(shape))
        } else {
            try interpreter.resizeInput(at: i, to: Tensor.Shape(shape))
        }
    }

    func copy(_ data: Data, to i: Int) throws {
        if let runner {
            try runner.copy(data, toInputNamed: inputNames[i])
        } else {
            try interpreter.copy(data, toInputAt: i)
        }
    }

    func invoke() throws {
        if let runner { try runner.invoke(with: [:]) } else { try interpreter.invoke() }
    }

    func output(_ i: Int) throws -> Tensor {
        if let runner { return try runner.output(named: outputNames[i]) }
        return try interpreter.output(at: i)
    }
}
