import Foundation
import MLKit
import TensorFlowLite

// Misuse gives the original API's error case.

extension GuideViewController {
    func runErrorFlows() {
        let modelPath = path("Fixtures/models/mobilenet_float.tflite")
        do {
            let interpreter = try Interpreter(modelPath: modelPath)
            try interpreter.allocateTensors()
            expect(InterpreterError.invalidTensorIndex(index: 1, maxIndex: 0)) { _ = try interpreter.input(at: 1) }
            expect(InterpreterError.invalidTensorDataCount(provided: 4, required: 12288)) {
                try interpreter.copy(Data(count: 4), toInputAt: 0)
            }
            expect(SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: "train")) {
                _ = try interpreter.signatureRunner(with: "train")
            }
            let runner = try interpreter.signatureRunner(with: "serving_default")
            expect(SignatureRunnerError.failedToResizeInputTensor(inputName: "pixels")) {
                try runner.resizeInput(named: "pixels", toShape: [1])
            }
        } catch {
            check(false, "interpreter set-up: \(error)")
        }

        // A remote model that was never downloaded.
        let labeler = ImageLabeler.imageLabeler(
            options: CustomImageLabelerOptions(remoteModel: CustomRemoteModel(name: "never-published")))
        guard let image = digitImage else { return next() }
        labeler.process(image) { labels, error in
            self.check(
                labels == nil && (error as? VisionError) == .modelNotDownloaded(name: "never-published"),
                "labeling with a model not downloaded: \(String(describing: error))")

            // Declared type other than the model's: invalidArgument from run.
            let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: modelPath))
            let ioOptions = ModelInputOutputOptions()
            let inputs = ModelInputs()
            do {
                try ioOptions.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 32, 32, 3])
                try ioOptions.setOutputFormat(index: 0, type: .float32, dimensions: [1, 10])
                try inputs.addInput(Data(count: 32 * 32 * 3))
            } catch {
                self.check(false, "options: \(error)")
            }
            interpreter.run(inputs: inputs, options: ioOptions) { outputs, error in
                let code = (error as NSError?)?.code
                self.check(
                    outputs == nil && code == MachineLearningErrorCode.invalidArgument.rawValue,
                    "wrong declared type: \(String(describing: error))")
                self.next()
            }
        }
    }

    private func expect<E: Error & Equatable>(_ expected: E, _ body: () throws -> Void) {
        do {
            try body()
            check(false, "expected \(expected)")
        } catch {
            check((error as? E) == expected, "expected \(expected), got \(error)")
        }
    }

    /// A newer version whose file is damaged on the server fails to download; the
    /// installed version stays and runs. Uses a model server directory of its own.
    func runFailedDownloadFlow() {
        let run = FailedDownloadRun()
        let manager = ModelManager.modelManager(source: run.server, cacheDirectory: run.cache)
        let remoteModel = CustomRemoteModel(name: "classifier")
        do {
            try ModelPublisher.publish(
                modelAt: path("Fixtures/models/mobilenet_float.tflite"), name: "classifier", version: 1, to: run.server)
        } catch {
            check(false, "publish: \(error)")
            run.cleanUp()
            return next()
        }
        flowObservers.append(
            NotificationCenter.default.addObserver(
                forName: .firebaseMLModelDownloadDidSucceed, object: manager, queue: .main
            ) { _ in
                MainActor.assumeIsolated {
                    guard run.step == 0 else { return }
                    run.step = 1
                    manager.getLatestModelFilePath(remoteModel) { path, _ in run.installedPath = path }
                    do {
                        // Version 2, then its file damaged on the server.
                        let v2 = try ModelPublisher.publish(
                            modelAt: self.path("Fixtures/models/float16_weights.tflite"), name: "classifier",
                            version: 2, to: run.server)
                        try Data(count: v2.size).write(to: run.server.appendingPathComponent("classifier/\(v2.file)"))
                    } catch {
                        self.check(false, "publish v2: \(error)")
                    }
                    _ = manager.download(remoteModel, conditions: ModelDownloadConditions())
                }
            })
        flowObservers.append(
            NotificationCenter.default.addObserver(
                forName: .firebaseMLModelDownloadDidFail, object: manager, queue: .main
            ) { notification in
                let error = notification.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? NSError
                MainActor.assumeIsolated {
                    self.check(
                        run.step == 1 && error?.code == MachineLearningErrorCode.dataLoss.rawValue,
                        "damaged download fails: \(String(describing: error))")
                    var pathAfter: String?
                    manager.getLatestModelFilePath(remoteModel) { path, _ in pathAfter = path }
                    self.check(
                        run.installedPath != nil && pathAfter == run.installedPath
                            && manager.isModelDownloaded(remoteModel),
                        "the good model stays installed")
                    self.removeFlowObservers()
                    run.cleanUp()
                    self.next()
                }
            })
        _ = manager.download(remoteModel, conditions: ModelDownloadConditions())
    }
}

/// The state of ``GuideViewController/runFailedDownloadFlow()``: its own server and cache
/// directories, and how far it got.
@MainActor
final class FailedDownloadRun {
    let server = FileManager.default.temporaryDirectory.appendingPathComponent("guide-server-\(UUID().uuidString)")
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("guide-cache-\(UUID().uuidString)")
    var step = 0
    var installedPath: String?

    func cleanUp() {
        try? FileManager.default.removeItem(at: server)
        try? FileManager.default.removeItem(at: cache)
    }
}
