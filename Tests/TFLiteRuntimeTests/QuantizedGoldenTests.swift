import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// LiteRT reference-kernel goldens of the 8-bit convolution family, written by
/// `scripts/fixtures/goldens_quantized_conv.py`: one single-op `.tflite` per case plus
/// `goldens.json` with the input codes and the expected output codes. Outputs must match
/// with zero LSB difference, for 1, 2 and 4 threads.
enum QuantizedGoldens {
    struct Case: Decodable, CustomStringConvertible, Sendable {
        var name: String
        var model: String
        var notes: String
        var input: [Int]
        var inputShape: [Int]
        var output: [Int]
        var outputShape: [Int]
        var description: String { name }
    }

    /// The FULLY_CONNECTED output (before SOFTMAX) of a quantized MobileNet fixture.
    struct MobileNet: Decodable, CustomStringConvertible, Sendable {
        var name: String
        var input: [Int]
        var fcTensor: Int
        var fcOutput: [Int]
        var description: String { name }
    }

    struct File: Decodable {
        var cases: [Case]
        var mobilenets: [MobileNet]
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/goldens/quantized")

    static let file: File = {
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("goldens.json"))
            return try JSONDecoder().decode(File.self, from: data)
        } catch {
            Issue.record("cannot read goldens.json: \(error)")
            return File(cases: [], mobilenets: [])
        }
    }()

    static var cases: [Case] { file.cases }
    static var mobilenets: [MobileNet] { file.mobilenets }

    /// Runs `model` on the 8-bit `input` codes (typed as the model's input tensor) with
    /// `threads` threads and returns output 0's codes and shape.
    static func run(_ model: Model, input: [Int], threads: Int, level: KernelLevel) throws -> (
        codes: [Int], shape: [Int]
    ) {
        var options = EngineOptions()
        options.threadCount = threads
        options.kernelLevel = level
        let engine = try Engine(model: model, options: options)
        try engine.allocate()
        let inputType = engine.tensors[engine.inputs[0]].type
        if inputType == .uint8 {
            try engine.setInput(0, input.map { UInt8(truncatingIfNeeded: $0) })
        } else {
            try engine.setInput(0, input.map { Int8(truncatingIfNeeded: $0) })
        }
        try engine.invoke()
        let outputType = engine.tensors[engine.outputs[0]].type
        let codes =
            outputType == .uint8
            ? try engine.output(0, as: UInt8.self).map(Int.init)
            : try engine.output(0, as: Int8.self).map(Int.init)
        return (codes, engine.outputShape(0))
    }

    /// Reports the first differing codes, or nothing when `got == expected`.
    static func expectEqualCodes(
        _ got: [Int], _ expected: [Int], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard got != expected else { return }
        let diffs = zip(got, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        let worst = diffs.map { abs($0.element.0 - $0.element.1) }.max() ?? 0
        let first = diffs.prefix(5).map { "[\($0.offset)] \($0.element.0) vs \($0.element.1)" }.joined(separator: ", ")
        Issue.record(
            "\(what): \(diffs.count) of \(expected.count) codes differ (max \(worst) LSB; counts \(got.count) vs \(expected.count)): \(first)",
            sourceLocation: sourceLocation)
    }
}

@Suite struct QuantizedGoldenTests {
    @Test func goldensArePresent() {
        #expect(QuantizedGoldens.cases.count >= 30)
        #expect(QuantizedGoldens.mobilenets.count == 2)
    }

    @Test(arguments: QuantizedGoldens.cases)
    func matchesLiteRT(_ c: QuantizedGoldens.Case) throws {
        let model = try Model(contentsOfFile: QuantizedGoldens.directory.appendingPathComponent(c.model).path)
        for level in QTest.levels {
            for threads in [1, 2, 4] {
                let (codes, shape) = try QuantizedGoldens.run(model, input: c.input, threads: threads, level: level)
                #expect(shape == c.outputShape, "\(c.name)")
                QuantizedGoldens.expectEqualCodes(
                    codes, c.output, "\(c.name) (\(c.notes)), \(level), \(threads) threads")
            }
        }
    }

    /// The whole quantized MobileNet fixtures up to the FULLY_CONNECTED output: the model
    /// with its final SOFTMAX removed and the FC output as the graph output.
    @Test(arguments: QuantizedGoldens.mobilenets)
    func mobileNetUpToFullyConnected(_ m: QuantizedGoldens.MobileNet) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/models/\(m.name).tflite").path
        let full = try Model(contentsOfFile: path)
        var graph = full.mainSubgraph
        guard let last = graph.operators.firstIndex(where: { $0.outputs.contains(m.fcTensor) }) else {
            Issue.record("no operator writes tensor \(m.fcTensor)")
            return
        }
        #expect(graph.operators[last].code.builtin == .fullyConnected)
        graph.operators = Array(graph.operators[...last])
        graph.outputs = [m.fcTensor]
        let model = Model(
            bytes: full.bytes, version: full.version, modelDescription: full.modelDescription,
            operatorCodes: full.operatorCodes, subgraphs: [graph], signatures: [], metadata: [])
        for level in QTest.levels {
            for threads in [1, 2, 4] {
                let (codes, _) = try QuantizedGoldens.run(model, input: m.input, threads: threads, level: level)
                QuantizedGoldens.expectEqualCodes(
                    codes, m.fcOutput, "\(m.name) FC output, \(level), \(threads) threads")
            }
        }
    }
}
