import Foundation
import Testing
import SeededRandom
import FlatBufferTestSupport
import TFLiteFormat
@testable import TFLiteModel

typealias SeededGenerator = SplitMix64

@Suite("Model decoding robustness")
struct ModelRobustnessTests {
    /// A model touching most decoder paths: quantization, sparsity, options, custom
    /// options, signatures, metadata, a STRING constant.
    static func richModel() -> TModel {
        var m = TModel.minimal()
        m.subgraphs[0].tensors[0].quantization = FBTable([2: .f32s([0.5, 0.25]), 3: .i64s([1, 2]), 6: .i32(1)])
        m.buffers.append(buffer(([1, 12, 13] as [Int32]).flatMap(le) + [65]))
        m.subgraphs[0].tensors.append(TTensor(name: "s", shape: [1], type: 5, buffer: 3))
        m.subgraphs[0].tensors.append(
            TTensor(
                name: "sp", shape: [2],
                sparsity: FBTable([
                    0: .i32s([0]),
                    2: .tables([
                        FBTable([
                            0: .i8(1), 2: .u8(2), 3: .table(FBTable([0: .u16s([0, 1])])), 4: .u8(1),
                            5: .table(FBTable([0: .i32s([1])])),
                        ])
                    ]),
                ])))
        m.subgraphs[0].operators[0].optionsType = 1
        m.subgraphs[0].operators[0].options = FBTable([0: .i8(1), 1: .i32(2), 2: .i32(2), 4: .i32(1)])
        return m
    }

    /// Decodes `bytes`; any outcome but a crash or hang is acceptable.
    @discardableResult
    func survive(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try Model(bytes: ModelBytes(bytes))
            return true
        } catch {
            #expect(!error.description.isEmpty)
            return false
        }
    }

    @Test func richModelDecodes() throws {
        let model = try Self.richModel().decode()
        #expect(model.mainSubgraph.tensors[6].sparsity?.dimensions.first?.arraySegments == [0, 1])
        #expect(
            model.mainSubgraph.operators[0].options
                == .conv2D(Conv2DOptions(padding: .valid, strideWidth: 2, strideHeight: 2, activation: .none)))
    }

    @Test func everyPrefixIsAnErrorOrAModel() {
        let bytes = Self.richModel().bytes
        var decoded = 0
        for n in 0 ... bytes.count where survive(Array(bytes[..<n])) { decoded += 1 }
        // Only prefixes that keep every referenced byte can decode (trailing padding).
        #expect(decoded < 32)
        #expect(survive(bytes))
    }

    @Test func seededRandomMutations() {
        let original = Self.richModel().bytes
        var rng = SeededGenerator(seed: 0x7F1_7E5)
        var decoded = 0
        for round in 0 ..< 12_000 {
            var copy = original
            switch round % 3 {
            case 0: // a few random bytes
                for _ in 0 ..< Int.random(in: 1 ... 4, using: &rng) {
                    copy[Int.random(in: 0 ..< copy.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
                }
            case 1: // a bit flip
                let i = Int.random(in: 0 ..< copy.count, using: &rng)
                copy[i] ^= 1 << UInt8.random(in: 0 ..< 8, using: &rng)
            default: // an extreme 32-bit value at a 4-aligned position (offsets, counts)
                let i = Int.random(in: 0 ..< copy.count / 4, using: &rng) * 4
                let values: [UInt32] = [
                    0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, UInt32(copy.count),
                    UInt32.random(in: 0 ... 4096, using: &rng),
                ]
                copy.replaceSubrange(i ..< i + 4, with: le(values[Int.random(in: 0 ..< values.count, using: &rng)]))
            }
            if survive(copy) { decoded += 1 }
        }
        // Some mutations land in unused bytes or harmless values; most must be caught.
        #expect(decoded > 0 && decoded < 12_000)
    }
}

@Suite("Fixture models decode")
struct FixtureModelDecodingTests {
    static var modelsDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/models")
    }

    static var modelPaths: [String] {
        let dir = modelsDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".tflite") }.sorted().map { dir.appendingPathComponent($0).path }
    }

    /// The fixtures are committed: an empty list would make `fixtureDecodes` run no case.
    @Test func fixturesArePresent() {
        #expect(Self.modelPaths.count >= 7, "Fixtures/models/*.tflite: \(Self.modelPaths)")
    }

    @Test(arguments: modelPaths)
    func fixtureDecodes(path: String) throws {
        let model = try Model(contentsOfFile: path)
        #expect(!model.subgraphs.isEmpty)
        #expect(!model.mainSubgraph.operators.isEmpty)
        for subgraph in model.subgraphs {
            for op in subgraph.operators where op.code.builtin == .custom && op.customOptionsFormat == 0 {
                if let options = op.customOptions {
                    _ = try FlexBuffer(copying: options.bytes).tree()
                }
            }
        }
    }
}
