import ArgumentParser

/// One `tflite` subcommand.
///
/// Its properties declare its arguments with ArgumentParser's `@Argument`, `@Option` and
/// `@Flag` (which parse them, print `--help`, report bad flags and feed the shell
/// completions); ``run(console:)`` carries it out. To add a subcommand, write one file
/// declaring a `struct NameCommand: ToolCommand` with a `configuration` naming it, and
/// list it in ``TFLiteTool``'s subcommands.
protocol ToolCommand: ParsableCommand {
    /// Runs the parsed command and returns the exit code. Throw ``ToolError`` or a library
    /// error (its description is printed) to fail.
    func run(console: Console) async throws -> Int32
}

/// A transform for `@Option(transform:)` that accepts a value in `range` only: an integer
/// for `Int`, a number for `Float`. ArgumentParser reports a rejected value as invalid for
/// that option, with the usage (exit 2).
func value<T: LosslessStringConvertible & Comparable & Sendable>(in range: ClosedRange<T>)
    -> @Sendable (String) throws -> T
{
    value(where: range.contains, expected: "in \(range.lowerBound)...\(range.upperBound)")
}

/// The same for a value of at least `lowerBound`.
func value<T: LosslessStringConvertible & Comparable & Sendable>(atLeast lowerBound: T)
    -> @Sendable (String) throws -> T
{
    value(where: { $0 >= lowerBound }, expected: "of at least \(lowerBound)")
}

private func value<T: LosslessStringConvertible & Sendable>(
    where accepts: @escaping @Sendable (T) -> Bool, expected: String
) -> @Sendable (String) throws -> T {
    { text in
        guard let value = T(text), accepts(value) else {
            throw ValidationError("expected \(T.self == Int.self ? "an integer" : "a number") \(expected)")
        }
        return value
    }
}
