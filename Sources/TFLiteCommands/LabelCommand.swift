import ArgumentParser
import Foundation
import MLKit

/// `tflite label IMAGE [--model MANIFEST|DIR] [--threshold T] [--max N] [--json]`.
struct LabelCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Label a PNG image with an AutoML Vision Edge image-labeling bundle",
        discussion: """
            MODEL is a manifest.json or a directory holding one (default: the demo bundle \
            Fixtures/bundles/digits, found from the current directory). Labels at or above the \
            threshold (default 0) are printed most confident first, at most --max (default 10). \
            With --json, prints {"labels": [{"text", "index", "confidence"}]}.
            """
    )

    @Argument(help: ArgumentHelp("A PNG image", valueName: "image"), completion: .file(extensions: ["png"]))
    var imagePath: String
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp("The bundle's manifest.json or its directory", valueName: "manifest|dir"),
        completion: .file())
    var bundle: String?
    @Option(
        help: ArgumentHelp("Minimum confidence in 0...1 (default 0)", valueName: "t"), transform: value(in: 0 ... 1))
    var threshold: Float?
    @Option(
        name: .customLong("max"), help: ArgumentHelp("At most N labels (default 10)", valueName: "n"),
        transform: value(in: 1 ... 100_000))
    var maxCount = 10
    @Flag(help: "Print JSON")
    var json = false

    func run(console: Console) async throws -> Int32 {
        var manifest = try VisionCommandSupport.locate(
            bundle, default: "Fixtures/bundles/digits", what: "demo bundle", option: "--model")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: manifest, isDirectory: &isDirectory), isDirectory.boolValue {
            manifest = (manifest as NSString).appendingPathComponent("manifest.json")
        }
        let model = AutoMLLocalModel(manifestPath: manifest)
        try model.validate()
        let image = try VisionCommandSupport.loadImage(imagePath)
        let options = CustomImageLabelerOptions(localModel: model)
        options.confidenceThreshold = threshold.map { NSNumber(value: $0) }
        options.maxResultCount = maxCount
        let labels = try ImageLabeler.imageLabeler(options: options).results(in: image)
        if json {
            let items: [JSONValue] = labels.map {
                .object(["text": .string($0.text), "index": .int($0.index), "confidence": .float($0.confidence)])
            }
            console.out(JSONValue.object(["labels": .array(items)]).serialized())
        } else if labels.isEmpty {
            console.out("no label at or above the threshold\n")
        } else {
            console.out(
                labels.map { String(format: "%.4f  %3d  ", Double($0.confidence), $0.index) + $0.text }.joined(
                    separator: "\n") + "\n")
        }
        return ExitCode.success
    }
}
