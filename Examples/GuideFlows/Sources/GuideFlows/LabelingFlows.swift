import Foundation
import MLKit

// Guide: "Label images with an AutoML-trained model" (ML Kit), local and remote bundle.

extension GuideViewController {
    var digitImage: VisionImage? {
        let image = try? VisionImage(contentsOfFile: path("Fixtures/images/digits/2_2.png"))
        image?.orientation = .up
        return image
    }

    func runLocalLabelingFlow() {
        guard let manifestPath = Optional(path("Fixtures/bundles/digits/manifest.json")),
            let localModel = LocalModel(manifestPath: manifestPath)
        else {
            check(false, "the bundle's manifest loads")
            return next()
        }
        let options = CustomImageLabelerOptions(localModel: localModel)
        options.confidenceThreshold = NSNumber(value: 0.0)
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        guard let image = digitImage else { return next() }
        imageLabeler.process(image) { labels, error in
            self.check(Thread.isMainThread, "the completion runs on the main thread")
            guard error == nil, let labels = labels else {
                self.check(false, "labeling failed: \(String(describing: error))")
                return self.next()
            }
            self.check(labels.first?.text == "2", "the digit 2 is the top label, got \(labels.first?.text ?? "none")")
            self.check(
                labels.allSatisfy { (0 ... 1).contains($0.confidence) && $0.index >= 0 }, "confidences and indexes")
            self.digitLabels = labels.map(\.text)
            // The synchronous call gives the same labels.
            let again = try? imageLabeler.results(in: image)
            self.check(again?.map(\.text) == self.digitLabels, "results(in:) agrees")
            self.next()
        }
    }

    func runRemoteLabelingFlow() {
        let remoteModel = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: "digits"))
        let downloadConditions = ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true)
        flowObservers.append(
            NotificationCenter.default.addObserver(forName: .mlkitModelDownloadDidSucceed, object: nil, queue: .main) {
                notification in
                guard let userInfo = notification.userInfo,
                    let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                    model == remoteModel
                else { return }
                MainActor.assumeIsolated {
                    self.removeFlowObservers()
                    self.labelWithRemoteModel(remoteModel)
                }
            })
        let downloadProgress = ModelManager.modelManager().download(remoteModel, conditions: downloadConditions)
        check(downloadProgress.totalUnitCount != 0, "download progress")
    }

    private func labelWithRemoteModel(_ remoteModel: CustomRemoteModel) {
        let options: CustomImageLabelerOptions
        if ModelManager.modelManager().isModelDownloaded(remoteModel) {
            options = CustomImageLabelerOptions(remoteModel: remoteModel)
        } else {
            check(false, "the remote bundle is downloaded")
            return next()
        }
        options.confidenceThreshold = NSNumber(value: 0.0)
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        guard let image = digitImage else { return next() }
        imageLabeler.process(image) { labels, error in
            self.check(error == nil, "remote labeling: \(String(describing: error))")
            self.check(labels?.map(\.text) == self.digitLabels, "remote bundle labels as the local one")
            self.next()
        }
    }
}
