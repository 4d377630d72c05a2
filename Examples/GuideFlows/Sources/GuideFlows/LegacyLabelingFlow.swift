import Firebase
import Foundation

// Guide: "Label images with an AutoML-trained model" (legacy Firebase ML Vision).

extension GuideViewController {
    func runLegacyLabelingFlow() {
        FirebaseApp.configure()
        let localModel = AutoMLLocalModel(manifestPath: path("Fixtures/bundles/digits/manifest.json"))
        let remoteModel = AutoMLRemoteModel(name: "digits")
        let options: VisionOnDeviceAutoMLImageLabelerOptions
        if ModelManager.modelManager().isModelDownloaded(remoteModel) {
            options = VisionOnDeviceAutoMLImageLabelerOptions(remoteModel: remoteModel)
        } else {
            options = VisionOnDeviceAutoMLImageLabelerOptions(localModel: localModel)
        }
        options.confidenceThreshold = 0
        let labeler = Vision.vision().onDeviceAutoMLImageLabeler(options: options)
        guard let image = try? VisionImage(contentsOfFile: path("Fixtures/images/digits/2_2.png")) else {
            check(false, "image loads")
            return next()
        }
        let metadata = VisionImageMetadata()
        metadata.orientation = .topLeft
        image.metadata = metadata
        labeler.process(image) { labels, error in
            guard error == nil, let labels = labels, !labels.isEmpty else {
                self.check(false, "legacy labeling: \(String(describing: error))")
                return self.next()
            }
            self.check(labels.map(\.text) == self.digitLabels, "legacy labels as ML Kit's")
            self.check(labels.allSatisfy { $0.confidence != nil && $0.entityID == nil }, "confidence set, no entity ID")
            self.next()
        }
    }
}
