import Foundation

/// Entry point of the `tflite` command-line tool. Returns the process exit code.
public func runTool(_ arguments: [String]) async -> Int32 {
    0
}
