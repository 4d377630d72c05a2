import Foundation
import TensorFlowLite

/// Writes models into a model-server directory (`spec/model-server.md`), which any static
/// file server (or ``ModelManager`` directly, as a directory URL) can then serve.
public enum ModelPublisher {
    /// Publishes the model file (or bundle directory, see
    /// `publishBundle(at:name:version:to:replace:)`) at `modelPath` as version `version` of model `name` in the
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
    public static func publish(
        modelAt modelPath: String, name: String, version: Int, to directory: URL, replace: Bool = false
    ) throws -> ModelDescriptor {
        guard ModelDescriptor.isValidName(name) else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "'\(name)' is not a valid model name; use 1-128 letters, digits, '.', '_' or '-', not starting with '.'."
            )
        }
        guard version >= 0 else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "Version \(version) is negative; expected a non-negative integer.")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: modelPath, isDirectory: &isDirectory), isDirectory.boolValue {
            return try publishBundle(
                at: URL(fileURLWithPath: modelPath, isDirectory: true), name: name, version: version,
                to: directory, replace: replace)
        }
        let bytes = try checkedModel(modelPath)
        let folder = try prepareFolder(name: name, version: version, in: directory, replace: replace)
        let fileName = "model-v\(version).tflite"
        try bytes.write(to: folder.appendingPathComponent(fileName), options: .atomic)
        let descriptor = ModelDescriptor(
            name: name, version: version, size: bytes.count, sha256: SHA256.hex(bytes), file: fileName)
        try descriptor.encoded().write(to: folder.appendingPathComponent("model.json"), options: .atomic)
        return descriptor
    }

    /// Publishes the bundle directory `bundle` (an AutoML export: `manifest.json`,
    /// `dict.txt`, `model.tflite`, or a detection export with `tflite_metadata.json`): its
    /// files go to `<directory>/<name>/v<version>/`, then `model.json` lists them, so
    /// ``ModelManager`` downloads, verifies and installs them as one unit. The model is the
    /// file the manifest's `modelFile` names, else the directory's one `.tflite` file.
    static func publishBundle(at bundle: URL, name: String, version: Int, to directory: URL, replace: Bool) throws
        -> ModelDescriptor
    {
        let files = try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter { !$0.hasPrefix(".") }
            .sorted()
        let manifest = bundle.appendingPathComponent("manifest.json")
        let modelName: String
        if files.contains("manifest.json") {
            do {
                modelName =
                    URL(fileURLWithPath: try AutoMLManifest(contentsOfFile: manifest.path).modelPath).lastPathComponent
            } catch {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "\(manifest.path) is not a valid manifest: \(error)")
            }
        } else {
            let models = files.filter { $0.hasSuffix(".tflite") }
            guard models.count == 1, let only = models.first else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "\(bundle.path) has no manifest.json and \(models.count) .tflite files; a bundle needs a manifest or exactly one model."
                )
            }
            modelName = only
        }
        guard files.contains(modelName) else {
            throw MachineLearningErrorCode.invalidArgument.error("\(bundle.path) has no model file '\(modelName)'.")
        }
        for file in files where !ModelDescriptor.isValidName(file) {
            throw MachineLearningErrorCode.invalidArgument.error(
                "'\(file)' in \(bundle.path) cannot be published; bundle file names use letters, digits, '.', '_' or '-'."
            )
        }
        let modelBytes = try checkedModel(bundle.appendingPathComponent(modelName).path)
        let folder = try prepareFolder(name: name, version: version, in: directory, replace: replace)
        let versionFolder = "v\(version)"
        let target = folder.appendingPathComponent(versionFolder, isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        var members: [ModelDescriptor.Member] = []
        for file in files {
            let bytes = file == modelName ? modelBytes : try Data(contentsOf: bundle.appendingPathComponent(file))
            try bytes.write(to: target.appendingPathComponent(file), options: .atomic)
            if file != modelName {
                members.append(
                    .init(name: file, size: bytes.count, sha256: SHA256.hex(bytes), file: "\(versionFolder)/\(file)"))
            }
        }
        let descriptor = ModelDescriptor(
            name: name, version: version, size: modelBytes.count, sha256: SHA256.hex(modelBytes),
            file: "\(versionFolder)/\(modelName)", bundle: members, bundleModelName: modelName)
        try descriptor.encoded().write(to: folder.appendingPathComponent("model.json"), options: .atomic)
        return descriptor
    }

    /// The bytes of the model file at `path`, checked to decode as a model.
    private static func checkedModel(_ path: String) throws -> Data {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try Model(data: bytes)
        } catch {
            throw MachineLearningErrorCode.invalidArgument.error(
                "\(path) is not a valid TensorFlow Lite model: \(error.description)")
        }
        return bytes
    }

    /// `<directory>/<name>/`, created, after checking `version` is above the published
    /// one (unless `replace`).
    private static func prepareFolder(name: String, version: Int, in directory: URL, replace: Bool) throws -> URL {
        let folder = directory.appendingPathComponent(name, isDirectory: true)
        let descriptorURL = folder.appendingPathComponent("model.json")
        if !replace, let existing = try? Data(contentsOf: descriptorURL),
            let published = try? ModelDescriptor.decode(existing, expectedName: name), published.version >= version
        {
            throw MachineLearningErrorCode.invalidArgument.error(
                "\(descriptorURL.path) already publishes version \(published.version); publish a higher version than that (or replace it explicitly)."
            )
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
