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
    /// The command line was wrong. (ArgumentParser's own code for this is 64, `EX_USAGE`;
    /// the tool keeps 2, the usual code for usage errors.)
    public static let usage: Int32 = 2
}
