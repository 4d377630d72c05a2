import Foundation

/// Entry point of the `tflite` command-line tool: `arguments` is `CommandLine.arguments`
/// (program name first). Returns the process exit code (``ExitCode``).
public func runTool(_ arguments: [String]) async -> Int32 {
    await runTool(arguments, console: .standard)
}

/// Runs the tool writing to `console`. Never traps on bad input: usage errors print the
/// message and a hint (exit 2); failures print `error: <message>` to the error stream (exit 1).
public func runTool(_ arguments: [String], console: Console) async -> Int32 {
    let words = arguments.dropFirst()
    guard let name = words.first else {
        console.err("tflite: \(UsageError.noSubcommand)\n\n" + toolHelp())
        return ExitCode.usage
    }
    if name == "--help" || name == "-h" {
        console.out(toolHelp())
        return ExitCode.success
    }
    guard let command = Subcommand.named(name) else {
        return usageFailure(UsageError.unknownSubcommand(name), command: nil, console: console)
    }
    let rest = words.dropFirst()
    if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
        console.out(command.helpText)
        return ExitCode.success
    }
    do {
        let parsed = try command.arguments.parse(rest)
        return try await command.run(parsed, console)
    } catch let error as UsageError {
        return usageFailure(error, command: command, console: console)
    } catch {
        console.err("error: \(message(for: error))\n")
        return ExitCode.failure
    }
}

private func usageFailure(_ error: UsageError, command: Subcommand?, console: Console) -> Int32 {
    let hint = command.map { "usage: tflite \($0.name) \($0.arguments.synopsis)\nRun 'tflite help \($0.name)' for details." }
        ?? "Run 'tflite help' for the list of subcommands."
    console.err("tflite: \(error)\n\(hint)\n")
    return ExitCode.usage
}

/// The text for an error: Foundation's localized description for its own errors, else
/// the error's description (all of ours — `ModelError`, `NPYError`, ``ToolError`` —
/// describe themselves in full).
func message(for error: any Error) -> String {
    if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
    return String(describing: error)
}
