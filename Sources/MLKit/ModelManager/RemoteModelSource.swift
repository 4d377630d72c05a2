import Foundation

/// Where ML Kit finds a remote model: ML Kit's `RemoteModelSource`. Use
/// ``FirebaseModelSource``.
public class RemoteModelSource: NSObject, @unchecked Sendable {
    /// The name the model is published under.
    public let modelName: String

    init(modelName: String) {
        self.modelName = modelName
        super.init()
    }
}

/// A model published under `name`: ML Kit's `FirebaseModelSource`. Where ML Kit asked
/// Firebase, the name resolves against the model server ``ModelManager`` is configured
/// with (`TFLITE_MODEL_SERVER`, or ``ModelManager/modelManager(source:cacheDirectory:)``).
public final class FirebaseModelSource: RemoteModelSource, @unchecked Sendable {
    /// The model published as `name` on the model server.
    public init(name: String) {
        super.init(modelName: name)
    }
}

extension CustomRemoteModel {
    /// ML Kit's spelling of ``CustomRemoteModel/init(name:)``: the model `remoteModelSource`
    /// names, downloaded by ``ModelManager``. A bundle (an AutoML export published with
    /// `tflite publish DIR`) gives labelers its labels as well.
    public convenience init(remoteModelSource: RemoteModelSource) {
        self.init(name: remoteModelSource.modelName)
    }
}

extension Notification.Name {
    /// ML Kit's name for a finished download: posted with
    /// ``firebaseMLModelDownloadDidSucceed`` and the same `userInfo`.
    public static let mlkitModelDownloadDidSucceed = Notification.Name(
        "com.google.mlkit.notif.model-download-did-succeed")
    /// ML Kit's name for a failed download: posted with ``firebaseMLModelDownloadDidFail``
    /// and the same `userInfo`.
    public static let mlkitModelDownloadDidFail = Notification.Name("com.google.mlkit.notif.model-download-did-fail")
}

extension ModelManager {
    /// The installed files of `remoteModel`: its model file and, for a bundle, the
    /// directory holding its `manifest.json` and labels; or why it cannot be used.
    func installedFiles(_ remoteModel: RemoteModel) throws(VisionError) -> (modelPath: String, directory: String) {
        guard let installed = cache.installed(remoteModel.name) else {
            throw VisionError.modelNotDownloaded(name: remoteModel.name)
        }
        return (installed.path, URL(fileURLWithPath: installed.path).deletingLastPathComponent().path)
    }
}

extension LocalModel {
    /// The installed copy of `remoteModel` as a local model: from its bundle's
    /// `manifest.json` when it has one, else its model file (with a `dict.txt` beside it,
    /// if any, as labels).
    static func downloaded(_ remoteModel: RemoteModel, by manager: ModelManager) throws(VisionError) -> LocalModel {
        let files = try manager.installedFiles(remoteModel)
        let manifest = files.directory + "/manifest.json"
        if FileManager.default.fileExists(atPath: manifest) {
            return LocalModel(path: files.modelPath, manifestPath: manifest)
        }
        return LocalModel(path: files.modelPath)
    }
}
