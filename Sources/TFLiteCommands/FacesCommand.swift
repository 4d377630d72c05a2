import ArgumentParser
import Foundation
import MLKit

/// `tflite faces [IMAGE] [--json] [--annotate OUT.png]`.
struct FacesCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Find faces in a PNG image with MediaPipe's short-range face detector",
        discussion: """
            IMAGE defaults to Fixtures/images/astronaut.png and the model to \
            Fixtures/models/face_detection_short_range.tflite, both found from the current \
            directory. Faces are printed with their box as [top, left, bottom, right] in image \
            pixels. With --json, prints {"faces": [{"box", "confidence"}]}. --annotate writes a \
            copy of the image with the boxes drawn.
            """
    )

    @Argument(help: ArgumentHelp("A PNG image", valueName: "image"), completion: .file(extensions: ["png"]))
    var imageFile: String?
    @Option(
        help: ArgumentHelp("face_detection_short_range.tflite", valueName: "file"),
        completion: .file(extensions: ["tflite"]))
    var model: String?
    @Flag(help: "Print JSON")
    var json = false
    @Option(
        help: ArgumentHelp("Write the image with boxes drawn", valueName: "out.png"),
        completion: .file(extensions: ["png"]))
    var annotate: String?

    func run(console: Console) async throws -> Int32 {
        let imagePath = try VisionCommandSupport.locate(
            imageFile, default: "Fixtures/images/astronaut.png", what: "demo image", option: "IMAGE")
        let modelPath = try VisionCommandSupport.locate(
            model, default: "Fixtures/models/face_detection_short_range.tflite", what: "face model", option: "--model")
        let image = try VisionCommandSupport.loadImage(imagePath)
        let faces = try FaceDetector.faceDetector(options: FaceDetectorOptions(modelPath: modelPath)).results(in: image)
        if json {
            let items: [JSONValue] = faces.map {
                .object(["box": VisionCommandSupport.box($0.frame), "confidence": .float($0.confidence)])
            }
            console.out(JSONValue.object(["faces": .array(items)]).serialized())
        } else if faces.isEmpty {
            console.out("no face found\n")
        } else {
            console.out(
                faces.map { String(format: "%.4f  ", Double($0.confidence)) + VisionCommandSupport.boxText($0.frame) }
                    .joined(separator: "\n") + "\n")
        }
        let annotations = faces.map {
            ImageAnnotation(frame: $0.frame, caption: String(format: "FACE %.2f", Double($0.confidence)))
        }
        try VisionCommandSupport.writeAnnotated(image, annotations, to: annotate, console: console)
        return ExitCode.success
    }
}
