import Foundation

/// Downloads remote models from a model server into a local cache and manages them:
/// Firebase's `ModelManager`.
///
/// Where Firebase hosted models, a model server you run hosts them here: any static file
/// server (or a directory) laid out as `spec/model-server.md` describes, which
/// `tflite publish` writes. For model `name` the manager reads `<source>/<name>/model.json`
/// and downloads the file it names into the cache, verifying its size, SHA-256 and that it
/// decodes as a model before it replaces the installed version.
///
///     let manager = ModelManager.modelManager()        // TFLITE_MODEL_SERVER
///     let model = CustomRemoteModel(name: "flowers")
///     NotificationCenter.default.addObserver(forName: .firebaseMLModelDownloadDidSucceed,
///                                            object: nil, queue: nil) { note in … }
///     let progress = manager.download(model, conditions: ModelDownloadConditions())
///
/// Notifications are posted to `NotificationCenter.default` from a private queue, with the
/// manager as `object`.
public final class ModelManager: NSObject, @unchecked Sendable {
    /// The model server: an `http`/`https` base URL or a `file` URL of a directory; `nil`
    /// when none is configured (downloads then fail with
    /// ``MachineLearningErrorCode/failedPrecondition``).
    public let source: URL?
    /// The directory holding downloaded models.
    public let cacheDirectory: URL

    private let settings = ModelLocked(Settings())
    private struct Settings {
        var completionQueue = ModelInterpreter.defaultCompletionQueue
        let privateQueue = DispatchQueue(label: "swift-tflite.mlkit.model-manager")
        var timeoutInterval: TimeInterval = 60
        var partialFileOverride: URL?
    }

    let cache: ModelCache

    /// The queue ``deleteDownloadedModel(_:completion:)`` calls back on (an addition;
    /// ``getLatestModelFilePath(_:completion:)`` answers before returning). Defaults to
    /// ``ModelInterpreter/defaultCompletionQueue``; `nil` means the main queue when the
    /// call is made on the main thread, else the manager's private serial queue.
    public var completionQueue: DispatchQueue? {
        get { settings.withLock { $0.completionQueue } }
        set { settings.withLock { $0.completionQueue = newValue } }
    }

    /// The longest wait, in seconds, for the server to send data (default 60).
    public var timeoutInterval: TimeInterval {
        get { settings.withLock { $0.timeoutInterval } }
        set { settings.withLock { $0.timeoutInterval = newValue } }
    }

    /// For tests: a file to write downloads to instead of a fresh partial file.
    var partialFileOverride: URL? {
        get { settings.withLock { $0.partialFileOverride } }
        set { settings.withLock { $0.partialFileOverride = newValue } }
    }

    private init(source: URL?, cacheDirectory: URL) {
        self.source = source
        self.cacheDirectory = cacheDirectory
        cache = ModelCache(root: cacheDirectory)
        super.init()
    }

    // MARK: - Instances

    private static let shared = ModelManager(
        source: ProcessInfo.processInfo.environment["TFLITE_MODEL_SERVER"].flatMap(serverURL),
        cacheDirectory: ProcessInfo.processInfo.environment["TFLITE_MODEL_CACHE"].map {
            URL(fileURLWithPath: $0, isDirectory: true)
        }
            ?? defaultCacheDirectory
    )

    /// The process-wide manager: its server is the environment variable
    /// `TFLITE_MODEL_SERVER` (an `http(s)://` URL, a `file://` URL or a directory path) and
    /// its cache `TFLITE_MODEL_CACHE`, else ``defaultCacheDirectory``. Both are read once,
    /// on first use.
    public class func modelManager() -> ModelManager { shared }

    /// A manager for the model server at `source` (an `http`/`https` base URL or a
    /// directory's `file` URL), caching models in `cacheDirectory` (default
    /// ``defaultCacheDirectory``). Managers sharing a cache directory share downloads.
    public class func modelManager(source: URL, cacheDirectory: URL? = nil) -> ModelManager {
        ModelManager(source: source, cacheDirectory: cacheDirectory ?? defaultCacheDirectory)
    }

