import Foundation
import TensorFlowLite

/// Writes models into a model-server directory (`spec/model-server.md`), which any static
/// file server (or ``ModelManager`` directly, as a directory URL) can then serve.
public enum ModelPublisher {
    /// Publishes the model file at `modelPath` as version `version` of model `name` in the
    /// server directory `directory`: copies it to `<directory>/<name>/model-v<version>.tflite`
    /// and then atomically replaces `<directory>/<name>/model.json`, so a server never
    /// serves a descriptor whose file is missing. Files of earlier versions are kept, so
    /// clients in the middle of downloading them can finish.
    ///
    /// - Parameters:
    ///   - modelPath: the `.tflite` file to publish.
    ///   - name: the model's name on the server.
    ///   - version: the version to publish it as.
    ///   - directory: the server directory.
    ///   - replace: allow a version not above the currently published one.
    /// - Returns: the descriptor written.
    /// - Throws: an `NSError` with ``MachineLearningErrorCode/invalidArgument`` for an
    ///   invalid name or version, a file that is not a valid model, or a version not above
    ///   the published one (unless `replace`); the file system's error if writing fails.
    @discardableResult
    public static func publish(modelAt modelPath: String, name: String, version: Int, to directory: URL, replace: Bool = false) throws -> ModelDescriptor {
        guard ModelDescriptor.isValidName(name) else {
            throw MachineLearningErrorCode.invalidArgument.error("'\(name)' is not a valid model name; use 1-128 letters, digits, '.', '_' or '-', not starting with '.'.")
        }
        guard version >= 0 else {
            throw MachineLearningErrorCode.invalidArgument.error("Version \(version) is negative; expected a non-negative integer.")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: modelPath))
        do {
            _ = try Model(data: bytes)
        } catch {
            throw MachineLearningErrorCode.invalidArgument.error("\(modelPath) is not a valid TensorFlow Lite model: \(error.description)")
        }
        let folder = directory.appendingPathComponent(name, isDirectory: true)
        let descriptorURL = folder.appendingPathComponent("model.json")
        if !replace, let existing = try? Data(contentsOf: descriptorURL),
           let published = try? ModelDescriptor.decode(existing, expectedName: name), published.version >= version {
            throw MachineLearningErrorCode.invalidArgument.error("\(descriptorURL.path) already publishes version \(published.version); publish a higher version than that (or replace it explicitly).")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fileName = "model-v\(version).tflite"
        try bytes.write(to: folder.appendingPathComponent(fileName), options: .atomic)
        let descriptor = ModelDescriptor(name: name, version: version, size: bytes.count, sha256: SHA256.hex(bytes), file: fileName)
        try descriptor.encoded().write(to: descriptorURL, options: .atomic)
        return descriptor
    }
}
