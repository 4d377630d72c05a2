import Testing
import TFLiteRuntime
@testable import TFLiteCommands

/// The command lines the documents and scripts use (README, BENCHMARKS.md, .ci/run,
/// scripts/bench, scripts/fixtures) parse to the values they mean; bad flags,
/// `--help` and shell completions come from ArgumentParser.
@Suite struct CommandLineTests {
    func parse<C: ToolCommand>(_ arguments: String..., as: C.Type) throws -> C {
        try #require(try TFLiteTool.parseAsRoot(arguments) as? C, "\(arguments) parsed as another command")
    }

    @Test func benchAsBenchmarksAndCIRunIt() throws {
        let ci = try parse("bench", "m.tflite", "--runs", "1", "--warmup", "0", "--json", as: BenchCommand.self)
        #expect(ci.path == "m.tflite" && ci.runs == 1 && ci.warmup == 0 && ci.json && !ci.profile && ci.threads == 1)
        #expect(ci.engineArguments.requantization == .exact && ci.engineArguments.kernelLevel == nil)
        // Options before the model, `=` values, the short -n, and the engine options.
        let all = try parse(
            "bench", "--threads", "4", "-n", "40", "--warmup=2", "m.tflite", "--profile",
            "--requantization", "float32", "--kernel-level", "portable", as: BenchCommand.self)
        #expect(
            all.path == "m.tflite" && all.threads == 4 && all.runs == 40 && all.warmup == 2 && all.profile && !all.json)
        #expect(all.engineArguments.requantization == .float32 && all.engineArguments.kernelLevel == .portable)
        let defaults = try parse("bench", "m.tflite", as: BenchCommand.self)
        #expect(defaults.threads == 1 && defaults.runs == 50 && defaults.warmup == 5)
    }

    @Test func runTakesOneInputPerModelInput() throws {
        let r = try parse(
            "run", "m.tflite", "--output-dir", "out", "--input", "a.npy", "-i", "b.npy", "--input=c.npy",
            "--requantization", "float32", "--kernel-level", "avx2", "--threads", "2", as: RunCommand.self)
        #expect(
            r.path == "m.tflite" && r.files == ["a.npy", "b.npy", "c.npy"] && r.outputDir == "out" && r.threads == 2)
        #expect(
            r.engineArguments.interpreterRequantization == .float32 && r.engineArguments.interpreterKernelLevel == .avx2
        )
        let bare = try parse("run", "m.tflite", "-o", "d", as: RunCommand.self)
        #expect(bare.files.isEmpty && bare.outputDir == "d" && bare.engineArguments.interpreterKernelLevel == nil)
    }

    @Test func theOtherSubcommands() throws {
        let inspect = try parse("inspect", "m.tflite", "--json", as: InspectCommand.self)
        #expect(inspect.path == "m.tflite" && inspect.json)
        // After `--`, a word that looks like a flag is the model's path.
        let dashes = try parse("inspect", "--", "--json", as: InspectCommand.self)
        #expect(dashes.path == "--json" && !dashes.json)

        let label = try parse(
            "label", "x.png", "--model", "bundle", "--threshold", "0.25", "--max", "3", "--json", as: LabelCommand.self)
        #expect(
            label.imagePath == "x.png" && label.bundle == "bundle" && label.threshold == 0.25 && label.maxCount == 3
                && label.json)
        #expect(try parse("label", "x.png", as: LabelCommand.self).threshold == nil)

        let detect = try parse(
            "detect", "x.png", "--model", "dir", "--json", "--annotate", "out.png", as: DetectCommand.self)
        #expect(
            detect.imagePath == "x.png" && detect.model == "dir" && detect.json && detect.annotate == "out.png"
                && detect.threshold == 0.5)

        let faces = try parse("faces", "--json", as: FacesCommand.self)
        #expect(faces.imageFile == nil && faces.model == nil && faces.json)
        #expect(try parse("faces", "a.png", "--annotate", "b.png", as: FacesCommand.self).imageFile == "a.png")

        #expect(try parse("demo", as: DemoCommand.self).outputDir == nil)
        #expect(try parse("demo", "-o", "d", as: DemoCommand.self).outputDir == "d")

        let conformance = try parse("conformance", "--markdown", "CONFORMANCE.md", as: ConformanceCommand.self)
        #expect(conformance.markdown == "CONFORMANCE.md" && conformance.corpus == nil && conformance.threads == 1)

        let publish = try parse(
            "publish", "m.tflite", "--name", "flowers", "--version", "3", "--to", "srv", "--replace",
            as: PublishCommand.self)
        #expect(
            publish.path == "m.tflite" && publish.name == "flowers" && publish.version == 3
                && publish.directory == "srv" && publish.replace)
    }

    /// Each bad command line: exit 2, nothing on stdout, ArgumentParser's message first on
    /// stderr, then the subcommand's usage.
    @Test(arguments: [
        (["bench", "m.tflite", "--threads"], "Error: Missing value for '--threads <n>'"),
        (
            ["bench", "m.tflite", "--threads", "many"],
            "Error: The value 'many' is invalid for '--threads <n>': expected an integer in 1...256"
        ),
        (
            ["bench", "m.tflite", "--runs=0"],
            "Error: The value '0' is invalid for '--runs <n>': expected an integer in 1...1000000"
        ),
        (
            ["bench", "m.tflite", "--kernel-level", "sse"],
            "Error: The value 'sse' is invalid for '--kernel-level <level>': expected portable, avx2, avx512, neon, dotprod or i8mm"
        ),
        (
            ["run", "m.tflite", "--requantization", "fast"],
            "Error: The value 'fast' is invalid for '--requantization <mode>': expected exact or float32"
        ),
        (["run", "m.tflite", "--inputs", "x.npy"], "Error: Unknown option '--inputs'. Did you mean '--input'?"),
        (
            ["bench", "m.tflite", "--json=1"],
            "Error: The option '--json' does not take any value, but '1' was specified."
        ),
        (["bench"], "Error: Missing expected argument '<model>'"),
        (
            ["label", "x.png", "--threshold", "2"],
            "Error: The value '2' is invalid for '--threshold <t>': expected a number in 0.0...1.0"
        ),
        (
            ["label", "x.png", "--max", "0"],
            "Error: The value '0' is invalid for '--max <n>': expected an integer in 1...100000"
        ),
        (["detect"], "Error: Missing expected argument '<image>'"),
        (["faces", "a.png", "b.png"], "Error: Unexpected argument 'b.png'"),
        (["publish", "m.tflite", "--name", "x", "--to", "d"], "Error: Missing expected argument '--version <n>'"),
        (
            ["publish", "m.tflite", "--name", "x", "--version=-1", "--to", "d"],
            "Error: The value '-1' is invalid for '--version <n>': expected an integer of at least 0"
        ),
        (["conformance", "extra"], "Error: Unexpected argument 'extra'"),
        (["demo", "--output"], "Error: Unknown option '--output'"),
    ])
    func badFlags(arguments: [String], message: String) async {
        let capture = CapturedConsole()
        let code = await runTool(["tflite"] + arguments, console: capture.console)
        #expect(code == ExitCode.usage)
        #expect(capture.out.isEmpty)
        let lines = capture.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == message)
        #expect(lines.contains { $0.hasPrefix("Usage: tflite \(arguments[0]) ") })
        #expect(capture.err.hasSuffix("See 'tflite \(arguments[0]) --help' for more information.\n"))
    }

    @Test func benchHelpListsEveryDocumentedFlag() async {
        let r = await run("bench", "--help")
        #expect(r.code == ExitCode.success && r.err.isEmpty)
        #expect(r.out.hasPrefix("OVERVIEW: Time model load and inference"))
        #expect(
            r.out.contains(
                "USAGE: tflite bench <model> [--threads <n>] [--runs <n>] [--warmup <n>] [--json] [--profile] [--signature <name>] [--input <file.npy> ...] [--requantization <mode>] [--kernel-level <level>]\n"
            ))
        for label in [
            "<model>", "--threads <n>", "-n, --runs <n>", "--warmup <n>", "--json", "--profile",
            "--signature <name>", "-i, --input <file.npy>", "--requantization <mode>", "--kernel-level <level>",
            "-h, --help",
        ] {
            #expect(r.out.contains("\n  \(label) "), "\(label)")
        }
        // The discussion is one paragraph, wrapped by ArgumentParser to the screen width.
        #expect(r.out.contains("Load time covers reading the file"))
        #expect(await run("help", "bench") == r)
    }

    @Test func everySubcommandHasHelp() async {
        let top = await run("--help")
        for command in TFLiteTool.configuration.subcommands {
            let name = command.configuration.commandName ?? ""
            #expect(top.out.contains("\n  \(name) "), "\(name) missing from tflite --help")
            let r = await run(name, "--help")
            #expect(r.code == ExitCode.success && r.err.isEmpty, "\(name)")
            #expect(r.out.hasPrefix("OVERVIEW: ") && r.out.contains("USAGE: tflite \(name)"), "\(name)")
            #expect(await run("help", name) == r, "\(name)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) async {
        let r = await run("--generate-completion-script", shell)
        #expect(r.code == ExitCode.success && r.err.isEmpty)
        for word in ["tflite", "bench", "inspect", "publish", "kernel-level", "requantization", "output-dir"] {
            #expect(r.out.contains(word), "\(shell) script lacks \(word)")
        }
        // The fixed value lists complete too.
        #expect(r.out.contains("portable") && r.out.contains("float32"))
    }

    @Test func unknownShellIsAUsageError() async {
        let r = await run("--generate-completion-script", "tcsh")
        #expect(r.code == ExitCode.usage && r.out.isEmpty)
        #expect(r.err.hasPrefix("Error: Can't generate completion scripts for 'tcsh'."))
    }
}