    /// The per-user cache: `$XDG_CACHE_HOME/swift-tflite/models`, else
    /// `~/.cache/swift-tflite/models`.
    public static var defaultCacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("swift-tflite", isDirectory: true).appendingPathComponent(
            "models", isDirectory: true)
    }

    /// `text` as a server URL: a URL with a scheme, or else a directory path.
    static func serverURL(_ text: String) -> URL? {
        guard !text.isEmpty else { return nil }
        if let url = URL(string: text), let scheme = url.scheme,
            ["http", "https", "file"].contains(scheme.lowercased())
        {
            return url
        }
        return URL(fileURLWithPath: text, isDirectory: true)
    }

    // MARK: - Queries

    /// Whether a verified copy of `remoteModel` is in the cache.
    public func isModelDownloaded(_ remoteModel: RemoteModel) -> Bool {
        cache.installed(remoteModel.name) != nil
    }

    /// The absolute path of the downloaded model file, or `nil` and an error
    /// (``MachineLearningErrorCode/notFound``) if it has not been downloaded. Use it with
    /// `Interpreter(modelPath:)`.
    ///
    /// `completion` runs before this method returns, on the caller's thread: the answer
    /// is in the cache, so the guides' code that reads the path right after the call sees
    /// it.
    public func getLatestModelFilePath(
        _ remoteModel: RemoteModel, completion: @escaping (String?, (any Error)?) -> Void
    ) {
        Completion(completion)(installedPath(remoteModel).mapError { $0 as any Error })
    }

    /// The installed file of `remoteModel`, or the error Firebase reports for a model that
    /// is not on the device.
    func installedPath(_ remoteModel: RemoteModel) -> Result<String, NSError> {
        if let installed = cache.installed(remoteModel.name) { return .success(installed.path) }
        return .failure(
            MachineLearningErrorCode.notFound.error(
                "Remote model '\(remoteModel.name)' has not been downloaded to \(cacheDirectory.path)."))
    }

    /// Deletes the downloaded copy of `remoteModel`; `completion` gets `nil` on success
    /// (also when nothing was downloaded), or the file system's error.
    public func deleteDownloadedModel(_ remoteModel: RemoteModel, completion: @escaping ((any Error)?) -> Void) {
        let queue = settings.withLock { CompletionRoute.queue($0.completionQueue, fallback: $0.privateQueue) }
        let completion = ErrorCompletion(completion)
        let cache = self.cache
        DispatchQueue.global(qos: .utility).async {
            let failure: NSError?
            do {
                if ModelDescriptor.isValidName(remoteModel.name) { try cache.delete(remoteModel.name) }
                failure = nil
            } catch {
                failure = MachineLearningErrorCode.internal.error(
                    "Could not delete model '\(remoteModel.name)': \((error as NSError).localizedDescription)",
                    underlying: error)
            }
            MainQueueWatch.async(on: queue) { completion(failure) }
        }
    }

    // MARK: - Downloading

    /// Downloads of this process in flight, by cache directory and model name, with the
    /// managers and models to notify when each ends.
    private static let inFlight = ModelLocked([String: (job: ModelDownload, waiters: [(ModelManager, RemoteModel)])]())

    /// Starts downloading the current version of `remoteModel` unless it is already
    /// installed, and returns the download's progress in bytes (`totalUnitCount` is the
    /// model's size once the descriptor is read). The outcome is posted as
    /// `.firebaseMLModelDownloadDidSucceed` or `.firebaseMLModelDownloadDidFail`, and again
    /// as ML Kit's `.mlkitModelDownloadDidSucceed` or `.mlkitModelDownloadDidFail`. A bundle
    /// (published from a directory) is downloaded, verified and installed as a unit.
    ///
    /// A download of a model that is already being downloaded into the same cache joins
    /// it: it returns the same progress, and the outcome is posted for each caller.
    /// Cancelling the progress cancels the download.
    @discardableResult
    public func download(_ remoteModel: RemoteModel, conditions: ModelDownloadConditions) -> Progress {
        let name = remoteModel.name
        guard ModelDescriptor.isValidName(name) else {
            return failedImmediately(
                remoteModel,
                MachineLearningErrorCode.invalidArgument.error(
                    "'\(name)' is not a valid model name; use 1-128 letters, digits, '.', '_' or '-', not starting with '.'."
                ))
        }
        guard let source else {
            return failedImmediately(
                remoteModel,
                MachineLearningErrorCode.failedPrecondition.error(
                    "No model server is configured: set TFLITE_MODEL_SERVER to an http(s) URL or a directory, or use ModelManager.modelManager(source:cacheDirectory:)."
                ))
        }
        let key = cacheDirectory.standardizedFileURL.path + "\u{0}" + name
        let (download, isNew) = Self.inFlight.withLock { jobs -> (ModelDownload, Bool) in
            if let running = jobs[key] {
                jobs[key]?.waiters.append((self, remoteModel))
                return (running.job, false)
            }
            let job = ModelDownload(
                name: name, source: source, cache: cache, timeout: timeoutInterval,
                allowsCellularAccess: conditions.allowsCellularAccess, partialFileOverride: partialFileOverride
            ) { result in
                let waiters = Self.inFlight.withLock { $0.removeValue(forKey: key)?.waiters ?? [] }
                for (manager, model) in waiters { manager.post(result, for: model) }
            }
            jobs[key] = (job, [(self, remoteModel)])
            return (job, true)
        }
        if isNew { download.start() }
        return download.progress
    }

    private func failedImmediately(_ remoteModel: RemoteModel, _ error: NSError) -> Progress {
        let progress = Progress(totalUnitCount: -1)
        DispatchQueue.global(qos: .utility).async { [self] in post(.failure(error), for: remoteModel) }
        return progress
    }

    /// Posts the outcome under Firebase's name and then under ML Kit's, with one `userInfo`.
    private func post(_ result: Result<String, NSError>, for remoteModel: RemoteModel) {
        var userInfo: [String: Any] = [ModelDownloadUserInfoKey.remoteModel.rawValue: remoteModel]
        let names: [Notification.Name]
        switch result {
        case .success:
            names = [.firebaseMLModelDownloadDidSucceed, .mlkitModelDownloadDidSucceed]
        case .failure(let error):
            userInfo[ModelDownloadUserInfoKey.error.rawValue] = error
            names = [.firebaseMLModelDownloadDidFail, .mlkitModelDownloadDidFail]
        }
        for name in names { NotificationCenter.default.post(name: name, object: self, userInfo: userInfo) }
    }
}
