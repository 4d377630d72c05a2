import Foundation

/// A model stored on this machine.
///
/// One class plays two roles that share a name:
/// - Firebase's `LocalModel` base class of ``CustomLocalModel`` and ``AutoMLLocalModel``;
/// - ML Kit's standalone `LocalModel`, created with ``init(path:)`` for a `.tflite` file or
///   ``init(manifestPath:)`` for an AutoML Vision Edge export.
public class LocalModel: NSObject, @unchecked Sendable {
    /// Path of the model file (for a manifest, the `modelFile` it names, resolved against
    /// the manifest's directory).
    public let path: String
    /// Path of the `manifest.json` the model was created from, if any.
    public let manifestPath: String?

    /// A model read from the `.tflite` file (or, for detectors, bundle directory) at
    /// `path`; the file is read when a detector first needs it.
    public init(path: String) {
        self.path = path
        self.manifestPath = nil
        super.init()
    }

    /// For subclasses created from a manifest (``AutoMLLocalModel``).
    init(path: String, manifestPath: String?) {
        self.path = path
        self.manifestPath = manifestPath
        super.init()
    }

    /// A model described by an AutoML Vision Edge `manifest.json`, or `nil` if the manifest
    /// is missing or invalid (not JSON, no `modelFile`/`labelsFile`) or the model file
    /// it names does not exist — ML Kit's contract. ``AutoMLLocalModel`` reports the reason
    /// instead.
    public convenience init?(manifestPath: String) {
        guard let manifest = try? AutoMLManifest(contentsOfFile: manifestPath),
            FileManager.default.fileExists(atPath: manifest.modelPath)
        else { return nil }
        self.init(path: manifest.modelPath, manifestPath: manifestPath)
    }

    public override var description: String {
        if let manifestPath { return "\(type(of: self))(manifestPath: \(manifestPath))" }
        return "\(type(of: self))(path: \(path))"
    }

    /// The manifest, when the model was created from one.
    func manifest() throws(ModelBundleError) -> AutoMLManifest? {
        guard let manifestPath else { return nil }
        return try AutoMLManifest(contentsOfFile: manifestPath)
    }
}
