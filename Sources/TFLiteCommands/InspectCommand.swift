import TFLiteModel

extension Subcommand {
    /// `tflite inspect MODEL [--json]`.
    public static let inspect = Subcommand(
        name: "inspect",
        summary: "Describe a model: inputs, outputs, signatures, operators, memory, metadata",
        discussion: """
        Shapes show -1 for dimensions the model marks dynamic (shape_signature).
        With --json, prints one JSON object (sorted keys) describing subgraph 0.
        """,
        arguments: ArgumentSpec(
            positionals: [.init("MODEL", help: "Path of a .tflite file")],
            options: [.init("json", help: "Print a JSON object instead of text")]
        )
    ) { args, console in
        guard let path = args.positional("MODEL") else { throw UsageError.missingArgument("MODEL") }
        let model = try Model(contentsOfFile: path)
        console.out(args.flag("json") ? inspectJSON(model).serialized() : inspectText(model))
        return ExitCode.success
    }
}
