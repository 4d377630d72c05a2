import Foundation
@testable import MLKit
import Testing

/// What a download notification said.
struct DownloadOutcome {
    var succeeded: Bool
    var remoteModel: RemoteModel?
    var error: NSError?
}

final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [DownloadOutcome] = []
    func add(_ outcome: DownloadOutcome) { lock.lock(); outcomes.append(outcome); lock.unlock() }
    var all: [DownloadOutcome] { lock.lock(); defer { lock.unlock() }; return outcomes }
}

/// Starts `manager.download(model)` and waits (at most `timeout` seconds) for its
/// notification, read the way apps read it: `userInfo` by the keys' raw values.
func download(
    _ manager: ModelManager, _ model: RemoteModel, timeout: Double = 30,
    whileRunning: (@Sendable (Progress) async -> Void)? = nil
) async throws -> (DownloadOutcome, Progress) {
    let box = OutcomeBox()
    let center = NotificationCenter.default
    let success = center.addObserver(forName: .firebaseMLModelDownloadDidSucceed, object: manager, queue: nil) { note in
        box.add(
            DownloadOutcome(
                succeeded: true,
                remoteModel: note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel))
    }
    let failure = center.addObserver(forName: .firebaseMLModelDownloadDidFail, object: manager, queue: nil) { note in
        box.add(
            DownloadOutcome(
                succeeded: false,
                remoteModel: note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                error: note.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? NSError))
    }
    defer {
        center.removeObserver(success)
        center.removeObserver(failure)
    }
    let progress = manager.download(model, conditions: ModelDownloadConditions())
    if let whileRunning { await whileRunning(progress) }
    let deadline = Date().addingTimeInterval(timeout)
    while box.all.isEmpty, Date() < deadline {
        try await Task.sleep(nanoseconds: 10_000_000)
    }
    let outcomes = box.all
    #expect(outcomes.count == 1, "one notification per download, got \(outcomes.count)")
    let outcome = try #require(outcomes.first, "no download notification within \(timeout) s")
    #expect(outcome.remoteModel === model, "the notification carries the model passed to download")
    return (outcome, progress)
}

/// Waits until `condition` holds, at most `timeout` seconds.
func waitUntil(timeout: Double = 20, _ condition: @Sendable () -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
    return true
}

/// A model server directory with published versions, and a cache directory.
struct ServerDirectories {
    let server: URL
    let cache: URL

    init() throws {
        server = try MLKitFixtures.temporaryDirectory("mlkit-server")
        cache = try MLKitFixtures.temporaryDirectory("mlkit-cache")
    }

    func remove() {
        try? FileManager.default.removeItem(at: server)
        try? FileManager.default.removeItem(at: cache)
    }

    @discardableResult
    func publish(_ fixture: String, name: String, version: Int) throws -> ModelDescriptor {
        try ModelPublisher.publish(modelAt: MLKitFixtures.model(fixture), name: name, version: version, to: server)
    }

    /// The bytes at `path` under the server directory.
    func file(_ path: String) throws -> Data {
        try Data(contentsOf: server.appendingPathComponent(path))
    }
}

/// Runs the remote `model` through `ModelInterpreter` on the sine image and returns its
/// 10 scores, or the error.
func remoteScores(_ model: CustomRemoteModel, _ manager: ModelManager) async -> Result<[Float], NSError> {
    do {
        let interpreter = ModelInterpreter.modelInterpreter(remoteModel: model, modelManager: manager)
        let outputs = try await interpreter.run(
            inputs: try ModelInterpreterTests.floatInputs(), options: try ModelInterpreterTests.floatOptions())
        let scores = (try outputs.output(index: 0) as? [[NSNumber]])?.first ?? []
        return .success(scores.map(\.floatValue))
    } catch {
        return .failure(error as NSError)
    }
}

/// The scores of the fixture `name` on the sine image, through the TensorFlowLite `Interpreter`.
func fixtureScores(_ name: String) throws -> [Float] {
    let data = MLKitFixtures.sineImage().withUnsafeBufferPointer { Data(buffer: $0) }
    return MLKitFixtures.floats(try MLKitFixtures.interpreterOutput(path: MLKitFixtures.model(name), input: data))
}
