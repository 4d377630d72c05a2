import Foundation
@testable import MLKit
import Testing

/// Completion handlers that capture and change local state compile in Swift 6 mode (this
/// target's mode) and run when Completion.swift says: before the call returns when the
/// answer needs no download or model read, else later on the routed queue.
@Suite struct CallbackTimingTests {
    /// The guides' remote-or-local code reads `modelPath` right after the call.
    @Test func latestModelFilePathIsKnownBeforeTheCallReturns() async throws {
        let dirs = try ServerDirectories()
        defer { dirs.remove() }
        try dirs.publish(ModelManagerTests.v1, name: "sync-path", version: 1)
        let manager = ModelManager.modelManager(source: dirs.server, cacheDirectory: dirs.cache)
        let model = CustomRemoteModel(name: "sync-path")

        var modelPath: String?
        var failure: NSError?
        manager.getLatestModelFilePath(model) { path, error in
            modelPath = path
            failure = error as NSError?
        }
        #expect(modelPath == nil)
        #expect(failure?.code == MachineLearningErrorCode.notFound.rawValue)

        let (outcome, _) = try await download(manager, model)
        #expect(outcome.succeeded)
        manager.getLatestModelFilePath(model) { path, error in
            modelPath = path
            failure = error as NSError?
        }
        let path = try #require(modelPath)
        #expect(failure == nil)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// Once the model has been read, index look-ups answer before returning; before, they
    /// answer later on the interpreter's queue.
    @Test func indexLookUpsAnswerAtOnceOnceTheModelIsRead() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(
            localModel: CustomLocalModel(modelPath: MLKitFixtures.model("mobilenet_float")))
        let queue = DispatchQueue(label: "test.callbacks")
        interpreter.completionQueue = queue
        let first: (NSNumber?, NSError?) = await withCheckedContinuation { c in
            interpreter.inputIndex(opName: "serving_default_image:0") { index, error in
                dispatchPrecondition(condition: .onQueue(queue))
                c.resume(returning: (index, error as NSError?))
            }
        }
        #expect(first.0 == 0 && first.1 == nil)

        var index: NSNumber?
        var error: NSError?
        interpreter.outputIndex(opName: "PartitionedCall:0") { i, e in
            index = i; error = e as NSError?
        }
        #expect(index == 0 && error == nil)
        interpreter.inputIndex(opName: "nope") { i, e in
            index = i; error = e as NSError?
        }
        #expect(index == nil)
        #expect(error?.code == MachineLearningErrorCode.invalidArgument.rawValue)
    }

    /// Without a queue set, a call made off the main thread calls back on the object's
    /// private serial queue (a call on the main thread would get the main queue).
    @Test func offMainCallsBackOnAPrivateQueue() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(
            localModel: CustomLocalModel(modelPath: MLKitFixtures.model("mobilenet_float")))
        #expect(interpreter.completionQueue == nil)
        let (onMain, ran): (Bool, Bool) = try await withCheckedThrowingContinuation { c in
            do {
                try interpreter.run(
                    inputs: ModelInterpreterTests.floatInputs(), options: ModelInterpreterTests.floatOptions()
                ) { outputs, _ in
                    c.resume(returning: (Thread.isMainThread, outputs != nil))
                }
            } catch {
                c.resume(throwing: error)
            }
        }
        #expect(ran)
        #expect(!onMain)
        #expect(CompletionRoute.queue(nil, fallback: DispatchQueue(label: "x")) !== DispatchQueue.main)
    }
}
