import Testing
import TFLiteModel

/// A hand-built model exercising what `inspect` reports: a per-tensor quantized input
/// with a dynamic batch, a per-axis quantized conv filter, a shared constant buffer, a
/// custom op with options, an optional (-1) input, signatures, metadata, a second
/// subgraph, and a description needing JSON escapes.
///
/// Byte layout of the model bytes: filter 0..<6, bias 8..<16, anchors 16..<176,
/// custom options 176..<188, min_runtime_version 188..<204, other metadata 204..<224.
func sampleModel() throws -> Model {
    var raw = [UInt8](repeating: 0, count: 224)
    let version = Array("1.14.0".utf8)
    raw.replaceSubrange(188 ..< 188 + version.count, with: version)
    let bytes = ModelBytes(raw)
    func view(_ offset: Int, _ count: Int) throws -> ByteView {
        try #require(ByteView(storage: bytes, offset: offset, count: count))
    }
    let anchors = try view(16, 160)
    let tensors = [
        ModelTensor(
            index: 0, name: "input", type: .int8, shape: [1, 4, 4, 3], shapeSignature: [-1, 4, 4, 3],
            quantization: Quantization(scales: [0.5], zeroPoints: [-3])),
        ModelTensor(
            index: 1, name: "conv/filter", type: .int8, shape: [2, 1, 1, 3],
            quantization: Quantization(scales: [0.0012, 0.0089], zeroPoints: [0, 0], quantizedDimension: 0),
            bufferIndex: 1, constantData: try view(0, 6)),
        ModelTensor(
            index: 2, name: "conv/bias", type: .int32, shape: [2],
            quantization: Quantization(scales: [0.0006, 0.00445], zeroPoints: [0, 0]),
            bufferIndex: 2, constantData: try view(8, 8)),
        ModelTensor(
            index: 3, name: "conv/out", type: .int8, shape: [1, 4, 4, 2],
            quantization: Quantization(scales: [0.25], zeroPoints: [5])),
        ModelTensor(index: 4, name: "boxes", type: .float32, shape: [1, 10, 4]),
        ModelTensor(
            index: 5, name: "scores", type: .float32, shape: [1, 10],
            quantization: Quantization(scales: [], zeroPoints: [])), // empty table: unquantized
        ModelTensor(index: 6, name: "anchors", type: .float32, shape: [10, 4], bufferIndex: 3, constantData: anchors),
        ModelTensor(
            index: 7, name: "anchors_again", type: .float32, shape: [10, 4], bufferIndex: 3, constantData: anchors),
        ModelTensor(index: 8, name: "dequantized", type: .float32, shape: [1, 4, 4, 2]),
        ModelTensor(index: 9, name: "sum", type: .float32, shape: [1, 10]),
        ModelTensor(index: 10, name: "labels", type: .string, shape: [3]),
    ]
    let conv = OperatorCode(builtin: .conv2D, version: 3)
    let operators = [
        Operator(
            index: 0, code: conv, inputs: [0, 1, 2], outputs: [3],
            options: .conv2D(Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: .relu6))),
        Operator(index: 1, code: OperatorCode(builtin: .dequantize, version: 2), inputs: [3], outputs: [8]),
        Operator(
            index: 2, code: OperatorCode(builtin: .custom, customName: "TFLite_Detection_PostProcess"),
            inputs: [8, 6, -1], outputs: [4, 5], customOptions: try view(176, 12)),
        Operator(
            index: 3, code: OperatorCode(builtin: .add), inputs: [5, 5], outputs: [9],
            options: .add(activation: .none, potScaleInt16: false)),
        Operator(
            index: 4, code: OperatorCode(builtin: .add), inputs: [9, 9], outputs: [9],
            options: .add(activation: .relu, potScaleInt16: false)),
    ]
    let main = Subgraph(name: "main", tensors: tensors, inputs: [0], outputs: [4, 9], operators: operators)
    let cond = Subgraph(
        name: "cond", tensors: [ModelTensor(index: 0, name: "flag", type: .bool, shape: [])],
        inputs: [0], outputs: [0], operators: [])
    return Model(
        bytes: bytes, version: 3, modelDescription: "Hand-built \"sample\"\tmodel",
        operatorCodes: [conv], subgraphs: [main, cond],
        signatures: [
            Signature(
                key: "serving_default", subgraphIndex: 0,
                inputs: [.init(name: "image", tensorIndex: 0)],
                outputs: [.init(name: "boxes", tensorIndex: 4), .init(name: "total", tensorIndex: 9)])
        ],
        metadata: [
            MetadataEntry(name: "min_runtime_version", bufferIndex: 4, data: try view(188, 16)),
            MetadataEntry(name: "TFLITE_METADATA", bufferIndex: 5, data: try view(204, 20)),
            MetadataEntry(name: "empty", bufferIndex: 6, data: nil),
        ]
    )
}
