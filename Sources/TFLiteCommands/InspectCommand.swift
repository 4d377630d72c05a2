import ArgumentParser
import TFLiteModel

/// `tflite inspect MODEL [--json]`.
struct InspectCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a model: inputs, outputs, signatures, operators, memory, metadata",
        discussion: """
            Shapes show -1 for dimensions the model marks dynamic (shape_signature). \
            With --json, prints one JSON object (sorted keys) describing subgraph 0. \
            Both end with what the runtime makes of the model: whether it can run it, and the \
            size of the tensor arena it plans, or why not (every operator it has no kernel for).
            """
    )

    @Argument(
        help: ArgumentHelp("Path of a .tflite file", valueName: "model"), completion: .file(extensions: ["tflite"]))
    var path: String
    @Flag(help: "Print a JSON object instead of text")
    var json = false

    func run(console: Console) async throws -> Int32 {
        let model = try Model(contentsOfFile: path)
        let plan = RuntimePlan(model)
        if self.json {
            var json = inspectJSON(model)
            if case .object(var members) = json {
                members["runtime"] = plan.json
                json = .object(members)
            }
            console.out(json.serialized())
        } else {
            console.out(inspectText(model) + "\n" + plan.text + "\n")
        }
        return ExitCode.success
    }
}
