import Foundation
import Testing
import TFLiteModel
@testable import TFLiteCommands

@Suite struct InspectTextTests {
    func lines() throws -> [String] {
        inspectText(try sampleModel()).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func headerAndTensors() throws {
        let lines = try lines()
        #expect(lines.first == "schema version 3, 2 subgraphs, 11 tensors, 5 operators in subgraph 0")
        #expect(lines.contains("description: Hand-built \"sample\"\tmodel"))
        #expect(lines.contains("min_runtime_version: 1.14.0"))
        #expect(lines.contains("  [0]  input  INT8  [-1, 4, 4, 3]  scale 0.5, zero point -3"))
        #expect(lines.contains("  [4]  boxes  FLOAT32  [1, 10, 4]"))
        #expect(lines.contains("  [9]  sum    FLOAT32  [1, 10]"))
    }

    @Test func signaturesOperatorsAndHistogram() throws {
        let lines = try lines()
        #expect(lines.contains("  serving_default (subgraph 0)"))
        #expect(lines.contains("    inputs:  image → 0"))
        #expect(lines.contains("    outputs: boxes → 4, total → 9"))
        #expect(lines.contains("  #  op                                   version  activation  inputs → outputs"))
        #expect(lines.contains("  0  CONV_2D                              v3       RELU6       [0, 1, 2] → [3]"))
        #expect(lines.contains("  1  DEQUANTIZE                           v2       -           [3] → [8]"))
        #expect(
            lines.contains(
                "  2  CUSTOM:TFLite_Detection_PostProcess  v1       -           [8, 6, -1] → [4, 5]  custom options: 12 bytes"
            ))
        #expect(lines.contains("Operators of subgraph 1 'cond', in execution order:"))
        let histogram = try #require(lines.firstIndex(of: "Op histogram (subgraph 0):"))
        #expect(
            Array(lines[histogram + 1 ... histogram + 4]) == [
                "  ADD                                  2",
                "  CONV_2D                              1",
                "  CUSTOM:TFLite_Detection_PostProcess  1",
                "  DEQUANTIZE                           1",
            ])
    }

    @Test func memoryAndMetadata() throws {
        let lines = try lines()
        #expect(lines.contains("  constant weights  174 bytes in 3 buffers"))
        #expect(lines.contains("  activations       448 bytes (static shapes, before memory planning)"))
        #expect(lines.contains("  min_runtime_version  16 bytes"))
        #expect(lines.contains("  TFLITE_METADATA      20 bytes"))
    }

    /// The sample's 20-byte TFLITE_METADATA is not a metadata FlatBuffer: reported, not fatal.
    @Test func unreadableTFLiteMetadataIsOneLine() throws {
        let lines = try lines()
        #expect(lines.last(where: { !$0.isEmpty })?.hasPrefix("TFLite metadata: not readable (") == true)
    }

    /// The classifier with metadata that VisionTests uses (scripts/fixtures/metadata_model.py).
    @Test func tfliteMetadataSection() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/vision/mobilenet_float_metadata.tflite").path
        let text = inspectText(try Model(contentsOfFile: path))
        #expect(
            text.hasSuffix(
                """
                TFLite metadata:
                  name             swift-tflite metadata test classifier
                  description      A float MobileNet-style classifier of 32x32 RGB images into 10 classes.
                  version          v1
                  input 0 'image'  normalization mean [120, 110, 100], std [60, 70, 80]

                """), "\(text)")
        // --json is unchanged: it lists the entry, nothing decoded.
        #expect(!inspectJSON(try Model(contentsOfFile: path)).serialized().contains("normalization"))
    }

    @Test func quantizationSummaries() {
        #expect(
            quantizationText(Quantization(scales: [0.0078125], zeroPoints: [128])) == "scale 0.0078125, zero point 128")
        let perAxis = Quantization(
            scales: (0 ..< 32).map { 0.0012 + Float($0) * (0.0089 - 0.0012) / 31 },
            zeroPoints: [Int64](repeating: 0, count: 32), quantizedDimension: 0)
        #expect(quantizationText(perAxis) == "per-axis(dim 0, 32 scales, 0.0012…0.0089)")
        let withZeros = Quantization(scales: [0.5, 0.25], zeroPoints: [1, 0], quantizedDimension: 3)
        #expect(quantizationText(withZeros) == "per-axis(dim 3, 2 scales, 0.25…0.5, non-zero zero points)")
    }

    @Test func byteCounts() {
        #expect(byteCount(0) == "0 bytes")
        #expect(byteCount(1) == "1 byte")
        #expect(byteCount(1023) == "1,023 bytes")
        #expect(byteCount(4_254_944) == "4,254,944 bytes (4.1 MiB)")
        #expect(byteCount(Int.max).hasPrefix("9,223,372,036,854,775,807 bytes"))
    }

    @Test func emptyModelDoesNotTrap() {
        let model = Model(
            bytes: ModelBytes([]), version: 3, modelDescription: nil, operatorCodes: [],
            subgraphs: [], signatures: [], metadata: [])
        #expect(inspectText(model).hasPrefix("schema version 3, 0 subgraphs, 0 tensors, 0 operators"))
        #expect(inspectJSON(model).serialized().contains(#""tensors": 0"#))
    }

    @Test func danglingTensorIndexIsShownNotTrappedOn() throws {
        let sub = Subgraph(name: "", tensors: [], inputs: [7], outputs: [], operators: [])
        let model = Model(
            bytes: ModelBytes([]), version: 3, modelDescription: nil, operatorCodes: [],
            subgraphs: [sub], signatures: [], metadata: [])
        #expect(inspectText(model).contains("[7]  <no tensor 7>"))
    }
}
