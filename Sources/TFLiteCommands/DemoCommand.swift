import ArgumentParser
import Foundation
import MLKit

/// `tflite demo [--output-dir DIR]`: the README's main job.
struct DemoCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Label the bundled digits, detect the bundled shapes, find the astronaut's face, segment her",
        discussion: """
            Runs the three vision demos on the files bundled in Fixtures/ (run it from the \
            repository root): the digit labeler bundle on Fixtures/images/digits/*.png, the \
            shapes detector bundle on Fixtures/images/shapes/*.png, and MediaPipe's short-range \
            face detector on Fixtures/images/astronaut.png, and MediaPipe's selfie segmentation \
            (with its custom Convolution2DTransposeBias operator) on the same photo. Prints every \
            result and writes annotated PNGs to DIR (default: demo-output). Exits 1 if any part \
            fails.
            """
    )

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("Where annotated images go (default: demo-output)", valueName: "dir"),
        completion: .directory)
    var outputDir: String?

    func run(console: Console) async throws -> Int32 {
        let outputDirectory = outputDir ?? "demo-output"
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw ToolError("cannot create \(outputDirectory): \(error.localizedDescription)")
        }
        var failures = 0
        for (title, part) in [
            ("Digits (AutoML image labeling, Fixtures/bundles/digits)", Self.demoDigits),
            ("Shapes (AutoML object detection, Fixtures/bundles/shapes)", Self.demoShapes),
            ("Faces (MediaPipe short-range face detection)", Self.demoFaces),
            ("Person (MediaPipe selfie segmentation, a custom-operator model)", Self.demoSegmentation),
        ] {
            console.out("== \(title)\n")
            do {
                try part(outputDirectory, console)
            } catch {
                failures += 1
                console.err("error: \(error)\n")
            }
            console.out("\n")
        }
        return failures == 0 ? ExitCode.success : ExitCode.failure
    }

    static func pngFiles(in directory: String) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw ToolError(
                "\(directory) was not found relative to the current directory; run from the repository root")
        }
        return names.filter { $0.hasSuffix(".png") }.sorted().map { (directory as NSString).appendingPathComponent($0) }
    }

    static func demoDigits(_ outputDirectory: String, _ console: Console) throws {
        let model = AutoMLLocalModel(manifestPath: "Fixtures/bundles/digits/manifest.json")
        try model.validate()
        let options = CustomImageLabelerOptions(localModel: model)
        options.maxResultCount = 1
        let labeler = ImageLabeler.imageLabeler(options: options)
        var correct = 0, total = 0
        for path in try pngFiles(in: "Fixtures/images/digits") {
            let image = try VisionCommandSupport.loadImage(path)
            guard let top = try labeler.results(in: image).first else { continue }
            // File names are <index>_<true label>.png.
            let truth = (path as NSString).lastPathComponent.split(separator: "_").last.map { String($0.dropLast(4)) }
            total += 1
            if truth == top.text { correct += 1 }
            let verdict = truth == top.text ? "" : "  ✗ expected \(truth ?? "?")"
            console.out(
                "  \((path as NSString).lastPathComponent)  →  \(top.text) (\(String(format: "%.3f", Double(top.confidence))))\(verdict)\n"
            )
        }
        console.out("  \(correct) of \(total) labeled correctly\n")
    }

    static func demoShapes(_ outputDirectory: String, _ console: Console) throws {
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: "Fixtures/bundles/shapes"))
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        let detector = ObjectDetector.objectDetector(options: options)
        for path in try pngFiles(in: "Fixtures/images/shapes") {
            let image = try VisionCommandSupport.loadImage(path)
            let objects = try detector.results(in: image)
            let name = (path as NSString).lastPathComponent
            console.out("  \(name): \(objects.count) object(s)\n")
            for o in objects {
                let l = o.labels.first
                console.out(
                    "    \(l?.text ?? "?") " + String(format: "%.3f ", Double(l?.confidence ?? 0))
                        + VisionCommandSupport.boxText(o.frame) + "\n")
            }
            let annotations = objects.map { o in
                ImageAnnotation(
                    frame: o.frame,
                    caption: o.labels.first.map {
                        $0.text.uppercased() + String(format: " %.2f", Double($0.confidence))
                    } ?? "")
            }
            let out = (outputDirectory as NSString).appendingPathComponent("shapes-" + name)
            try image.annotated(annotations).writePNG(toFile: out)
            console.out("    annotated: \(out)\n")
        }
    }

    static func demoFaces(_ outputDirectory: String, _ console: Console) throws {
        let path = "Fixtures/images/astronaut.png"
        let image = try VisionCommandSupport.loadImage(path)
        let detector = FaceDetector.faceDetector(
            options: FaceDetectorOptions(modelPath: "Fixtures/models/face_detection_short_range.tflite"))
        let faces = try detector.results(in: image)
        console.out("  \(path): \(faces.count) face(s)\n")
        for f in faces {
            console.out(
                String(format: "    face %.3f ", Double(f.confidence)) + VisionCommandSupport.boxText(f.frame) + "\n")
        }
        let out = (outputDirectory as NSString).appendingPathComponent("astronaut-faces.png")
        try image.annotated(
            faces.map { ImageAnnotation(frame: $0.frame, caption: String(format: "FACE %.2f", Double($0.confidence))) }
        ).writePNG(toFile: out)
        console.out("    annotated: \(out)\n")
    }

    static func demoSegmentation(_ outputDirectory: String, _ console: Console) throws {
        let path = "Fixtures/images/astronaut.png"
        let image = try VisionCommandSupport.loadImage(path)
        let segmentation = try SelfieSegmentation(modelPath: "Fixtures/mediapipe/models/selfie_segmentation.tflite")
        let (blended, fraction) = try segmentation.blended(image)
        console.out(String(format: "  \(path): person in %.1f%% of the image\n", fraction * 100))
        let out = (outputDirectory as NSString).appendingPathComponent("astronaut-segmented.png")
        try blended.writePNG(toFile: out)
        console.out("    blended: \(out)\n")
    }
}
