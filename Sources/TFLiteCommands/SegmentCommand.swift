import ArgumentParser
import Foundation
import MLKit
import TensorFlowLite

/// `tflite segment IMAGE [--model FILE] [--output OUT.png] [--json]`.
struct SegmentCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment",
        abstract: "Segment the person in a PNG image with MediaPipe's selfie segmentation model",
        discussion: """
            Runs a selfie segmentation model (default: \
            Fixtures/mediapipe/models/selfie_segmentation.tflite, found from the current \
            directory; MediaPipe's custom Convolution2DTransposeBias is built in) on the image \
            stretched to the model's input, scales the person mask back to the image \
            (bilinear) and writes the image with the mask blended in as green to --output \
            (default: IMAGE with "-segmented.png"). Prints the share of pixels whose mask is \
            above 0.5; with --json, {"output", "person_fraction", "mask_size"}.
            """
    )

    @Argument(help: ArgumentHelp("A PNG image", valueName: "image"), completion: .file(extensions: ["png"]))
    var imageFile: String
    @Option(
        help: ArgumentHelp("selfie_segmentation.tflite or selfie_segmentation_landscape.tflite", valueName: "file"),
        completion: .file(extensions: ["tflite"]))
    var model: String?
    @Option(
        name: [.short, .long], help: ArgumentHelp("Where to write the blended image", valueName: "out.png"),
        completion: .file(extensions: ["png"]))
    var output: String?
    @Flag(help: "Print JSON")
    var json = false

    func run(console: Console) async throws -> Int32 {
        let modelPath = try VisionCommandSupport.locate(
            model, default: "Fixtures/mediapipe/models/selfie_segmentation.tflite",
            what: "segmentation model", option: "--model")
        let image = try VisionCommandSupport.loadImage(imageFile)
        let output =
            output ?? (imageFile.hasSuffix(".png") ? String(imageFile.dropLast(4)) : imageFile) + "-segmented.png"
        let segmentation = try SelfieSegmentation(modelPath: modelPath)
        let (blended, fraction) = try segmentation.blended(image)
        do {
            try blended.pngData().write(to: URL(fileURLWithPath: output))
        } catch {
            throw ToolError("cannot write \(output): \(error)")
        }
        if json {
            console.out(
                JSONValue.object([
                    "output": .string(output), "person_fraction": .float(Float(fraction)),
                    "mask_size": .array([.int(segmentation.height), .int(segmentation.width)]),
                ]).serialized())
        } else {
            console.out(String(format: "person: %.1f%% of the image\n", fraction * 100))
            console.err("segmented image written to \(output)\n")
        }
        return ExitCode.success
    }
}

/// A selfie segmentation model (`[1, h, w, 3]` float RGB in [0, 1] → `[1, h, w, 1]`
/// person probability) run on images of any size.
struct SelfieSegmentation {
    let interpreter: Interpreter
    let width: Int, height: Int

    init(modelPath: String) throws {
        do {
            interpreter = try Interpreter(modelPath: modelPath)
            try interpreter.allocateTensors()
        } catch {
            throw ToolError("model \(modelPath): \(error)")
        }
        let input = try interpreter.input(at: 0)
        let dims = input.shape.dimensions
        guard input.dataType == .float32, dims.count == 4, dims[0] == 1, dims[3] == 3,
            interpreter.outputTensorCount == 1,
            try interpreter.output(at: 0).shape.dimensions == [1, dims[1], dims[2], 1]
        else {
            throw ToolError(
                "model \(modelPath) is not a selfie segmentation model (float [1, h, w, 3] in, [1, h, w, 1] out)")
        }
        (height, width) = (dims[1], dims[2])
    }

    /// `image` with the person mask blended in, and the share of its pixels whose person
    /// probability is above 0.5.
    func blended(_ image: VisionImage) throws -> (image: VisionImage, personFraction: Double) {
        let width = image.displayedWidth, height = image.displayedHeight
        let pixels = image.rgbPixels()
        let mask = try mask(pixels, width: width, height: height)
        let fraction = Double(mask.filter { $0 > 0.5 }.count) / Double(max(mask.count, 1))
        let blended = try VisionImage(
            width: width, height: height, pixelFormat: .rgb8, pixels: Self.blend(pixels, mask: mask))
        return (blended, fraction)
    }

    /// The person probability of every pixel of a `width` x `height` RGB image.
    func mask(_ pixels: [UInt8], width imageWidth: Int, height imageHeight: Int) throws -> [Float] {
        let input = Self.resample(
            pixels.map { Float($0) / 255 }, channels: 3, from: (imageWidth, imageHeight), to: (width, height))
        try interpreter.copy(input.withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 0)
        try interpreter.invoke()
        let small = try [Float](interpreter.output(at: 0))
        return Self.resample(small, channels: 1, from: (width, height), to: (imageWidth, imageHeight)).map {
            min(max($0, 0), 1)
        }
    }

    /// Bilinear resampling with pixel centres aligned (`x_src = (x + 0.5)·W/w − 0.5`, clamped to the image).
    static func resample(_ values: [Float], channels: Int, from: (Int, Int), to: (Int, Int)) -> [Float] {
        let (sw, sh) = from, (dw, dh) = to
        var out = [Float](repeating: 0, count: dw * dh * channels)
        guard sw > 0, sh > 0 else { return out }
        func axis(_ d: Int, _ dst: Int, _ src: Int) -> (Int, Int, Float) {
            let s = min(max((Float(d) + 0.5) * Float(src) / Float(dst) - 0.5, 0), Float(src - 1))
            let i = Int(s)
            return (i, min(i + 1, src - 1), s - Float(i))
        }
        for y in 0 ..< dh {
            let (y0, y1, fy) = axis(y, dh, sh)
            for x in 0 ..< dw {
                let (x0, x1, fx) = axis(x, dw, sw)
                for c in 0 ..< channels {
                    func at(_ yy: Int, _ xx: Int) -> Float { values[(yy * sw + xx) * channels + c] }
                    let top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * fx
                    let bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * fx
                    out[(y * dw + x) * channels + c] = top + (bottom - top) * fy
                }
            }
        }
        return out
    }

    /// The image with green blended over the person, at 60% where the mask is 1.
    static func blend(_ pixels: [UInt8], mask: [Float]) -> [UInt8] {
        let green: [Float] = [40, 220, 90]
        var out = pixels
        for (p, m) in mask.enumerated() {
            let a = 0.6 * m
            for c in 0 ..< 3 {
                let v = Float(pixels[3 * p + c]) * (1 - a) + green[c] * a
                out[3 * p + c] = UInt8(min(max(v.rounded(), 0), 255))
            }
        }
        return out
    }
}
