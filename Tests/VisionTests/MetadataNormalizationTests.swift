import Foundation
import Testing
import TFLiteFormat
@testable import MLKit
@testable import TensorFlowLite

/// `Resources/mobilenet_float_metadata.tflite` (made by `scripts/fixtures/metadata_model.py`):
/// the float classifier carrying TFLite metadata that declares per-channel mean
/// (120, 110, 100) and std (60, 70, 80) for its input.
enum MetadataModel {
    static let path = VisionFixtures.resource("mobilenet_float_metadata.tflite")
    static let mean: [Float] = [120, 110, 100]
    static let std: [Float] = [60, 70, 80]

    static func bytes() throws -> [UInt8] { try VisionFixtures.bytes("mobilenet_float_metadata.tflite") }

    /// Where the TFLITE_METADATA buffer's bytes lie in the model file.
    static func metadataRange(_ bytes: [UInt8]) throws -> Range<Int> {
        let model = try Model(data: Data(bytes))
        let view = try #require(model.metadata.first { $0.name == "TFLITE_METADATA" }?.data)
        return view.offset ..< view.offset + view.count
    }

    /// File offset of the union type byte of the first process unit of output 0 (`input:
    /// false`) or input 0 (`input: true`), found with the format views.
    static func unitTypeOffset(_ bytes: [UInt8], input: Bool) throws -> Int {
        let range = try metadataRange(bytes)
        let inner: Int = try bytes.withUnsafeBytes { raw in
            let reader = FlatBufferReader(bytes: UnsafeRawBufferPointer(rebasing: raw[range]))
            let subgraph = try #require(try MetadataSchema.ModelMetadata(root: reader).subgraphMetadata?.element(0))
            let tensors = try #require(input ? try subgraph.inputTensorMetadata : try subgraph.outputTensorMetadata)
            let unit = try #require(try tensors.element(0).processUnits?.element(0))
            return unit.table.position + (try #require(unit.table.fieldOffset(0)))
        }
        return range.lowerBound + inner
    }

    /// Class scores from the Interpreter fed the stretch-resized image normalized by hand
    /// with `mean`/`std` (per channel, or one value for all).
    static func reference(_ image: VisionImage, modelPath: String, mean: [Float], std: [Float]) throws -> [Float] {
        let interpreter = try Interpreter(modelPath: modelPath)
        try interpreter.allocateTensors()
        let spec = try ImageInputSpec(interpreter.input(at: 0))
        let samples = ImagePreprocessor(fit: .stretch, normalization: .unitRange).resized(image.upright(), spec)
        let input = samples.enumerated().map { i, v in
            (v - mean[mean.count == 3 ? i % 3 : 0]) / std[std.count == 3 ? i % 3 : 0]
        }
        try interpreter.copy(input.withUnsafeBytes { Data($0) }, toInputAt: 0)
        try interpreter.invoke()
        return try [Float](interpreter.output(at: 0))
    }

    /// Every class's confidence from an ML Kit labeler on `modelPath`, in class order.
    static func labeled(_ image: VisionImage, modelPath: String, override: InputNormalization? = nil) throws -> [Float]
    {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: modelPath))
        options.inputNormalization = override
        let labels = try ImageLabeler.imageLabeler(options: options).results(in: image)
        var scores = [Float](repeating: -1, count: 10)
        for label in labels { scores[label.index] = label.confidence }
        return scores
    }
}

@Suite struct MetadataNormalizationTests {
    @Test func parsesTheGeneratedMetadata() throws {
        let model = try Model(contentsOfFile: MetadataModel.path)
        let metadata = try #require(try model.tfliteMetadata)
        #expect(metadata.name == "swift-tflite metadata test classifier")
        #expect(metadata.description == "A float MobileNet-style classifier of 32x32 RGB images into 10 classes.")
        #expect(metadata.version == "v1" && metadata.author == "swift-tflite" && metadata.license == "Apache-2.0")
        #expect(metadata.minParserVersion == "1.0.0" && metadata.associatedFiles.isEmpty)
        let subgraph = try #require(metadata.subgraphs.first)
        #expect(metadata.subgraphs.count == 1 && subgraph.name == "main" && subgraph.description == nil)

        let input = try #require(metadata.input(0))
        #expect(input.name == "image" && input.description == "RGB image, 32x32, normalized per channel")
        #expect(input.dimensionNames == ["batch", "height", "width", "channel"])
        #expect(input.processUnits == [.normalization(mean: MetadataModel.mean, std: MetadataModel.std)])
        // The script stores the normalized range of 0…255: (255 - mean) / std and -mean / std.
        let stats = try #require(input.stats)
        #expect(
            zip(stats.max, [2.25, 2.0714285, 1.9375] as [Float]).allSatisfy { abs($0 - $1) < 1e-6 }
                && stats.max.count == 3)
        #expect(stats.min == [-2, Float(-110.0 / 70.0), -1.25])

