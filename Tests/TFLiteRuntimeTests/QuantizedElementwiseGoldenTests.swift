import Foundation
import NumPy
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// 8-bit elementwise, activation, reduction, concatenation, resize and quantize kernels
/// against LiteRT's reference kernels (BUILTIN_REF): each case is a small model made by
/// `scripts/fixtures/goldens_quantized_elementwise.py`, with its inputs and LiteRT's
/// outputs, under `Fixtures/goldens/quantized-elementwise/<case>/`. Outputs must match to the
/// bit, with 1 and 2 threads.
struct QuantizedElementwiseGoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/goldens/quantized-elementwise")

    /// Case name → the operator it is about (the model must contain it).
    static let cases: [(name: String, op: BuiltinOperator)] = [
        ("i8_add", .add), ("i8_add_bcast_relu", .add), ("i8_sub_bcast_relu6", .sub), ("i8_sub", .sub),
        ("i8_mul_bcast", .mul), ("i8_mul_relu", .mul), ("i8_maximum_bcast", .maximum), ("i8_minimum_bcast", .minimum),
        ("i8_logistic", .logistic), ("i8_tanh", .tanh), ("i8_hard_swish", .hardSwish), ("i8_leaky_relu", .leakyRelu),
        ("i8_relu", .relu), ("i8_relu6", .relu6), ("i8_relu_n1_to_1", .reluN1To1),
        ("i8_softmax", .softmax), ("i8_softmax_beta", .softmax), ("i8_softmax_4d", .softmax), ("i8_prelu", .prelu),
        ("i8_mean_last", .mean), ("i8_mean_hw_keep", .mean), ("i8_mean_02", .mean),
        ("i8_sum", .sum), ("i8_sum_keep", .sum),
        ("i8_resize_bilinear", .resizeBilinear), ("i8_resize_bilinear_hpc", .resizeBilinear),
        ("i8_resize_bilinear_ac", .resizeBilinear), ("i8_concat", .concatenation),
        ("f32_quantize_int8", .quantize), ("u8_i8_quantize", .quantize), ("i8_i8_requantize", .quantize),
        ("u8_u8_requantize", .quantize),
        ("u8_hard_swish", .hardSwish), ("u8_prelu", .prelu), ("u8_leaky_relu", .leakyRelu),
        ("u8_softmax_beta", .softmax), ("u8_relu_n1_to_1", .reluN1To1), ("u8_sum_keep", .sum),
        ("u8_resize_bilinear_hpc", .resizeBilinear), ("u8_mean_02", .mean),
        ("u8_add", .add), ("u8_add_bcast_relu", .add), ("u8_sub_bcast_relu6", .sub), ("u8_sub", .sub),
        ("u8_mul_bcast", .mul), ("u8_mul_relu_n1", .mul), ("u8_maximum_bcast", .maximum),
        ("u8_minimum_bcast", .minimum),
        ("u8_logistic", .logistic), ("u8_tanh", .tanh), ("u8_softmax", .softmax), ("u8_relu", .relu),
        ("u8_relu6", .relu6),
        ("u8_mean_last", .mean), ("u8_mean_hw_keep", .mean), ("u8_sum", .sum),
        ("u8_resize_bilinear", .resizeBilinear), ("u8_resize_bilinear_ac", .resizeBilinear),
        ("f32_quantize_uint8", .quantize), ("u8_concat_scaling", .concatenation),
    ]

    @Test("matches LiteRT BUILTIN_REF bit for bit", arguments: cases.map(\.name))
    func golden(_ name: String) throws {
        let dir = Self.root.appendingPathComponent(name)
        let model = try Model(contentsOfFile: dir.appendingPathComponent("model.tflite").path)
        let op = try #require(Self.cases.first { $0.name == name }?.op)
        #expect(model.subgraphs[0].operators.contains { $0.code.builtin == op }, "\(name) has no \(op)")
        var inputs: [NPYArray] = []
        for i in 0 ..< model.subgraphs[0].inputs.count {
            inputs.append(try NPYArray(contentsOf: dir.appendingPathComponent("input_\(i).npy")))
        }
        var expected: [NPYArray] = []
        for i in 0 ..< model.subgraphs[0].outputs.count {
            expected.append(try NPYArray(contentsOf: dir.appendingPathComponent("expected_\(i).npy")))
        }
        for threads in [1, 2] {
            var options = EngineOptions()
            options.threadCount = threads
            let engine = try Engine(model: model, options: options)
            try engine.allocate()
            for (i, input) in inputs.enumerated() {
                let buffer = try #require(engine.buffer(forTensor: engine.inputs[i]))
                try #require(
                    buffer.count == input.data.count,
                    "\(name): input \(i) has \(input.data.count) bytes, tensor \(buffer.count)")
                input.data.withUnsafeBytes { buffer.copyMemory(from: $0) }
            }
            try engine.invoke()
            for (i, want) in expected.enumerated() {
                let got = Array(try #require(engine.buffer(forTensor: engine.outputs[i])))
                #expect(engine.tensors[engine.outputs[i]].shape == want.shape, "\(name): output \(i) shape")
                try #require(got.count == want.data.count, "\(name): output \(i) byte count")
                let mismatches = got.indices.filter { got[$0] != want.data[$0] }
                #expect(
                    mismatches.isEmpty,
                    """
                    \(name) (\(threads) threads): \(mismatches.count) of \(got.count) bytes differ, first at \
                    \(mismatches.first ?? 0): got \(mismatches.first.map { got[$0] } ?? 0), \
                    want \(mismatches.first.map { want.data[$0] } ?? 0)
                    """)
            }
        }
    }
}
