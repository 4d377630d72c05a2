import ArgumentParser
import Foundation

/// The `tflite` command: its subcommands, and the overview `tflite --help` prints.
///
/// ArgumentParser adds `tflite help [SUBCOMMAND]`, `--help` on every subcommand, and
/// `tflite --generate-completion-script [bash|zsh|fish]`.
struct TFLiteTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tflite",
        abstract: "Inspect and run TensorFlow Lite models.",
        subcommands: [
            DemoCommand.self, LabelCommand.self, DetectCommand.self, FacesCommand.self, SegmentCommand.self,
            InspectCommand.self,
            RunCommand.self, BenchCommand.self, ConformanceCommand.self, PublishCommand.self,
        ]
    )

    /// `tflite` without a subcommand is a usage error.
    func run() throws {
        throw ValidationError("Missing subcommand.")
    }
}

/// Entry point of the `tflite` command-line tool: `arguments` is `CommandLine.arguments`
/// (program name first). Returns the process exit code (``ExitCode``).
public func runTool(_ arguments: [String]) async -> Int32 {
    await runTool(arguments, console: .standard)
}

/// Runs the tool writing to `console`. Never traps on bad input: help and completion
/// scripts print to the result stream (exit 0); usage errors print ArgumentParser's
/// message and usage to the error stream (exit 2); failures print `error: <message>` to
/// the error stream (exit 1).
public func runTool(_ arguments: [String], console: Console) async -> Int32 {
    let parsed: any ParsableCommand
    do {
        parsed = try TFLiteTool.parseAsRoot(Array(arguments.dropFirst()))
    } catch {
        return report(error, console: console)
    }
    guard let command = parsed as? any ToolCommand else {
        // `tflite help [SUBCOMMAND]` and `tflite` alone, whose run() throws what to print.
        do {
            var builtIn = parsed
            try builtIn.run()
            return ExitCode.success
        } catch {
            return report(error, console: console)
        }
    }
    do {
        return try await command.run(console: console)
    } catch {
        console.err("error: \(message(for: error))\n")
        return ExitCode.failure
    }
}

/// Prints what ArgumentParser says about a parse error or a clean exit, and returns the
/// exit code: its own, except that a command line it rejects exits with ``ExitCode/usage``.
private func report(_ error: any Error, console: Console) -> Int32 {
    let text = TFLiteTool.fullMessage(for: error)
    let code = TFLiteTool.exitCode(for: error)
    if code.isSuccess {
        console.out(text.isEmpty ? "" : text + "\n")
        return ExitCode.success
    }
    console.err(text.isEmpty ? "" : text + "\n")
    return code == .validationFailure ? ExitCode.usage : code.rawValue
}

/// The text for an error: Foundation's localized description for its own errors, else
/// the error's description (all of ours — `ModelError`, `NPYError`, ``ToolError`` —
/// describe themselves in full).
func message(for error: any Error) -> String {
    if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
    return String(describing: error)
}
