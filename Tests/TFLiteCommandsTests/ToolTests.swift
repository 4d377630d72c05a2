import Foundation
import Testing
import TFLiteModel
@testable import TFLiteCommands

/// Collects what a command writes, for assertions.
final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""

    var out: String { lock.withLock { outText } }
    var err: String { lock.withLock { errText } }

    var console: Console {
        Console(
            out: { s in self.lock.withLock { self.outText += s } },
            err: { s in self.lock.withLock { self.errText += s } })
    }
}

func run(_ arguments: String...) async -> (code: Int32, out: String, err: String) {
    await run(arguments)
}

func run(_ arguments: [String]) async -> (code: Int32, out: String, err: String) {
    let capture = CapturedConsole()
    let code = await runTool(["tflite"] + arguments, console: capture.console)
    return (code, capture.out, capture.err)
}

@Suite struct ToolTests {
    @Test func missingModelFile() async {
        let r = await run("inspect", "/nonexistent/dir/model.tflite")
        #expect(r.code == ExitCode.failure)
        #expect(r.out.isEmpty)
        #expect(r.err == "error: cannot open model file '/nonexistent/dir/model.tflite': No such file or directory\n")
    }

    @Test func garbageFilePrintsTheModelError() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID().uuidString).tflite")
        try Data("this is not a flatbuffer, just text that goes on for a while".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // Whatever the decoder says about these bytes is what the tool must print.
        var expected = ""
        do {
            _ = try Model(contentsOfFile: url.path)
            Issue.record("garbage decoded as a model")
        } catch {
            expected = error.description
        }
        for args in [["inspect", url.path], ["inspect", url.path, "--json"]] {
            let capture = CapturedConsole()
            let code = await runTool(["tflite"] + args, console: capture.console)
            #expect(code == ExitCode.failure)
            #expect(capture.out.isEmpty)
            #expect(capture.err == "error: \(expected)\n")
        }
    }

    @Test func directoryInsteadOfFile() async {
        let r = await run("inspect", FileManager.default.temporaryDirectory.path)
        #expect(r.code == ExitCode.failure)
        #expect(r.err.hasPrefix("error: cannot open model file"))
    }

    // Usage errors: ArgumentParser's message and the subcommand's usage on stderr, exit 2.

    @Test func unknownSubcommand() async {
        let r = await run("frobnicate")
        #expect(r.code == ExitCode.usage)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("Error: Unexpected argument 'frobnicate'\nUsage: tflite <subcommand>\n"))
    }

    @Test func noSubcommandIsAUsageError() async {
        let r = await run()
        #expect(r.code == ExitCode.usage)
        #expect(r.out.isEmpty)
        #expect(
            r.err
                == "Error: Missing subcommand.\nUsage: tflite <subcommand>\n  See 'tflite --help' for more information.\n"
        )
    }

    @Test func missingModelArgument() async {
        let r = await run("inspect")
        #expect(r.code == ExitCode.usage)
        #expect(r.err.hasPrefix("Error: Missing expected argument '<model>'\n"))
        #expect(
            r.err.contains(
                "Usage: tflite inspect <model> [--json]\n  See 'tflite inspect --help' for more information.\n"))
    }

    @Test func unknownFlag() async {
        let r = await run("inspect", "model.tflite", "--verbose")
        #expect(r.code == ExitCode.usage)
        #expect(r.err.hasPrefix("Error: Unknown option '--verbose'\n"))
        let short = await run("inspect", "-v", "model.tflite")
        #expect(short.code == ExitCode.usage)
        #expect(short.err.hasPrefix("Error: Unknown option '-v'\n"))
    }

    @Test func extraArgumentAndFlagValue() async {
        let extra = await run("inspect", "a.tflite", "b.tflite")
        #expect(extra.code == ExitCode.usage)
        #expect(extra.err.hasPrefix("Error: Unexpected argument 'b.tflite'\n"))
        let valued = await run("inspect", "--json=yes", "a.tflite")
        #expect(valued.code == ExitCode.usage)
        #expect(valued.err.hasPrefix("Error: The option '--json' does not take any value, but 'yes' was specified.\n"))
    }

    @Test func help() async {
        for args in [["help"], ["--help"], ["-h"]] {
            let capture = CapturedConsole()
            #expect(await runTool(["tflite"] + args, console: capture.console) == ExitCode.success)
            #expect(capture.out.hasPrefix("OVERVIEW: Inspect and run TensorFlow Lite models.\n"))
            #expect(capture.out.contains("USAGE: tflite <subcommand>\n"))
            #expect(capture.out.contains("\n  inspect ") && capture.out.contains("Describe a model"))
            #expect(capture.err.isEmpty)
        }
        for args in [["help", "inspect"], ["inspect", "--help"], ["inspect", "model.tflite", "-h"]] {
            let capture = CapturedConsole()
            #expect(await runTool(["tflite"] + args, console: capture.console) == ExitCode.success)
            #expect(capture.out.hasPrefix("OVERVIEW: Describe a model"))
            #expect(capture.out.contains("USAGE: tflite inspect <model> [--json]\n"))
            #expect(capture.out.contains("\n  --json ") && capture.out.contains("Print a JSON object instead of text"))
        }
    }
}
