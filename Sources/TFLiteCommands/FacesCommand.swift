import Foundation
import MLKit

extension Subcommand {
    /// `tflite faces [IMAGE] [--json] [--annotate OUT.png]`.
    public static let faces = Subcommand(
        name: "faces",
        summary: "Find faces in a PNG image with MediaPipe's short-range face detector",
        discussion: """
        IMAGE defaults to Fixtures/images/astronaut.png and the model to
        Fixtures/models/face_detection_short_range.tflite, both found from the current
        directory. Faces are printed with their box as [top, left, bottom, right] in image
        pixels. With --json, prints {"faces": [{"box", "confidence"}]}. --annotate writes a
        copy of the image with the boxes drawn.
        """,
        arguments: ArgumentSpec(
            positionals: [.init("IMAGE", help: "A PNG image", isOptional: true)],
            options: [
                .init("model", valueName: "FILE", help: "face_detection_short_range.tflite"),
                .init("json", help: "Print JSON"),
                .init("annotate", valueName: "OUT.png", help: "Write the image with boxes drawn"),
            ]
        )
    ) { args, console in
        let imagePath = try VisionCommandSupport.locate(args.positional("IMAGE"), default: "Fixtures/images/astronaut.png", what: "demo image", option: "IMAGE")
        let modelPath = try VisionCommandSupport.locate(args.value("model"), default: "Fixtures/models/face_detection_short_range.tflite", what: "face model", option: "--model")
        let image = try VisionCommandSupport.loadImage(imagePath)
        let faces = try FaceDetector.faceDetector(options: FaceDetectorOptions(modelPath: modelPath)).results(in: image)
        if args.flag("json") {
            let items: [JSONValue] = faces.map { .object(["box": VisionCommandSupport.box($0.frame), "confidence": .float($0.confidence)]) }
            console.out(JSONValue.object(["faces": .array(items)]).serialized())
        } else if faces.isEmpty {
            console.out("no face found\n")
        } else {
            console.out(faces.map { String(format: "%.4f  ", Double($0.confidence)) + VisionCommandSupport.boxText($0.frame) }.joined(separator: "\n") + "\n")
        }
        let annotations = faces.map { ImageAnnotation(frame: $0.frame, caption: String(format: "FACE %.2f", Double($0.confidence))) }
        try VisionCommandSupport.writeAnnotated(image, annotations, to: args.value("annotate"), console: console)
        return ExitCode.success
    }
}
