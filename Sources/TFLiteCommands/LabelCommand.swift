import Foundation
import MLKit

extension Subcommand {
    /// `tflite label IMAGE [--model MANIFEST|DIR] [--threshold T] [--max N] [--json]`.
    public static let label = Subcommand(
        name: "label",
        summary: "Label a PNG image with an AutoML Vision Edge image-labeling bundle",
        discussion: """
        MODEL is a manifest.json or a directory holding one (default: the demo bundle
        Fixtures/bundles/digits, found from the current directory). Labels at or above the
        threshold (default 0) are printed most confident first, at most --max (default 10).
        With --json, prints {"labels": [{"text", "index", "confidence"}]}.
        """,
        arguments: ArgumentSpec(
            positionals: [.init("IMAGE", help: "A PNG image")],
            options: [
                .init("model", valueName: "MANIFEST|DIR", help: "The bundle's manifest.json or its directory"),
                .init("threshold", valueName: "T", help: "Minimum confidence in 0...1 (default 0)"),
                .init("max", valueName: "N", help: "At most N labels (default 10)"),
                .init("json", help: "Print JSON"),
            ]
        )
    ) { args, console in
        guard let imagePath = args.positional("IMAGE") else { throw UsageError.missingArgument("IMAGE") }
        let threshold = try args.floatValue("threshold", in: 0 ... 1)
        let maxCount = try args.intValue("max", in: 1 ... 100_000) ?? 10
        var manifest = try VisionCommandSupport.locate(args.value("model"), default: "Fixtures/bundles/digits", what: "demo bundle", option: "--model")
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
        if args.flag("json") {
            let items: [JSONValue] = labels.map {
                .object(["text": .string($0.text), "index": .int($0.index), "confidence": .float($0.confidence)])
            }
            console.out(JSONValue.object(["labels": .array(items)]).serialized())
        } else if labels.isEmpty {
            console.out("no label at or above the threshold\n")
        } else {
            console.out(labels.map { String(format: "%.4f  %3d  ", Double($0.confidence), $0.index) + $0.text }.joined(separator: "\n") + "\n")
        }
        return ExitCode.success
    }
}
