import Foundation
import MLKit

/// Plays the part of an app's view controller: main-actor code that starts model
/// downloads when it loads, then runs each guide's flow in turn, every flow calling the
/// next from its completion handler.
@MainActor
final class GuideViewController {
    let repository: String
    var failures: [String] = []
    var passed = 0
    var isFinished = false
    var currentStep = "start"
    var interpreterDetections: [String] = []
    var digitLabels: [String] = []
    /// Observers a flow registered; removed when it moves on.
    var flowObservers: [NSObjectProtocol] = []

    func removeFlowObservers() {
        for observer in flowObservers { NotificationCenter.default.removeObserver(observer) }
        flowObservers = []
    }
    private var steps: [(name: String, run: () -> Void)] = []
    private var downloadsLeft: Set<String> = ["classifier", "digits", "shapes"]
    private var observers: [NSObjectProtocol] = []

    init(repository: String) {
        self.repository = repository
    }

    func path(_ relative: String) -> String { repository + "/" + relative }

    func check(_ condition: Bool, _ what: String) {
        if condition { passed += 1 } else { failures.append("\(currentStep): \(what)") }
    }

    /// Starts the downloads of the remote models the flows use (as the guides do at
    /// start-up) and runs the flows once all of them have arrived.
    func viewDidLoad() {
        steps = [
            ("custom model, local and remote, ModelInterpreter", runCustomModelFlow),
            ("custom model index look-ups", runIndexLookUps),
            ("AutoML object detection through the TensorFlowLite Interpreter", runInterpreterDetectionFlow),
            ("AutoML labeling, ML Kit, local bundle", runLocalLabelingFlow),
            ("AutoML labeling, ML Kit, remote bundle", runRemoteLabelingFlow),
            ("AutoML labeling, legacy Firebase API", runLegacyLabelingFlow),
            ("ML Kit custom object detection", runCustomObjectDetectionFlow),
            ("misuse errors", runErrorFlows),
            ("a failed download keeps the model", runFailedDownloadFlow),
        ]
        let conditions = ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true)
        observers.append(
            NotificationCenter.default.addObserver(
                forName: .firebaseMLModelDownloadDidSucceed, object: nil, queue: .main
            ) { [weak self] notification in
                guard let userInfo = notification.userInfo,
                    let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel
                else { return }
                MainActor.assumeIsolated { self?.downloadFinished(model.name) }
            })
        observers.append(
            NotificationCenter.default.addObserver(forName: .firebaseMLModelDownloadDidFail, object: nil, queue: .main)
            { [weak self] notification in
                let model = notification.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel
                let error = notification.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? NSError
                MainActor.assumeIsolated {
                    guard let self, let name = model?.name, self.downloadsLeft.contains(name) else { return }
                    self.check(false, "download of \(name) failed: \(String(describing: error))")
                    self.finish()
                }
            })
        for name in downloadsLeft.sorted() {
            _ = ModelManager.modelManager().download(CustomRemoteModel(name: name), conditions: conditions)
        }
    }

    private func downloadFinished(_ name: String) {
        guard downloadsLeft.remove(name) != nil, downloadsLeft.isEmpty else { return }
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
        next()
    }

    /// Runs the next flow; each flow calls this from its last completion handler.
    func next() {
        guard !steps.isEmpty else { return finish() }
        let step = steps.removeFirst()
        currentStep = step.name
        print("== \(step.name)")
        step.run()
    }

    func finish() { isFinished = true }
}
