import ArgumentParser
import Foundation
import MLKit

/// `tflite detect IMAGE [--model DIR] [--threshold T] [--json] [--annotate OUT.png]`.
struct DetectCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find objects in a PNG image with an AutoML Vision Edge object-detection bundle",
        discussion: """
            DIR holds tflite_metadata.json, dict.txt and the model (default: the demo bundle \
            Fixtures/bundles/shapes, found from the current directory). Objects scoring at least \
            the threshold (default 0.5) are printed with their box as [top, left, bottom, right] \
            in image pixels. With --json, prints {"objects": [{"box", "label", "index", \
            "confidence"}]}. --annotate writes a copy of the image with the boxes drawn.
            """
    )

    @Argument(help: ArgumentHelp("A PNG image", valueName: "image"), completion: .file(extensions: ["png"]))
    var imagePath: String
    @Option(help: ArgumentHelp("The bundle directory (or its model file)", valueName: "dir"), completion: .file())
    var model: String?
    @Option(help: ArgumentHelp("Minimum score in 0...1 (default 0.5)", valueName: "t"), transform: value(in: 0 ... 1))
    var threshold: Float = 0.5
    @Flag(help: "Print JSON")
    var json = false
    @Option(
        help: ArgumentHelp("Write the image with boxes drawn", valueName: "out.png"),
        completion: .file(extensions: ["png"]))
    var annotate: String?

    func run(console: Console) async throws -> Int32 {
        let bundle = try VisionCommandSupport.locate(
            model, default: "Fixtures/bundles/shapes", what: "demo bundle", option: "--model")
        let image = try VisionCommandSupport.loadImage(imagePath)
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: bundle))
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        options.detectionScoreThreshold = threshold
        let detector = ObjectDetector.objectDetector(options: options)
        for warning in try detector.loadWarnings() { console.err("warning: \(warning)\n") }
        let objects = try detector.results(in: image)
        if json {
            let items: [JSONValue] = objects.map { o in
                let l = o.labels.first
                return .object([
                    "box": VisionCommandSupport.box(o.frame), "label": .string(l?.text ?? ""),
                    "index": .int(l?.index ?? -1), "confidence": .float(l?.confidence ?? 0),
                ])
            }
            console.out(JSONValue.object(["objects": .array(items)]).serialized())
        } else if objects.isEmpty {
            console.out("no object at or above the threshold\n")
        } else {
            console.out(
                objects.map { o in
                    let l = o.labels.first
                    return String(format: "%.4f  %3d  ", Double(l?.confidence ?? 0), l?.index ?? -1) + (l?.text ?? "")
                        + "  " + VisionCommandSupport.boxText(o.frame)
                }.joined(separator: "\n") + "\n")
        }
        let annotations = objects.map { o in
            ImageAnnotation(
                frame: o.frame,
                caption: o.labels.first.map { $0.text + String(format: " %.2f", Double($0.confidence)) } ?? "")
        }
        try VisionCommandSupport.writeAnnotated(image, annotations, to: annotate, console: console)
        return ExitCode.success
    }
}
