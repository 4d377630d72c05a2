/// One `tflite` subcommand: its name, help and what it does.
///
/// To add a subcommand, write one file declaring
/// `extension Subcommand { static let bench = Subcommand(...) }` and list it in
/// ``Subcommand/all``. Parsing, `--help`, error printing and exit codes are handled by
/// ``runTool(_:console:)``.
public struct Subcommand: Sendable {
    public var name: String
    /// One line for the command list.
    public var summary: String
    /// Paragraphs shown by `tflite help NAME` after the usage.
    public var discussion: String
    public var arguments: ArgumentSpec
    /// Runs with parsed arguments and returns the exit code. Throw ``ToolError``,
    /// ``UsageError`` or a library error (its description is printed) to fail.
    public var run: @Sendable (ParsedArguments, Console) async throws -> Int32

    public init(name: String, summary: String, discussion: String = "", arguments: ArgumentSpec, run: @escaping @Sendable (ParsedArguments, Console) async throws -> Int32) {
        self.name = name; self.summary = summary; self.discussion = discussion
        self.arguments = arguments; self.run = run
    }

    /// Every subcommand, in the order `tflite help` lists them.
    public static let all: [Subcommand] = [.demo, .label, .detect, .faces, .segment, .inspect, .run, .bench, .conformance, .publish, .help]

    static func named(_ name: String) -> Subcommand? { all.first { $0.name == name } }
}
