import Testing
import FlatBufferTestSupport
import TFLiteFormat
@testable import TFLiteModel

/// TFLite metadata (`M001`) built with the test writer: decoding, and typed errors for
/// damaged buffers while the model carrying them still loads.
@Suite("TFLite metadata")
struct ModelMetadataTests {
    static func unit(_ type: UInt8, _ options: FBTable?) -> FBTable {
        var t = FBTable([0: .u8(type)])
        if let options { t[1] = .table(options) }
        return t
    }

    static let file = FBTable([0: .string("labels.txt"), 1: .string("names"), 2: .i8(2), 3: .string("en")])

    /// Every decoded field set, per the schema's slots.
    static func metadata(inputUnits: [FBTable]? = nil) -> FBTable {
        let input = FBTable([
            0: .string("image"), 1: .string("the picture"), 2: .strings(["batch", "height", "width", "channel"]),
            4: .tables(inputUnits ?? [unit(1, FBTable([0: .f32s([127.5]), 1: .f32s([127.5])]))]),
            5: .table(FBTable([0: .f32s([1]), 1: .f32s([-1])])),
        ])
        let output = FBTable([
            0: .string("scores"),
            4: .tables([
                unit(2, FBTable([0: .i8(2), 1: .f32(0.25)])), unit(3, FBTable([0: .f32(0.5)])),
                unit(4, FBTable([0: .tables([file])])), unit(0, nil), unit(200, nil),
            ]),
            6: .tables([file]),
        ])
        let subgraph = FBTable([
            0: .string("main"), 1: .string("sg"), 2: .tables([input]), 3: .tables([output]), 4: .tables([file]),
        ])
        return FBTable([
            0: .string("model"), 1: .string("what it does"), 2: .string("v2"), 3: .tables([subgraph]),
            4: .string("me"), 5: .string("MIT"), 6: .tables([file]), 7: .string("1.2.1"),
        ])
    }

    static func bytes(_ table: FBTable = metadata(), identifier: String = "M001") -> [UInt8] {
        FlatBufferWriter.serialize(table, identifier: identifier)
    }

