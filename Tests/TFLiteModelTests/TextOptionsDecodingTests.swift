import Foundation
import Testing

@testable import TFLiteModel

/// The options of the text, hashing and lookup operators, and STRING constants, decoded from
/// the conformance corpus's schema-written models (scripts/fixtures/conformance/cases_text.py
/// states the values each was written with) and the Smart Reply model.
@Suite struct TextOptionsDecodingTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func op(_ path: String, _ code: BuiltinOperator) throws -> Operator {
        let url = Self.root.appendingPathComponent("Fixtures/conformance/\(path)/model.tflite")
        let model = try Model(contentsOfFile: url.path)
        return try #require(model.mainSubgraph.operators.first { $0.code.builtin == code })
    }

    @Test func optionsDecode() throws {
        #expect(
            try op("SKIP_GRAM/n3_skip2_all", .skipGram).options
                == .skipGram(ngramSize: 3, maxSkipSize: 2, includeAllNgrams: true))
        #expect(try op("LSH_PROJECTION/sparse_f32", .lshProjection).options == .lshProjection(type: 1))
        #expect(try op("LSH_PROJECTION/dense_u8", .lshProjection).options == .lshProjection(type: 2))
        #expect(
            try op("HASHTABLE/string_to_int64", .hashtable).options
                == .hashtable(tableID: 3, keyType: .string, valueType: .int64))
        #expect(try op("HASHTABLE_SIZE/int64_keys", .hashtableSize).options == .none)
    }

    @Test func stringConstantsAreChecked() throws {
        let model = try Model(
            contentsOfFile: Self.root.appendingPathComponent("Fixtures/smartreply/smartreply.tflite").path)
        let texts = try #require(model.mainSubgraph.tensors.first { $0.name == "message_text" })
        #expect(texts.type == .string && texts.shape == [4001])
        #expect(texts.constantData?.count == 72479)
    }
}
