import Testing
import TFLiteModel
@testable import TFLiteCommands

/// What `inspect` says about a model the runtime cannot run for lack of kernels.
@Suite struct RuntimePlanTests {
    /// Four operators, three codes without a kernel (one used twice) and a RELU.
    static func modelWithThreeUnsupportedOps() -> Model {
        let tensors = (0 ..< 5).map { ModelTensor(index: $0, name: "t\($0)", type: .float32, shape: [1]) }
        let concatEmbeddings = OperatorCode(builtin: .concatEmbeddings)
        let call = OperatorCode(builtin: .call)
        let custom = OperatorCode(builtin: .custom, customName: "MyCustomOp")
        let relu = OperatorCode(builtin: .relu)
        let operators = [
            Operator(index: 0, code: concatEmbeddings, inputs: [0], outputs: [1]),
            Operator(index: 1, code: relu, inputs: [1], outputs: [2]),
            Operator(index: 2, code: call, inputs: [2], outputs: [3]),
            Operator(index: 3, code: custom, inputs: [3], outputs: [4]),
            Operator(index: 4, code: concatEmbeddings, inputs: [4], outputs: [4]),
        ]
        let main = Subgraph(name: "main", tensors: tensors, inputs: [0], outputs: [4], operators: operators)
        return Model(
            bytes: ModelBytes([]), version: 3, modelDescription: nil,
            operatorCodes: [concatEmbeddings, relu, call, custom],
            subgraphs: [main], signatures: [], metadata: [])
    }

    @Test func everyMissingOperatorIsListed() {
        let plan = RuntimePlan(Self.modelWithThreeUnsupportedOps())
        #expect(
            plan.text
                == "Runtime:\n  not runnable: operators 0 (CONCAT_EMBEDDINGS), 2 (CALL) and 3 (CUSTOM:MyCustomOp) are not supported by this runtime; register a kernel for each custom operator's name (Interpreter.Options.registerCustomOperator)"
        )
        #expect(plan.unsupportedOperators.map(\.op) == ["CONCAT_EMBEDDINGS", "CALL", "CUSTOM:MyCustomOp"])
        guard case .object(let members) = plan.json, case .array(let listed)? = members["unsupported_operators"] else {
            Issue.record("no unsupported_operators array in \(plan.json)")
            return
        }
        #expect(listed.count == 3)
        #expect(listed.first == .object(["index": .int(0), "op": .string("CONCAT_EMBEDDINGS")]))
    }
}