    @Test func decodesEveryField() throws {
        let m = try ModelMetadata(Self.bytes())
        let file = ModelMetadata.AssociatedFile(name: "labels.txt", description: "names", type: 2, locale: "en")
        #expect(m.name == "model" && m.description == "what it does" && m.version == "v2")
        #expect(m.author == "me" && m.license == "MIT" && m.minParserVersion == "1.2.1")
        #expect(m.associatedFiles == [file])
        let sg = try #require(m.subgraphs.first)
        #expect(m.subgraphs.count == 1 && sg.name == "main" && sg.description == "sg" && sg.associatedFiles == [file])
        let input = try #require(m.input(0))
        #expect(input.name == "image" && input.description == "the picture")
        #expect(input.dimensionNames == ["batch", "height", "width", "channel"])
        #expect(input.processUnits == [.normalization(mean: [127.5], std: [127.5])])
        #expect(input.normalization?.mean == [127.5] && input.normalization?.std == [127.5])
        #expect(input.stats == ModelMetadata.Stats(max: [1], min: [-1]))
        #expect(m.input(1) == nil)
        let output = try #require(sg.outputs.first)
        #expect(
            output.name == "scores" && output.description == nil && output.stats == nil && output.normalization == nil)
        // Tokenizer (4), NONE (0) and ids past the schema (200) are kept by id, not errors.
        #expect(
            output.processUnits == [
                .scoreCalibration(transformation: 2, defaultScore: 0.25), .scoreThresholding(globalThreshold: 0.5),
                .other(typeID: 4), .other(typeID: 0), .other(typeID: 200),
            ])
        #expect(output.associatedFiles == [file])
    }

    @Test func emptyTablesDecodeToDefaults() throws {
        let m = try ModelMetadata(Self.bytes(FBTable()))
        #expect(
            m
                == ModelMetadata(
                    name: nil, description: nil, version: nil, author: nil, license: nil, minParserVersion: nil,
                    associatedFiles: [], subgraphs: []))
        #expect(m.input(0) == nil)
        // A normalization table with neither vector decodes to empty arrays (users validate).
        let n = try ModelMetadata(Self.bytes(Self.metadata(inputUnits: [Self.unit(1, FBTable())])))
        #expect(n.input(0)?.processUnits == [.normalization(mean: [], std: [])])
    }

    @Test func identifierIsChecked() {
        #expect(throws: ModelMetadataError.wrongIdentifier(found: "TFL3")) {
            try ModelMetadata(Self.bytes(identifier: "TFL3"))
        }
        #expect(throws: ModelMetadataError.wrongIdentifier(found: "")) { try ModelMetadata([0, 0, 0, 0, 77, 48]) }
        // Identifier present but no room for a table.
        #expect(
            throws: ModelMetadataError.malformed("ModelMetadata: the buffer is 8 bytes; a FlatBuffer needs at least 12")
        ) {
            try ModelMetadata([12, 0, 0, 0] + Array("M001".utf8))
        }
    }

    @Test func knownUnionTypeWithoutTableIsInvalid() {
        for type: UInt8 in [1, 2, 3] {
            let bytes = Self.bytes(Self.metadata(inputUnits: [Self.unit(type, nil)]))
            #expect(throws: ModelMetadataError.self) { try ModelMetadata(bytes) }
            do {
                _ = try ModelMetadata(bytes)
            } catch {
                guard case .invalid(let message) = error else {
                    Issue.record("expected .invalid, got \(error)"); continue
                }
                #expect(
                    message.contains("input_tensor_metadata[0].process_units[0]")
                        && message.contains("no options table"), "\(message)")
            }
        }
    }

    /// A score-thresholding table tagged as normalization: its float is read as the offset
    /// of `mean` and points outside the buffer.
    @Test func mistaggedUnionTableIsMalformed() {
        let bytes = Self.bytes(Self.metadata(inputUnits: [Self.unit(1, FBTable([0: .f32(0.5)]))]))
        do {
            _ = try ModelMetadata(bytes)
            Issue.record("decoded a mistagged union")
        } catch {
            guard case .malformed(let message) = error else {
                Issue.record("expected .malformed, got \(error)"); return
            }
            #expect(message.contains("options field 'mean'"), "\(message)")
        }
    }

    /// Every strict prefix and every single-byte corruption of a valid buffer either decodes
    /// or throws a typed error — never traps.
    @Test func damagedBuffersThrowTypedErrors() {
        let good = Self.bytes()
        for length in 0 ..< good.count {
            #expect(throws: ModelMetadataError.self) { try ModelMetadata(Array(good.prefix(length))) }
        }
        for i in 0 ..< good.count {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var bad = good
                bad[i] = value
                _ = try? ModelMetadata(bad)
            }
        }
    }

    @Test func deepNestingHitsTheLimit() {
        var limits = FlatBufferLimits()
        limits.maxDepth = 3
        #expect(throws: ModelMetadataError.self) { try ModelMetadata(Self.bytes(), limits: limits) }
        do {
            _ = try ModelMetadata(Self.bytes(), limits: limits)
        } catch {
            guard case .limitExceeded = error else { Issue.record("expected .limitExceeded, got \(error)"); return }
        }
    }

    // MARK: - Through Model

    static func model(metadataBytes: [UInt8]?, name: String = "TFLITE_METADATA") -> TModel {
        var m = TModel.minimal()
        m.buffers.append(metadataBytes.map(buffer) ?? FBTable())
        m.metadata.append(FBTable([0: .string(name), 1: .u32(UInt32(m.buffers.count - 1))]))
        return m
    }

    @Test func modelAccessor() throws {
        #expect(try TModel.minimal().decode().tfliteMetadata == nil)
        #expect(try Self.model(metadataBytes: Self.bytes(), name: "OTHER").decode().tfliteMetadata == nil)
        let model = try Self.model(metadataBytes: Self.bytes()).decode()
        #expect(try model.tfliteMetadata == ModelMetadata(Self.bytes()))
    }

    /// Damaged metadata never stops the model from loading; only the accessor throws.
    @Test func damagedMetadataStillLoads() throws {
        var wrongRoot = Self.bytes()
        wrongRoot[0 ..< 4] = [0xF0, 0xFF, 0xFF, 0x7F]
        let cases: [([UInt8]?, ModelMetadataError)] = [
            (nil, .emptyBuffer),
            (Self.bytes(identifier: "M002"), .wrongIdentifier(found: "M002")),
            (Array(Self.bytes().prefix(40)), .malformed("")),
            (wrongRoot, .malformed("")),
        ]
        for (bytes, expected) in cases {
            let model = try Self.model(metadataBytes: bytes).decode()
            #expect(model.mainSubgraph.operators.count == 3)
            do {
                _ = try model.tfliteMetadata
                Issue.record("decoded damaged metadata")
            } catch {
                switch (error, expected) {
                case (.malformed, .malformed): break
                default: #expect(error == expected)
                }
            }
        }
    }
}
