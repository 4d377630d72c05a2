import Foundation

/// An AutoML Vision Edge model exported to this machine (Firebase's `AutoMLLocalModel`):
/// a `manifest.json` naming the `.tflite` model and its `dict.txt` labels.
public final class AutoMLLocalModel: LocalModel, @unchecked Sendable {
    /// The parsed manifest, or why it could not be parsed; reported when a detector is
    /// used (Firebase raises `FIRInvalidAutoMLLocalModel` there).
    let parsedManifest: Result<AutoMLManifest, ModelBundleError>

    /// The model described by the manifest at `manifestPath` (absolute, or relative to the
    /// current directory). An invalid manifest is reported when the model is first used.
    public init(manifestPath: String) {
        let parsed = Result { () throws(ModelBundleError) -> AutoMLManifest in
            try AutoMLManifest(contentsOfFile: manifestPath)
        }
        parsedManifest = parsed
        super.init(path: (try? parsed.get())?.modelPath ?? manifestPath, manifestPath: manifestPath)
    }

    override func manifest() throws(ModelBundleError) -> AutoMLManifest? { try parsedManifest.get() }

    /// Checks the manifest parsed and the model and labels files it names exist; throws
    /// ``ModelBundleError`` with the reason otherwise (an addition: Firebase raises
    /// `FIRInvalidAutoMLLocalModel` when the options are created).
    public func validate() throws {
        let manifest = try parsedManifest.get()
        for file in [manifest.modelPath, manifest.labelsPath] where !FileManager.default.fileExists(atPath: file) {
            throw ModelBundleError.unreadable(path: file, reason: "no such file (named by \(manifest.manifestPath))")
        }
    }
}

/// An AutoML Vision Edge model published on a model server (Firebase's `AutoMLRemoteModel`).
///
/// ``ModelManager/modelManager()`` downloads it (`download(_:conditions:)`): a bundle
/// published with `tflite publish DIR`, installed as a unit. Until then, labelers using
/// this model report ``VisionError/modelNotDownloaded(name:)``. Setting
/// ``downloadedManifestPath`` points them at a bundle elsewhere on disk instead.
public final class AutoMLRemoteModel: RemoteModel, @unchecked Sendable {
    private let lock = NSLock()
    private var _downloadedManifestPath: String?

    /// The AutoML bundle published as `name`.
    public override init(name: String) {
        super.init(name: name)
    }

    /// Path of a bundle's `manifest.json` to use instead of the one
    /// ``ModelManager/modelManager()`` downloaded; `nil` (default) uses the download.
    public var downloadedManifestPath: String? {
        get { lock.withLock { _downloadedManifestPath } }
        set { lock.withLock { _downloadedManifestPath = newValue } }
    }

    public override var description: String { "AutoMLRemoteModel(name: \(name))" }
}
