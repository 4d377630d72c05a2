import Foundation
import MLKit
import Testing
import TensorFlowLite

/// Paths of the committed fixture models, and helpers shared by the ML Kit tests.
enum MLKitFixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func model(_ name: String) -> String {
        root.appendingPathComponent("Fixtures/models/\(name).tflite").path
    }

    /// `x[i] = sin(0.1 * i)` over a flattened `[1, 32, 32, 3]` image, scaled by `scale`.
    static func sineImage(scale: Float = 1) -> [Float] {
        (0 ..< 32 * 32 * 3).map { scale * Float(sin(0.1 * Double($0))) }
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory(_ label: String = "mlkit") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Output 0 of the model at `path` for `input`, through the TensorFlowLite `Interpreter`.
    static func interpreterOutput(path: String, input: Data) throws -> Data {
        let interpreter = try Interpreter(modelPath: path)
        try interpreter.allocateTensors()
        try interpreter.copy(input, toInputAt: 0)
        try interpreter.invoke()
        return try interpreter.output(at: 0).data
    }

    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { raw in
            (0 ..< data.count / 4).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
        }
    }
}

/// The `NSError` `body` throws (or `nil`).
func nsError(_ body: () throws -> Void) -> NSError? {
    do { try body(); return nil } catch { return error as NSError }
}

/// Checks that `error` is in the ML Kit domain with `code` and `message`.
func expectError(
    _ error: (any Error)?, _ code: MachineLearningErrorCode, _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = error as NSError? else {
        Issue.record("expected error \(code): \(message), got none", sourceLocation: sourceLocation)
        return
    }
    #expect(error.domain == MachineLearningErrorDomain, sourceLocation: sourceLocation)
    #expect(
        error.code == code.rawValue,
        "code \(error.code), expected \(code) (\(code.rawValue)): \(error.localizedDescription)",
        sourceLocation: sourceLocation)
    #expect(error.localizedDescription == message, sourceLocation: sourceLocation)
}

/// Checks domain and code, and that the message contains each of `fragments`.
func expectError(
    _ error: (any Error)?, _ code: MachineLearningErrorCode, containing fragments: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = error as NSError? else {
        Issue.record("expected error \(code), got none", sourceLocation: sourceLocation)
        return
    }
    #expect(error.domain == MachineLearningErrorDomain, sourceLocation: sourceLocation)
    #expect(
        error.code == code.rawValue,
        "code \(error.code), expected \(code) (\(code.rawValue)): \(error.localizedDescription)",
        sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            error.localizedDescription.contains(fragment), "'\(error.localizedDescription)' lacks '\(fragment)'",
            sourceLocation: sourceLocation)
    }
}

extension ModelInterpreter {
    /// `run` through its completion handler, awaited.
    func runWithCompletion(inputs: ModelInputs, options: ModelInputOutputOptions) async -> (ModelOutputs?, (any Error)?)
    {
        await withCheckedContinuation { continuation in
            run(inputs: inputs, options: options) { outputs, error in continuation.resume(returning: (outputs, error)) }
        }
    }
}