        let output = try #require(subgraph.outputs.first)
        #expect(subgraph.outputs.count == 1 && output.name == "probabilities")
        #expect(output.description == "Probability of each of the 10 classes")
        #expect(output.processUnits == [.scoreThresholding(globalThreshold: 0.05)])
        #expect(output.stats == ModelMetadata.Stats(max: [1], min: [0]))
        #expect(
            output.associatedFiles == [
                ModelMetadata.AssociatedFile(name: "labels.txt", description: "Ten class names", type: 2, locale: "en")
            ])

        #expect(
            InputNormalization(declaredBy: model)
                == InputNormalization(mean: MetadataModel.mean, std: MetadataModel.std))
        #expect(InputNormalization(declaredBy: model, input: 1) == nil)
        // The plain fixture has no TFLITE_METADATA entry.
        let plain = try Model(contentsOfFile: VisionFixtures.model("mobilenet_float"))
        #expect(try plain.tfliteMetadata == nil && InputNormalization(declaredBy: plain) == nil)
    }

    /// The labeler normalizes with the declared per-channel mean/std: its confidences are
    /// the Interpreter's on the same input normalized by hand — and differ from [0, 1]'s.
    @Test func labelerUsesDeclaredNormalization() throws {
        let image = try LabelerTests.testImage()
        let declared = try MetadataModel.reference(
            image, modelPath: MetadataModel.path, mean: MetadataModel.mean, std: MetadataModel.std)
        let unit = try MetadataModel.reference(image, modelPath: MetadataModel.path, mean: [0], std: [255])
        #expect(declared != unit)
        #expect(try MetadataModel.labeled(image, modelPath: MetadataModel.path) == declared)
        // The caller's option overrides the metadata.
        #expect(try MetadataModel.labeled(image, modelPath: MetadataModel.path, override: .unitRange) == unit)
    }

    @Test func resolutionOrder() throws {
        let declared = try #require(InputNormalization(mean: MetadataModel.mean, std: MetadataModel.std))
        let custom = try #require(InputNormalization(mean: [1], std: [2]))
        let withMetadata = try Model(contentsOfFile: MetadataModel.path)
        let without = try Model(contentsOfFile: VisionFixtures.model("mobilenet_float"))
        #expect(
            InputNormalization.resolved(override: custom, model: withMetadata, convention: .symmetricUnitRange)
                == custom)
        #expect(
            InputNormalization.resolved(override: nil, model: withMetadata, convention: .symmetricUnitRange) == declared
        )
        #expect(
            InputNormalization.resolved(override: nil, model: without, convention: .symmetricUnitRange)
                == .symmetricUnitRange)
        #expect(InputNormalization.resolved(override: nil, model: without, convention: nil) == .unitRange)
    }

    /// The face detector (BlazeFace has no metadata, so `[-1, 1]`) takes the override too.
    @Test func faceDetectorOverride() throws {
        let photo = try VisionImage(contentsOfFile: FaceTests.astronautPath)
        let options = FaceDetectorOptions(modelPath: VisionFixtures.model("face_detection_short_range"))
        options.minFaceSize = 0
        let byDefault = try FaceDetector.faceDetector(options: options).results(in: photo)
        options.inputNormalization = .symmetricUnitRange
        let explicit = try FaceDetector.faceDetector(options: options).results(in: photo)
        options.inputNormalization = .unitRange
        let other = try FaceDetector.faceDetector(options: options).results(in: photo)
        #expect(!byDefault.isEmpty && byDefault.map(\.confidence) == explicit.map(\.confidence))
        #expect(other.map(\.confidence) != byDefault.map(\.confidence))
    }

    /// Damaged metadata: the accessor throws a typed error, the model still loads and runs,
    /// and the labeler ignores the metadata as a whole, falling back to `[0, 1]`.
    @Test(arguments: ["identifier", "rootOffset", "truncated", "outputUnionType", "inputUnionType"])
    func damagedMetadataFallsBack(_ damage: String) throws {
        var bytes = try MetadataModel.bytes()
        let range = try MetadataModel.metadataRange(bytes)
        let expected: ModelMetadataError?
        switch damage {
        case "identifier":
            bytes[range.lowerBound + 4 ..< range.lowerBound + 8] = ArraySlice("M00X".utf8)
            expected = .wrongIdentifier(found: "M00X")
        case "rootOffset":
            bytes[range.lowerBound ..< range.lowerBound + 4] = [0xF0, 0xFF, 0xFF, 0x7F]
            expected = .malformed("")
        case "truncated":
            // Shrink the buffer's byte count: the metadata ends after 64 of its bytes.
            bytes[range.lowerBound - 4 ..< range.lowerBound] = [64, 0, 0, 0]
            expected = .malformed("")
        case "outputUnionType":
            // Output 0's ScoreThresholdingOptions retagged as NormalizationOptions: the
            // threshold's float bits are read as the offset of `mean`.
            let at = try MetadataModel.unitTypeOffset(bytes, input: false)
            #expect(bytes[at] == 3)
            bytes[at] = 1
            expected = .malformed("")
        default:
            // Input 0's NormalizationOptions retagged as ScoreThresholdingOptions: the table
            // still reads (as a threshold), so this is no error, but nothing is declared.
            let at = try MetadataModel.unitTypeOffset(bytes, input: true)
            #expect(bytes[at] == 1)
            bytes[at] = 3
            expected = nil
        }
        let model = try Model(data: Data(bytes))
        do {
            let metadata = try model.tfliteMetadata
            #expect(
                expected == nil && metadata?.input(0)?.normalization == nil,
                "\(damage) decoded: \(String(describing: metadata))")
        } catch {
            switch (error, expected) {
            case (.malformed, .malformed?): break
            default: #expect(error == expected)
            }
        }
        #expect(InputNormalization(declaredBy: model) == nil)

        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("model.tflite")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let image = try LabelerTests.testImage()
        let unit = try MetadataModel.reference(image, modelPath: path, mean: [0], std: [255])
        #expect(try MetadataModel.labeled(image, modelPath: path) == unit)
    }
}
