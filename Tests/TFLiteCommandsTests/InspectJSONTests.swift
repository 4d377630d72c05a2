import Foundation
import Testing
import TFLiteModel
@testable import TFLiteCommands

@Suite struct InspectJSONTests {
    /// Worked out by hand from `sampleModel()`: constants are 6 + 8 + 160 bytes (the
    /// anchors buffer is shared by two tensors); activations are the non-constant tensors
    /// 0, 3, 4, 5, 8, 9 = 48 + 32 + 160 + 40 + 128 + 40 bytes (the string tensor has no
    /// fixed size).
    static let expected = #"""
        {
          "version": 3, "description": "Hand-built \"sample\"\tmodel", "subgraphs": 2, "tensors": 11,
          "inputs": [{"index": 0, "name": "input", "type": "INT8", "shape": [-1, 4, 4, 3], "static_shape": [1, 4, 4, 3],
                      "quantization": {"scale": [0.5], "zero_point": [-3], "quantized_dimension": 0}}],
          "outputs": [{"index": 4, "name": "boxes", "type": "FLOAT32", "shape": [1, 10, 4], "static_shape": [1, 10, 4], "quantization": null},
                      {"index": 9, "name": "sum", "type": "FLOAT32", "shape": [1, 10], "static_shape": [1, 10], "quantization": null}],
          "signatures": [{"key": "serving_default", "subgraph": 0, "inputs": {"image": 0}, "outputs": {"boxes": 4, "total": 9}}],
          "operators": [
            {"index": 0, "op": "CONV_2D", "version": 3, "activation": "RELU6", "inputs": [0, 1, 2], "outputs": [3], "custom_options": null},
            {"index": 1, "op": "DEQUANTIZE", "version": 2, "activation": null, "inputs": [3], "outputs": [8], "custom_options": null},
            {"index": 2, "op": "CUSTOM:TFLite_Detection_PostProcess", "version": 1, "activation": null, "inputs": [8, 6, -1], "outputs": [4, 5], "custom_options": null},
            {"index": 3, "op": "ADD", "version": 1, "activation": "NONE", "inputs": [5, 5], "outputs": [9], "custom_options": null},
            {"index": 4, "op": "ADD", "version": 1, "activation": "RELU", "inputs": [9, 9], "outputs": [9], "custom_options": null}
          ],
          "subgraph_operators": [[]], "variables": [],
          "op_histogram": {"ADD": 2, "CONV_2D": 1, "CUSTOM:TFLite_Detection_PostProcess": 1, "DEQUANTIZE": 1},
          "constant_bytes": 174, "activation_bytes": 448,
          "metadata": [{"name": "min_runtime_version", "size": 16}, {"name": "TFLITE_METADATA", "size": 20}, {"name": "empty", "size": 0}],
          "min_runtime_version": "1.14.0"
        }
        """#

    @Test func matchesHandComputedDocument() throws {
        let text = inspectJSON(try sampleModel()).serialized()
        let actual = try TestJSON.parse(text)
        let expected = try TestJSON.parse(Self.expected)
        #expect(TestJSON.firstDifference(actual, expected) == nil, "\(text)")
    }

    @Test func isValidJSONForFoundation() throws {
        let text = inspectJSON(try sampleModel()).serialized()
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect((object as? [String: Any])?.count == 15)
    }

    @Test func perAxisQuantizationAndDynamicShapes() throws {
        var model = try sampleModel()
        var main = model.subgraphs[0]
        main.inputs = [1] // the per-axis quantized filter
        main.tensors[1].shapeSignature = [2, 1, -1, 3]
        model = Model(
            bytes: model.bytes, version: 3, modelDescription: nil, operatorCodes: [], subgraphs: [main],
            signatures: [], metadata: [])
        let json = try TestJSON.parse(inspectJSON(model).serialized())
        guard case .object(let doc) = json, case .array(let inputs)? = doc["inputs"],
            case .object(let input)? = inputs.first
        else {
            Issue.record("no inputs in \(json)")
            return
        }
        #expect(input["shape"] == .array([2, 1, -1, 3].map { .number($0) }))
        #expect(input["static_shape"] == .array([2, 1, 1, 3].map { .number($0) }))
        #expect(
            input["quantization"]
                == .object([
                    "scale": .array([.number(0.0012), .number(0.0089)]),
                    "zero_point": .array([.number(0), .number(0)]),
                    "quantized_dimension": .number(0),
                ]))
        #expect(doc["description"] == .null)
        #expect(doc["min_runtime_version"] == .null)
        #expect(doc["subgraphs"] == .number(1))
        #expect(doc["signatures"] == .array([]))
    }

    /// Float32 values must survive text: printing uses the shortest representation
    /// that parses back to the same float32.
    @Test func floatsRoundTripExactly() throws {
        let values: [Float] = [
            0.0012, 0.0089, 1.0 / 3.0, 1e-8, 3.4028235e38, .leastNonzeroMagnitude, -0.0, 0.00390625, 123456.79,
        ]
        let text = JSONValue.array(values.map(JSONValue.float)).serialized()
        guard case .array(let parsed) = try TestJSON.parse(text) else {
            Issue.record("not an array: \(text)")
            return
        }
        for (value, json) in zip(values, parsed) {
            guard case .number(let n) = json else { Issue.record("\(json)"); continue }
            #expect(Float(n).bitPattern == value.bitPattern, "\(value) printed as \(text)")
        }
    }

    @Test func writerEscapesAndHandlesEdgeCases() throws {
        let value = JSONValue.object([
            "s": .string("quote\" backslash\\ newline\n bell\u{7} é 🦄"),
            "nan": .float(.nan), "inf": .float(.infinity),
            "empty_array": .array([]), "empty_object": .object([:]),
            "nested": .array([.object(["a": .bool(true)]), .null]),
        ])
        let text = value.serialized()
        #expect(text.contains(#""quote\" backslash\\ newline\n bell\u0007 é 🦄""#))
        let parsed = try TestJSON.parse(text)
        #expect(
            parsed
                == .object([
                    "s": .string("quote\" backslash\\ newline\n bell\u{7} é 🦄"), "nan": .null, "inf": .null,
                    "empty_array": .array([]), "empty_object": .object([:]),
                    "nested": .array([.object(["a": .bool(true)]), .null]),
                ]))
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
    }
}
