import Foundation
import MLKit

extension Subcommand {
    /// `tflite detect IMAGE [--model DIR] [--threshold T] [--json] [--annotate OUT.png]`.
    public static let detect = Subcommand(
        name: "detect",
        summary: "Find objects in a PNG image with an AutoML Vision Edge object-detection bundle",
        discussion: """
        DIR holds tflite_metadata.json, dict.txt and the model (default: the demo bundle
        Fixtures/bundles/shapes, found from the current directory). Objects scoring at least
        the threshold (default 0.5) are printed with their box as [top, left, bottom, right]
        in image pixels. With --json, prints {"objects": [{"box", "label", "index",
        "confidence"}]}. --annotate writes a copy of the image with the boxes drawn.
        """,
        arguments: ArgumentSpec(
            positionals: [.init("IMAGE", help: "A PNG image")],
            options: [
                .init("model", valueName: "DIR", help: "The bundle directory (or its model file)"),
                .init("threshold", valueName: "T", help: "Minimum score in 0...1 (default 0.5)"),
                .init("json", help: "Print JSON"),
                .init("annotate", valueName: "OUT.png", help: "Write the image with boxes drawn"),
            ]
        )
    ) { args, console in
        guard let imagePath = args.positional("IMAGE") else { throw UsageError.missingArgument("IMAGE") }
        let threshold = try args.floatValue("threshold", in: 0 ... 1) ?? 0.5
        let bundle = try VisionCommandSupport.locate(args.value("model"), default: "Fixtures/bundles/shapes", what: "demo bundle", option: "--model")
        let image = try VisionCommandSupport.loadImage(imagePath)
        let options = ObjectDetectorOptions(localModel: LocalModel(path: bundle))
        options.scoreThreshold = threshold
        let detector = ObjectDetector.objectDetector(options: options)
        for warning in try detector.loadWarnings() { console.err("warning: \(warning)\n") }
        let objects = try detector.results(in: image)
        if args.flag("json") {
            let items: [JSONValue] = objects.map { o in
                let l = o.labels.first
                return .object(["box": VisionCommandSupport.box(o.frame), "label": .string(l?.text ?? ""),
                                "index": .int(l?.index ?? -1), "confidence": .float(l?.confidence ?? 0)])
            }
            console.out(JSONValue.object(["objects": .array(items)]).serialized())
        } else if objects.isEmpty {
            console.out("no object at or above the threshold\n")
        } else {
            console.out(objects.map { o in
                let l = o.labels.first
                return String(format: "%.4f  %3d  ", Double(l?.confidence ?? 0), l?.index ?? -1) + (l?.text ?? "") + "  " + VisionCommandSupport.boxText(o.frame)
            }.joined(separator: "\n") + "\n")
        }
        let annotations = objects.map { o in
            ImageAnnotation(frame: o.frame, caption: o.labels.first.map { $0.text + String(format: " %.2f", Double($0.confidence)) } ?? "")
        }
        try VisionCommandSupport.writeAnnotated(image, annotations, to: args.value("annotate"), console: console)
        return ExitCode.success
    }
}
