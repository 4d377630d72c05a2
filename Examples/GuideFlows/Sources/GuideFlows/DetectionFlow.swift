import Foundation
import MLKit

// Guide: ML Kit "Detect, track and classify objects with a custom classification model".

extension GuideViewController {
    func runCustomObjectDetectionFlow() {
        let localModel = LocalModel(path: path("Fixtures/bundles/shapes"))
        let options = CustomObjectDetectorOptions(localModel: localModel)
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        options.classificationConfidenceThreshold = NSNumber(value: 0.5)
        options.maxPerObjectLabelCount = 3
        let objectDetector = ObjectDetector.objectDetector(options: options)
        guard let image = try? VisionImage(contentsOfFile: path("Fixtures/images/shapes/scene_5.png")) else {
            check(false, "image loads")
            return next()
        }
        objectDetector.process(image) { objects, error in
            self.check(Thread.isMainThread, "the completion runs on the main thread")
            guard error == nil, let objects = objects, !objects.isEmpty else {
                self.check(false, "detection: \(String(describing: error))")
                return self.next()
            }
            for object in objects {
                let frame = object.frame
                self.check(
                    frame.width > 0 && frame.height > 0 && frame.maxX <= 320 && frame.maxY <= 320, "frame \(frame)")
                self.check(object.trackingID == nil, "no tracking ID in single-image mode")
                self.check(
                    object.labels.allSatisfy { $0.confidence >= 0.5 && !$0.text.isEmpty }, "labels above the threshold")
            }
            let texts = objects.compactMap { $0.labels.first?.text }.sorted()
            self.check(
                texts == self.interpreterDetections,
                "ML Kit's objects \(texts) are the interpreter's \(self.interpreterDetections)")
            self.next()
        }
    }
}
