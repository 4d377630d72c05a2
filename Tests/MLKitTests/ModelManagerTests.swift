import Foundation
@testable import MLKit
import Testing

/// `ModelManager` against real HTTP servers on 127.0.0.1: `python3 -m http.server` for the
/// normal flows, and `FaultyHTTPServer` for failures. After every failure the earlier
/// version must still be installed and run.
@Suite struct ModelManagerTests {
    static let v1 = "mobilenet_float"
    static let v2 = "float16_weights"

    // MARK: - With python3 -m http.server

    @Test func downloadUpgradeCurrentAndDelete() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        let published = try dirs.publish(Self.v1, name: "classifier", version: 1)
        let server = try PythonHTTPServer(directory: dirs.server)
        defer { server.stop() }
        let manager = ModelManager.modelManager(source: server.baseURL, cacheDirectory: dirs.cache)
        let model = CustomRemoteModel(name: "classifier")

        // Nothing yet.
        #expect(!manager.isModelDownloaded(model))
        let before = await latestPath(manager, model)
        #expect(before.0 == nil)
        expectError(before.1, .notFound, "Remote model 'classifier' has not been downloaded to \(dirs.cache.path).")

        // Download v1: success notification, byte progress, verified file, runnable.
        let (first, progress) = try await download(manager, model)
        #expect(first.succeeded, "\(String(describing: first.error))")
        #expect(progress.totalUnitCount == Int64(published.size))
        #expect(progress.completedUnitCount == Int64(published.size))
        #expect(manager.isModelDownloaded(model))
        let v1Path = try #require(await latestPath(manager, model).0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: v1Path))
                == Data(contentsOf: URL(fileURLWithPath: MLKitFixtures.model(Self.v1))))
        #expect(await remoteScores(model, manager) == .success(try fixtureScores(Self.v1)))

        // Already current: success without fetching the model file (it is gone from the server).
        try FileManager.default.removeItem(at: dirs.server.appendingPathComponent("classifier/model-v1.tflite"))
        let (again, _) = try await download(manager, model)
        #expect(again.succeeded, "\(String(describing: again.error))")
        #expect(await latestPath(manager, model).0 == v1Path)

        // v2 replaces v1 once verified; the old file is removed.
        try dirs.publish(Self.v2, name: "classifier", version: 2)
        let (upgrade, _) = try await download(manager, model)
        #expect(upgrade.succeeded, "\(String(describing: upgrade.error))")
        let v2Path = try #require(await latestPath(manager, model).0)
        #expect(v2Path != v1Path)
        #expect(!FileManager.default.fileExists(atPath: v1Path))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: v2Path))
                == Data(contentsOf: URL(fileURLWithPath: MLKitFixtures.model(Self.v2))))
        #expect(await remoteScores(model, manager) == .success(try fixtureScores(Self.v2)))

        // 404 for the descriptor: failure, v2 kept.
        try FileManager.default.removeItem(at: dirs.server.appendingPathComponent("classifier"))
        let (missing, _) = try await download(manager, model)
        #expect(!missing.succeeded)
        expectError(
            missing.error, .notFound,
            "The model server answered HTTP 404 for \(server.baseURL.absoluteString)classifier/model.json.")
        #expect(await latestPath(manager, model).0 == v2Path)
        #expect(await remoteScores(model, manager) == .success(try fixtureScores(Self.v2)))

        // Delete.
        let deleted = await withCheckedContinuation { c in
            manager.deleteDownloadedModel(model) { c.resume(returning: $0 as NSError?) }
        }
        #expect(deleted == nil)
        #expect(!manager.isModelDownloaded(model))
        #expect(!FileManager.default.fileExists(atPath: v2Path))
        if case .failure(let error) = await remoteScores(model, manager) {
            expectError(error, .failedPrecondition, containing: ["no models currently exist on the device"])
        } else {
            Issue.record("a deleted remote model still ran")
        }
        let deletedAgain = await withCheckedContinuation { c in
            manager.deleteDownloadedModel(model) { c.resume(returning: $0 as NSError?) }
        }
        #expect(deletedAgain == nil, "deleting a model that is not downloaded is not an error")
    }

    @Test func directorySourceWithoutAServer() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        try dirs.publish(Self.v1, name: "local-dir", version: 7)
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let model = CustomRemoteModel(name: "local-dir")
        let (outcome, progress) = try await download(manager, model)
        #expect(outcome.succeeded, "\(String(describing: outcome.error))")
        #expect(progress.completedUnitCount == progress.totalUnitCount)
        #expect(await remoteScores(model, manager) == .success(try fixtureScores(Self.v1)))
    }

    /// A cached model damaged after it was installed — truncated, overwritten in place with
    /// its size kept, or its record garbled — is never taken as current: `download` fetches
    /// and verifies it again, and the model runs. (The in-place damage used to pass: the
    /// cache checked only the size, and `download` reported the damaged copy as current.)
    @Test func damagedCacheIsRepairedByDownloadingAgain() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        try dirs.publish(Self.v1, name: "repair", version: 1)
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let model = CustomRemoteModel(name: "repair")
        let (installed, _) = try await download(manager, model)
        #expect(installed.succeeded, "\(String(describing: installed.error))")
        let path = try #require(manager.cache.installed("repair")?.path)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let record = manager.cache.folder("repair").appendingPathComponent("installed.json")
        let damages: [(String, () throws -> Void)] = [
            ("truncated", { try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: path)) }),
            (
                "overwritten in place",
                {
                    var bad = good
                    for i in stride(from: 0, to: bad.count, by: 97) { bad[i] ^= 0x5A }
                    try bad.write(to: URL(fileURLWithPath: path))
                }
            ),
            ("garbled record", { try Data("{not json".utf8).write(to: record) }),
        ]
        for (what, damage) in damages {
            try damage()
            let (repaired, _) = try await download(manager, model)
            #expect(repaired.succeeded, "\(what): \(String(describing: repaired.error))")
            let repairedPath = try #require(manager.cache.installed("repair")?.path, "\(what)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: repairedPath)) == good, "\(what)")
            #expect(await remoteScores(model, manager) == .success(try fixtureScores(Self.v1)), "\(what)")
        }
    }

    // MARK: - Failures, with FaultyHTTPServer

    /// A cache holding v1 of "classifier", and a faulty server offering v2.
    struct Faulty {
        let dirs: ServerDirectories
        let server: FaultyHTTPServer
        let manager: ModelManager
        let model = CustomRemoteModel(name: "classifier")
        let v1Path: String
        let v2: ModelDescriptor
        let v2Bytes: Data

        init() async throws {
            dirs = try ServerDirectories()
            server = try FaultyHTTPServer()
            manager = ModelManager.modelManager(source: server.baseURL, cacheDirectory: dirs.cache)
            manager.timeoutInterval = 10
            try dirs.publish(ModelManagerTests.v1, name: "classifier", version: 1)
            server.set("/classifier/model.json", .ok(try dirs.file("classifier/model.json")))
            server.set("/classifier/model-v1.tflite", .ok(try dirs.file("classifier/model-v1.tflite")))
            let (installed, _) = try await download(manager, model)
            #expect(installed.succeeded, "\(String(describing: installed.error))")
            v1Path = try #require(manager.cache.installed("classifier")?.path)
            v2 = try dirs.publish(ModelManagerTests.v2, name: "classifier", version: 2)
            v2Bytes = try dirs.file("classifier/model-v2.tflite")
        }

        func serveV2(descriptor: ModelDescriptor? = nil, file reply: FaultyHTTPServer.Reply) throws {
            let encoder = JSONEncoder()
            server.set("/classifier/model.json", .ok(try encoder.encode(descriptor ?? v2)))
            server.set("/classifier/model-v2.tflite", reply)
        }

        /// v1 is still the installed version, its file intact and runnable; no partial files remain.
        func expectV1Kept(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            #expect(manager.isModelDownloaded(model), sourceLocation: sourceLocation)
            #expect(manager.cache.installed("classifier")?.path == v1Path, sourceLocation: sourceLocation)
            #expect(
                await remoteScores(model, manager) == .success(try fixtureScores(ModelManagerTests.v1)),
                sourceLocation: sourceLocation)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: manager.cache.folder("classifier").path)
                .filter { $0.hasPrefix(".partial") || $0.hasPrefix(".installed") }
            #expect(leftovers.isEmpty, "leftover files \(leftovers)", sourceLocation: sourceLocation)
        }

        func finish() {
            server.stop()
            dirs.remove()
        }
    }

    @Test func truncatedBodyKeepsTheEarlierModel() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .truncated(f.v2Bytes, sent: 3000))
        let (outcome, progress) = try await download(f.manager, f.model)
        #expect(!outcome.succeeded)
        expectError(
            outcome.error, .unavailable,
            containing: [
                "Could not download model 'classifier' from \(f.server.baseURL.absoluteString)classifier/model-v2.tflite (after 3000 of \(f.v2.size) bytes): "
            ])
        #expect(progress.totalUnitCount == Int64(f.v2.size))
        #expect(progress.completedUnitCount == 3000)
        try await f.expectV1Kept()
    }

    /// A body that ends early without a `Content-Length`: the transfer looks complete, and
    /// the size check against the descriptor catches it.
    @Test func unannouncedShortBodyIsTruncatedAndKeepsTheEarlierModel() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .unannounced(f.v2Bytes, sent: 3000))
        let (outcome, _) = try await download(f.manager, f.model)
        expectError(
            outcome.error, .dataLoss,
            "The download of model 'classifier' is truncated: received 3000 of \(f.v2.size) bytes.")
        try await f.expectV1Kept()
    }

    @Test func serverGoneMidDownloadKeepsTheEarlierModel() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .stall(f.v2Bytes, sent: 2048))
        let server = f.server
        let (outcome, progress) = try await download(f.manager, f.model) { progress in
            let started = (try? await waitUntil { progress.completedUnitCount >= 2048 }) ?? false
            #expect(started, "the first 2048 bytes arrived")
            server.stop()
        }
        #expect(!outcome.succeeded)
        expectError(outcome.error, .unavailable, containing: ["(after 2048 of \(f.v2.size) bytes)"])
        #expect(progress.completedUnitCount == 2048)
        try await f.expectV1Kept()
    }

    @Test func cancellingTheProgressCancelsTheDownload() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .stall(f.v2Bytes, sent: 1024))
        let (outcome, _) = try await download(f.manager, f.model) { progress in
            let started = (try? await waitUntil { progress.completedUnitCount >= 1024 }) ?? false
            #expect(started, "the first 1024 bytes arrived")
            progress.cancel()
        }
        expectError(outcome.error, .cancelled, "The download of model 'classifier' was cancelled.")
        try await f.expectV1Kept()
    }

    @Test func modelFileNotFound() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .notFound)
        let (outcome, _) = try await download(f.manager, f.model)
        expectError(
            outcome.error, .notFound,
            "The model server answered HTTP 404 for \(f.server.baseURL.absoluteString)classifier/model-v2.tflite.")
        try await f.expectV1Kept()
    }

    @Test func wrongHashKeepsTheEarlierModel() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        var corrupted = f.v2Bytes
        corrupted[100] ^= 0xff
        try f.serveV2(file: .ok(corrupted))
        let (outcome, _) = try await download(f.manager, f.model)
        expectError(
            outcome.error, .dataLoss,
            "The download of model 'classifier' is corrupted: its SHA-256 is \(SHA256.hex(corrupted)), but the descriptor says \(f.v2.sha256)."
        )
        try await f.expectV1Kept()
    }

    @Test func fileThatIsNotAModelIsRejected() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        let junk = Data(repeating: 0x5a, count: 4096)
        var descriptor = f.v2
        descriptor.size = junk.count
        descriptor.sha256 = SHA256.hex(junk)
        try f.serveV2(descriptor: descriptor, file: .ok(junk))
        let (outcome, _) = try await download(f.manager, f.model)
        expectError(
            outcome.error, .dataLoss,
            containing: ["The download of model 'classifier' is not a valid TensorFlow Lite model: "])
        try await f.expectV1Kept()
    }

    @Test func oversizedAndMalformedDescriptors() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        // The server sends more bytes than the descriptor announces.
        var small = f.v2
        small.size = 100
        try f.serveV2(descriptor: small, file: .ok(f.v2Bytes))
        let (tooBig, _) = try await download(f.manager, f.model)
        expectError(
            tooBig.error, .dataLoss,
            "The model server sends \(f.v2.size) bytes for model 'classifier' at \(f.server.baseURL.absoluteString)classifier/model-v2.tflite, but its descriptor says 100 bytes."
        )
        try await f.expectV1Kept()
        // Not a descriptor.
        f.server.set("/classifier/model.json", .ok(Data("{\"name\": \"classifier\"}".utf8)))
        let (malformed, _) = try await download(f.manager, f.model)
        expectError(
            malformed.error, .dataLoss,
            containing: [
                "The descriptor at \(f.server.baseURL.absoluteString)classifier/model.json is not a valid model descriptor"
            ])
        // A descriptor for another model.
        var other = f.v2
        other.name = "other"
        f.server.set("/classifier/model.json", .ok(try JSONEncoder().encode(other)))
        let (wrongName, _) = try await download(f.manager, f.model)
        expectError(
            wrongName.error, .dataLoss,
            "The descriptor at \(f.server.baseURL.absoluteString)classifier/model.json describes model 'other', not 'classifier'."
        )
        try await f.expectV1Kept()
    }

    @Test func fullDiskKeepsTheEarlierModel() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .ok(f.v2Bytes))
        // Writes to /dev/full fail with ENOSPC, as on a full file system.
        f.manager.partialFileOverride = URL(fileURLWithPath: "/dev/full")
        let (outcome, _) = try await download(f.manager, f.model)
        expectError(
            outcome.error, .resourceExhausted,
            containing: ["Not enough disk space to store model 'classifier' in \(f.dirs.cache.path)"])
        f.manager.partialFileOverride = nil
        try await f.expectV1Kept()
        // The same download succeeds once there is space.
        let (retry, _) = try await download(f.manager, f.model)
        #expect(retry.succeeded, "\(String(describing: retry.error))")
        #expect(await remoteScores(f.model, f.manager) == .success(try fixtureScores(ModelManagerTests.v2)))
    }

    /// Two managers sharing a cache download the same model at once: both are notified,
    /// with their own model objects, and the result is installed once.
    @Test func concurrentDownloadsOfOneModelBothSucceed() async throws {
        let f = try await Faulty()
        defer { f.finish() }
        try f.serveV2(file: .ok(f.v2Bytes))
        let before = f.server.requests.filter { $0.hasSuffix("model-v2.tflite") }.count
        let sharingCache = ModelManager.modelManager(source: f.server.baseURL, cacheDirectory: f.dirs.cache)
        let other = CustomRemoteModel(name: "classifier")
        async let a = download(f.manager, f.model)
        async let b = download(sharingCache, other)
        let (first, second) = try await (a, b)
        #expect(first.0.succeeded && second.0.succeeded)
        #expect(f.server.requests.filter { $0.hasSuffix("model-v2.tflite") }.count - before <= 2)
        #expect(await remoteScores(f.model, f.manager) == .success(try fixtureScores(ModelManagerTests.v2)))
    }

    // MARK: - Configuration

    @Test func invalidNameAndMissingServerFailWithoutNetwork() async throws {
        let cache = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let manager = ModelManager.modelManager(
            source: try #require(URL(string: "http://127.0.0.1:9/")), cacheDirectory: cache)
        let (bad, _) = try await download(manager, CustomRemoteModel(name: "../escape"))
        expectError(
            bad.error, .invalidArgument,
            "'../escape' is not a valid model name; use 1-128 letters, digits, '.', '_' or '-', not starting with '.'.")
        let (refused, _) = try await download(manager, CustomRemoteModel(name: "nobody-listens"))
        expectError(
            refused.error, .unavailable,
            containing: [
                "Could not download the descriptor of model 'nobody-listens' from http://127.0.0.1:9/nobody-listens/model.json: "
            ])
    }

    @Test func conditionsDefaultsAndCopy() throws {
        let defaults = ModelDownloadConditions()
        #expect(defaults.allowsCellularAccess && !defaults.allowsBackgroundDownloading)
        let custom = ModelDownloadConditions(allowsCellularAccess: false, allowsBackgroundDownloading: true)
        let copy = try #require(custom.copy() as? ModelDownloadConditions)
        #expect(!copy.allowsCellularAccess && copy.allowsBackgroundDownloading && copy !== custom)
    }

    @Test func cacheAndServerLocations() throws {
        #expect(ModelManager.defaultCacheDirectory.path.hasSuffix("/swift-tflite/models"))
        #expect(
            ModelManager.serverURL("https://models.example.com/v1/")?.absoluteString == "https://models.example.com/v1/"
        )
        #expect(ModelManager.serverURL("/srv/models")?.isFileURL == true)
        #expect(ModelManager.serverURL("") == nil)
    }

    private func latestPath(_ manager: ModelManager, _ model: RemoteModel) async -> (String?, NSError?) {
        await withCheckedContinuation { c in
            manager.getLatestModelFilePath(model) { c.resume(returning: ($0, $1 as NSError?)) }
        }
    }
}
