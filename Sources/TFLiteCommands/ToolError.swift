/// A command line the tool cannot act on. Printed with the usage hint; exit code 2.
public enum UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSubcommand
    case unknownSubcommand(String)
    case missingArgument(String)
    case unexpectedArgument(String)
    case unknownOption(String)
    case missingValue(option: String)
    case flagTakesNoValue(option: String)
    case invalidValue(option: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .noSubcommand: return "missing subcommand"
        case let .unknownSubcommand(name): return "unknown subcommand '\(name)'"
        case let .missingArgument(name): return "missing argument \(name)"
        case let .unexpectedArgument(arg): return "unexpected argument '\(arg)'"
        case let .unknownOption(option): return "unknown option '\(option)'"
        case let .missingValue(option): return "option '\(option)' needs a value"
        case let .flagTakesNoValue(option): return "option '\(option)' takes no value"
        case let .invalidValue(option, value, expected): return "invalid value '\(value)' for '\(option)': expected \(expected)"
        }
    }
}

/// A failure while carrying out a valid command (unreadable file, bad model...): exit code 1.
public struct ToolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Process exit codes of the `tflite` tool.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The command ran and failed (bad model file, I/O error, failed check).
    public static let failure: Int32 = 1
    /// The command line was wrong.
    public static let usage: Int32 = 2
}
