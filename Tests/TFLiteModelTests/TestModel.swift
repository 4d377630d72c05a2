import Testing
import FlatBufferTestSupport
import TFLiteFormat
@testable import TFLiteModel

// A small description of a .tflite model that serializes through the test
// FlatBufferWriter, so each test states only what it changes.

struct TTensor {
    var name: String
    var shape: [Int32]
    var type: Int8 = 0
    var buffer: UInt32 = 0
    var quantization: FBTable?
    var isVariable = false
    var sparsity: FBTable?
    var shapeSignature: [Int32]?

    var table: FBTable {
        var t = FBTable([0: .i32s(shape), 1: .i8(type), 2: .u32(buffer), 3: .string(name)])
        if let quantization { t[4] = .table(quantization) }
        if isVariable { t[5] = .bool(true) }
        if let sparsity { t[6] = .table(sparsity) }
        if let shapeSignature { t[7] = .i32s(shapeSignature) }
        return t
    }
}

struct TOperator {
    var opcode: UInt32
    var inputs: [Int32]
    var outputs: [Int32]
    var intermediates: [Int32]?
    var optionsType: UInt8 = 0
    var options: FBTable?
    var customOptions: [UInt8]?
    var largeCustomOptions: (offset: UInt64, size: UInt64)?

    var table: FBTable {
        var t = FBTable([0: .u32(opcode), 1: .i32s(inputs), 2: .i32s(outputs)])
        if optionsType != 0 { t[3] = .u8(optionsType) }
        if let options { t[4] = .table(options) }
        if let customOptions { t[5] = .bytes(customOptions) }
        if let intermediates { t[8] = .i32s(intermediates) }
        if let large = largeCustomOptions {
            t[9] = .u64(large.offset)
            t[10] = .u64(large.size)
        }
        return t
    }
}

struct TSubgraph {
    var name = "main"
    var tensors: [TTensor]
    var inputs: [Int32]
    var outputs: [Int32]
    var operators: [TOperator]

    var table: FBTable {
        FBTable([
            0: .tables(tensors.map(\.table)), 1: .i32s(inputs), 2: .i32s(outputs), 3: .tables(operators.map(\.table)),
            4: .string(name),
        ])
    }
}

func opcode(_ builtin: Int32, deprecated: Int8? = nil, custom: String? = nil, version: Int32 = 1) -> FBTable {
    var t = FBTable([0: .i8(deprecated ?? Int8(clamping: builtin)), 2: .i32(version), 3: .i32(builtin)])
    if let custom { t[1] = .string(custom) }
    return t
}

func buffer(_ data: [UInt8]) -> FBTable { FBTable([0: .bytes(data)]) }

func floats(_ values: [Float]) -> [UInt8] { values.flatMap { le($0.bitPattern) } }

struct TModel {
    var version: UInt32 = 3
    var identifier = "TFL3"
    var description: String? = "test model"
    var opcodes: [FBTable]
    var buffers: [FBTable]
    var subgraphs: [TSubgraph]
    var metadataBuffer: [Int32]?
    var metadata: [FBTable] = []
    var signatures: [FBTable] = []
    /// Bytes appended after the FlatBuffer (out-of-line buffers, large custom options).
    var trailer: [UInt8] = []

    var table: FBTable {
        var t = FBTable([
            0: .u32(version), 1: .tables(opcodes), 2: .tables(subgraphs.map(\.table)), 4: .tables(buffers),
        ])
        if let description { t[3] = .string(description) }
        if let metadataBuffer { t[5] = .i32s(metadataBuffer) }
        if !metadata.isEmpty { t[6] = .tables(metadata) }
        if !signatures.isEmpty { t[7] = .tables(signatures) }
        return t
    }

    var flatBufferBytes: [UInt8] { FlatBufferWriter.serialize(table, identifier: identifier) }

    /// The FlatBuffer padded to 16 bytes, then the trailer.
    var bytes: [UInt8] {
        var b = flatBufferBytes
        while b.count % 16 != 0 { b.append(0) }
        return b + trailer
    }

    func decode(limits: ModelLimits = ModelLimits()) throws(ModelError) -> Model {
        try Model(bytes: ModelBytes(bytes), limits: limits)
    }

    /// Model: x (input) + c (constant) → ADD(relu6) → a → CUSTOM "MyOp" (flex options,
    /// optional second input) → b → GELU (code 150) → y (output).
    static func minimal() -> TModel {
        let flex = FlexBufferWriter.encode(.map([("max_detections", .int(10)), ("scale", .float(0.5))]), width: 4)
        return TModel(
            opcodes: [opcode(0), opcode(32, custom: "MyOp"), opcode(150, deprecated: 127, version: 2)],
            buffers: [FBTable(), buffer(floats([1, 2])), buffer(Array("1.5.0\0\0\0".utf8))],
            subgraphs: [
                TSubgraph(
                    tensors: [
                        TTensor(name: "x", shape: [1, 2]),
                        TTensor(name: "c", shape: [1, 2], buffer: 1),
                        TTensor(name: "a", shape: [1, 2]),
                        TTensor(name: "b", shape: [1, 2]),
                        TTensor(name: "y", shape: [1, 2], shapeSignature: [-1, 2]),
                    ],
                    inputs: [0], outputs: [4],
                    operators: [
                        TOperator(
                            opcode: 0, inputs: [0, 1], outputs: [2], optionsType: 11, options: FBTable([0: .i8(3)])),
                        TOperator(opcode: 1, inputs: [2, -1], outputs: [3], customOptions: flex),
                        TOperator(
                            opcode: 2, inputs: [3], outputs: [4], optionsType: 116, options: FBTable([0: .bool(true)])),
                    ])
            ],
            metadata: [FBTable([0: .string("min_runtime_version"), 1: .u32(2)])],
            signatures: [
                FBTable([
                    0: .tables([FBTable([0: .string("input"), 1: .u32(0)])]),
                    1: .tables([FBTable([0: .string("output"), 1: .u32(4)])]),
                    2: .string("serving_default"), 4: .u32(0),
                ])
            ])
    }
}

/// Expects decoding `model` to fail with `expected`'s case and a message containing `text`.
func expectModelError(
    _ model: TModel, _ text: String, limits: ModelLimits = ModelLimits(),
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectModelError(bytes: model.bytes, text, limits: limits, sourceLocation: sourceLocation)
}

func expectModelError(
    bytes: [UInt8], _ text: String, limits: ModelLimits = ModelLimits(),
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        _ = try Model(bytes: ModelBytes(bytes), limits: limits)
        Issue.record("expected an error containing '\(text)'", sourceLocation: sourceLocation)
    } catch {
        #expect(error.description.contains(text), "got: \(error.description)", sourceLocation: sourceLocation)
    }
}
