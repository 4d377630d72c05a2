import TFLiteModel

extension Subcommand {
    /// `tflite inspect MODEL [--json]`.
    public static let inspect = Subcommand(
        name: "inspect",
        summary: "Describe a model: inputs, outputs, signatures, operators, memory, metadata",
        discussion: """
        Shapes show -1 for dimensions the model marks dynamic (shape_signature).
        With --json, prints one JSON object (sorted keys) describing subgraph 0.
        Both end with what the runtime makes of the model: whether it can run it, and the
        size of the tensor arena it plans, or why not (every operator it has no kernel for).
        """,
        arguments: ArgumentSpec(
            positionals: [.init("MODEL", help: "Path of a .tflite file")],
            options: [.init("json", help: "Print a JSON object instead of text")]
        )
    ) { args, console in
        guard let path = args.positional("MODEL") else { throw UsageError.missingArgument("MODEL") }
        let model = try Model(contentsOfFile: path)
        let plan = RuntimePlan(model)
        if args.flag("json") {
            var json = inspectJSON(model)
            if case var .object(members) = json {
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
