import Foundation
@testable import MLKit
import Testing

/// AutoML bundles (manifest.json + dict.txt + model.tflite) published from a directory,
/// downloaded, verified and installed as a unit, then labeled through ML Kit's and the
/// legacy Firebase remote-model API exactly as the local bundle labels.
@Suite struct RemoteBundleTests {
    static let digits = MLKitFixtures.root.appendingPathComponent("Fixtures/bundles/digits")
    static let image = MLKitFixtures.root.appendingPathComponent("Fixtures/images/digits/2_2.png").path

    /// The labels of the local bundle: what the remote one must give.
    static func localLabels() throws -> [ImageLabel] {
        let model = try #require(LocalModel(manifestPath: digits.appendingPathComponent("manifest.json").path))
        return try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: model))
            .results(in: VisionImage(contentsOfFile: image))
    }

    @Test func publishedBundleDownloadsAsAUnitAndLabels() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        let descriptor = try ModelPublisher.publish(
            modelAt: Self.digits.path, name: "digits", version: 1, to: dirs.server)
        #expect(descriptor.bundleModelName == "model.tflite")
        #expect(Set(descriptor.bundle?.map(\.name) ?? []) == ["manifest.json", "dict.txt", "REPORT.json"])
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let remote = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "digits"))
        let options = CustomImageLabelerOptions(remoteModel: remote)
        options.modelManager = manager
        let labeler = ImageLabeler.imageLabeler(options: options)
        let picture = try VisionImage(contentsOfFile: Self.image)
        #expect(throws: VisionError.modelNotDownloaded(name: "digits")) { try labeler.results(in: picture) }

        // ML Kit's notification arrives as Firebase's does.
        let mlkit = OutcomeBox()
        let observer = NotificationCenter.default.addObserver(
            forName: .mlkitModelDownloadDidSucceed, object: manager, queue: nil
        ) { note in
            mlkit.add(
                DownloadOutcome(
                    succeeded: true,
                    remoteModel: note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel))
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let (outcome, _) = try await download(manager, remote)
        #expect(outcome.succeeded, "\(String(describing: outcome.error))")
        #expect(try await waitUntil { mlkit.all.count == 1 })
        #expect(mlkit.all.first?.remoteModel === remote)
        #expect(manager.isModelDownloaded(remote))

        let want = try Self.localLabels()
        let got = try labeler.results(in: picture)
        #expect(got.map(\.text) == want.map(\.text) && got.map(\.confidence) == want.map(\.confidence))
        #expect(!got.isEmpty && got.allSatisfy { !$0.text.isEmpty })

        // The legacy API reads the same download.
        let legacyOptions = VisionOnDeviceAutoMLImageLabelerOptions(remoteModel: AutoMLRemoteModel(name: "digits"))
        legacyOptions.modelManager = manager
        legacyOptions.confidenceThreshold = 0
        let legacy = try Vision.vision().onDeviceAutoMLImageLabeler(options: legacyOptions).results(in: picture)
        #expect(legacy.map(\.text) == want.map(\.text))
    }

    /// A newer bundle whose labels file is damaged on the server fails to download, and the
    /// installed bundle stays whole and usable; so does one whose server stops mid-way.
    @Test func failedBundleDownloadKeepsTheGoodCachedBundle() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        try ModelPublisher.publish(modelAt: Self.digits.path, name: "digits", version: 1, to: dirs.server)
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let remote = CustomRemoteModel(name: "digits")
        let (first, _) = try await download(manager, remote)
        #expect(first.succeeded)
        let installedPath = try #require(manager.cache.installed("digits")?.path)

        try ModelPublisher.publish(modelAt: Self.digits.path, name: "digits", version: 2, to: dirs.server)
        let dict = dirs.server.appendingPathComponent("digits/v2/dict.txt")
        try Data("one\ntwo\n".utf8).write(to: dict)
        let (damaged, _) = try await download(manager, remote)
        #expect(!damaged.succeeded)
        expectError(damaged.error, .dataLoss, containing: ["file 'dict.txt' of model 'digits'"])

        try FileManager.default.removeItem(at: dirs.server.appendingPathComponent("digits/v2/manifest.json"))
        let (missing, _) = try await download(manager, remote)
        #expect(!missing.succeeded)

        let kept = try #require(manager.cache.installed("digits"))
        #expect(kept.path == installedPath && kept.descriptor.version == 1)
        #expect(manager.cache.installedFileIsIntact(kept))
        let options = CustomImageLabelerOptions(remoteModel: remote)
        options.modelManager = manager
        let got = try ImageLabeler.imageLabeler(options: options).results(in: VisionImage(contentsOfFile: Self.image))
        #expect(got.map(\.text) == (try Self.localLabels()).map(\.text))
        // No partial download is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: dirs.cache.appendingPathComponent("digits").path
        )
        .filter { $0.hasPrefix(".partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func deletingABundleRemovesItsDirectory() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        try ModelPublisher.publish(modelAt: Self.digits.path, name: "digits", version: 1, to: dirs.server)
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let remote = CustomRemoteModel(name: "digits")
        _ = try await download(manager, remote)
        let path = try #require(manager.cache.installed("digits")?.path)
        let error = await withCheckedContinuation { c in
            manager.deleteDownloadedModel(remote) { c.resume(returning: $0 as NSError?) }
        }
        #expect(error == nil)
        #expect(!manager.isModelDownloaded(remote))
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path))
    }

    /// An AutoML detection bundle (tflite_metadata.json, no manifest) published and
    /// downloaded detects as the local bundle does, through ML Kit's custom detector.
    @Test func remoteDetectionBundleDetectsAsTheLocalOne() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        let shapes = MLKitFixtures.root.appendingPathComponent("Fixtures/bundles/shapes")
        try ModelPublisher.publish(modelAt: shapes.path, name: "shapes", version: 1, to: dirs.server)
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let remote = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "shapes"))
        let (outcome, _) = try await download(manager, remote)
        #expect(outcome.succeeded, "\(String(describing: outcome.error))")

        let image = try VisionImage(
            contentsOfFile: MLKitFixtures.root.appendingPathComponent("Fixtures/images/shapes/scene_5.png").path)
        func detect(_ options: CustomObjectDetectorOptions) throws -> [Object] {
            options.shouldEnableClassification = true
            options.shouldEnableMultipleObjects = true
            return try ObjectDetector.objectDetector(options: options).results(in: image)
        }
        let remoteOptions = CustomObjectDetectorOptions(remoteModel: remote)
        remoteOptions.modelManager = manager
        let got = try detect(remoteOptions)
        let want = try detect(CustomObjectDetectorOptions(localModel: LocalModel(path: shapes.path)))
        #expect(!got.isEmpty)
        #expect(got.map(\.frame) == want.map(\.frame))
        #expect(got.map { $0.labels.map(\.text) } == want.map { $0.labels.map(\.text) })
    }
}
