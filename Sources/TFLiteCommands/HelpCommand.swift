import Foundation

extension Subcommand {
    /// `tflite help [SUBCOMMAND]`.
    public static let help = Subcommand(
        name: "help",
        summary: "Show the subcommands, or one subcommand's usage",
        arguments: ArgumentSpec(positionals: [.init("SUBCOMMAND", help: "The subcommand to describe", isOptional: true)])
    ) { args, console in
        guard let name = args.positional("SUBCOMMAND") else {
            console.out(toolHelp())
            return ExitCode.success
        }
        guard let command = Subcommand.named(name) else { throw UsageError.unknownSubcommand(name) }
        console.out(command.helpText)
        return ExitCode.success
    }

    /// Usage, arguments and options of this subcommand.
    var helpText: String {
        var lines = ["usage: tflite \(name) \(arguments.synopsis)", "", summary + "."]
        if !discussion.isEmpty { lines += ["", discussion] }
        let rows = arguments.positionals.map { ($0.name, $0.help) } + arguments.options.map { option in
            let short = option.short.map { "-\($0), " } ?? ""
            return ("\(short)--\(option.name)\(option.valueName.map { " " + $0 } ?? "")", option.help)
        }
        if !rows.isEmpty {
            lines += [""] + table(rows + [("-h, --help", "Show this help")])
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The top-level help: every subcommand with its summary.
func toolHelp() -> String {
    var lines = ["usage: tflite SUBCOMMAND [ARGUMENTS]", "", "Inspect and run TensorFlow Lite models.", "", "Subcommands:"]
    lines += table(Subcommand.all.map { ($0.name, $0.summary) })
    lines += ["", "Run 'tflite help SUBCOMMAND' or 'tflite SUBCOMMAND --help' for details."]
    return lines.joined(separator: "\n") + "\n"
}

/// Two aligned columns, indented by two spaces.
func table(_ rows: [(String, String)]) -> [String] {
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
}
