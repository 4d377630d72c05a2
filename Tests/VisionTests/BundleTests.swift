import Foundation
import Testing
@testable import MLKit

@Suite struct TolerantJSONTests {
    func parse(_ text: String) throws -> JSONNode { try TolerantJSON.parse(Array(text.utf8)) }

    @Test func acceptsJSONAndTrailingCommas() throws {
        #expect(
            try parse(#"{"a": [1, 2.5e1, -3], "b": "x\u00e9\n", "c": true, "d": null}"#)
                == .object([
                    "a": .array([.number(1), .number(25), .number(-3)]), "b": .string("xé\n"), "c": .bool(true),
                    "d": .null,
                ]))
        // Google's sample manifest: a trailing comma in the object.
        #expect(
            try parse(#"{ "modelType": "IMAGE_LABELING", "modelFile": "m.tflite", "labelsFile": "l.txt", }"#)
                == .object([
                    "modelType": .string("IMAGE_LABELING"), "modelFile": .string("m.tflite"),
                    "labelsFile": .string("l.txt"),
                ]))
        #expect(try parse("[1, 2, ]") == .array([.number(1), .number(2)]))
        #expect(try parse(#"{"s": "a,}"}"#) == .object(["s": .string("a,}")]))
    }

    @Test(arguments: [
        "", "{", #"{"a" 1}"#, "[1,,2]", "{,}", "[,]", #"{"a": 1} x"#, "tru", #""unterminated"#, "01x",
        #"{"a":1,"a":2}"#, "+1", ".5",
        String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
    ])
    func rejects(_ text: String) {
        #expect(throws: TolerantJSON.ParseError.self) { try parse(text) }
    }
}

@Suite struct ManifestTests {
    @Test func resolvesRelativePaths() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write(
            "manifest.json", #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING",}"#
        )
        let m = try AutoMLManifest(contentsOfFile: path)
        #expect(
            m.modelPath == dir.file("model.tflite") && m.labelsPath == dir.file("dict.txt")
                && m.modelType == "IMAGE_LABELING")
    }

    @Test func malformedManifests() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let missing = dir.file("none.json")
        #expect { try AutoMLManifest(contentsOfFile: missing) } throws: { error in
            if case .unreadable(path: missing, _) = error as? ModelBundleError { return true }
            return false
        }
        let cases: [(String, ModelBundleError)] = [
            (#"{"labelsFile": "dict.txt"}"#, .missingKey(path: dir.file("m.json"), key: "modelFile")),
            (#"{"modelFile": "m.tflite"}"#, .missingKey(path: dir.file("m.json"), key: "labelsFile")),
            (
                #"{"modelFile": 3, "labelsFile": "d"}"#,
                .invalidValue(path: dir.file("m.json"), key: "modelFile", expected: "a non-empty string")
            ),
            (
                #"{"modelFile": "", "labelsFile": "d"}"#,
                .invalidValue(path: dir.file("m.json"), key: "modelFile", expected: "a non-empty string")
            ),
            (
                #"["modelFile"]"#,
                .invalidJSON(path: dir.file("m.json"), offset: 0, reason: "the top level is not an object")
            ),
        ]
        for (text, expected) in cases {
            let path = try dir.write("m.json", text)
            #expect(throws: expected) { try AutoMLManifest(contentsOfFile: path) }
        }
        let broken = try dir.write("m.json", #"{"modelFile": "m.tflite" "labelsFile": "d"}"#)
        #expect { try AutoMLManifest(contentsOfFile: broken) } throws: { error in
            if case .invalidJSON(path: broken, offset: 25, _) = error as? ModelBundleError { return true }
            return false
        }
        // ML Kit's LocalModel is nil for an invalid manifest; AutoMLLocalModel reports why.
        #expect(LocalModel(manifestPath: broken) == nil)
        #expect(LocalModel(manifestPath: missing) == nil)
        #expect(throws: ModelBundleError.self) { try AutoMLLocalModel(manifestPath: broken).validate() }
    }

    @Test func labels() throws {
        #expect(try LabelDictionary.parse(Array("cat\r\ndog\r\n".utf8), path: "d") == ["cat", "dog"])
        #expect(try LabelDictionary.parse(Array("cat\ndog".utf8), path: "d") == ["cat", "dog"])
        #expect(try LabelDictionary.parse(Array("two words\n".utf8), path: "d") == ["two words"])
        #expect(throws: ModelBundleError.invalidLabels(path: "d", reason: "no labels")) {
            try LabelDictionary.parse([], path: "d")
        }
        #expect(throws: ModelBundleError.invalidLabels(path: "d", reason: "no labels")) {
            try LabelDictionary.parse(Array("\n".utf8), path: "d")
        }
        #expect(throws: ModelBundleError.invalidLabels(path: "d", reason: "line 2 is empty")) {
            try LabelDictionary.parse(Array("a\n\nb\n".utf8), path: "d")
        }
        #expect(throws: ModelBundleError.invalidLabels(path: "d", reason: "not valid UTF-8")) {
            try LabelDictionary.parse([0x61, 0xFF, 0x0A], path: "d")
        }
    }

    @Test func detectionMetadata() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let p = try dir.write("t.json", "{}")
        let defaults = try DetectionMetadata(contentsOfFile: p)
        #expect(
            defaults.inputShape == [1, 320, 320, 3] && defaults.maxDetections == 40 && defaults.outputTensors == nil)
        try dir.write(
            "t.json",
            #"{"inferenceType": "QUANTIZED_UINT8", "inputShape": [1, 512, 512, 3], "inputTensor": "x", "maxDetections": 20, "outputTensorRepresentation": ["class_labels", "bounding_boxes", "class_confidences", "num_of_boxes"], "outputTensors": ["a", "b", "c", "d"],}"#
        )
        let m = try DetectionMetadata(contentsOfFile: p)
        #expect(
            m.inputShape == [1, 512, 512, 3] && m.maxDetections == 20 && m.inputTensor == "x"
                && m.outputTensors == ["a", "b", "c", "d"])
        #expect(m.outputTensorRepresentation.first == "class_labels")
        let bad: [(String, String)] = [
            (#"{"inputShape": [1, 320, 320]}"#, "inputShape"),
            (#"{"inputShape": [2, 320, 320, 3]}"#, "inputShape"),
            (#"{"inputShape": [1, 0, 320, 3]}"#, "inputShape"),
            (#"{"inputShape": [1, 32.5, 320, 3]}"#, "inputShape"),
            (#"{"maxDetections": -1}"#, "maxDetections"),
            (#"{"maxDetections": "40"}"#, "maxDetections"),
            (#"{"outputTensorRepresentation": ["bounding_boxes"]}"#, "outputTensorRepresentation"),
            (#"{"outputTensors": ["a"]}"#, "outputTensors"),
            (#"{"inputTensor": 5}"#, "inputTensor"),
        ]
        for (text, key) in bad {
            try dir.write("t.json", text)
            #expect(
                performing: { try DetectionMetadata(contentsOfFile: p) },
                throws: { error in
                    if case .invalidValue(path: p, key: key, _) = error as? ModelBundleError { return true }
                    return false
                })
        }
    }
}
