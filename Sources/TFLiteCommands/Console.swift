import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// Commands never print directly, so tests can run them through ``runTool(_:console:)``
/// and read what they wrote.
public struct Console: Sendable {
    /// Writes `text` (as is; include the newline) to the result stream.
    public var out: @Sendable (String) -> Void
    /// Writes `text` (as is; include the newline) to the diagnostic stream.
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) }
    )
}
