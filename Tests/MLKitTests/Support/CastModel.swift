import FlatBufferTestSupport
import Foundation

/// A one-operator model written to a `.tflite` file: `y = CAST(x)`, from `input` to
/// `output` type, both of shape `shape` (with an optional shape signature for dynamic
/// dimensions). CAST converts between every numeric type, so it exercises each element
/// type the custom-model API passes, and those it cannot.
enum CastModel {
    /// TFLite schema `TensorType` codes.
    enum TensorType: Int8 {
        case float32 = 0, int32 = 2, uint8 = 3, int64 = 4, string = 5, int8 = 9
    }

    /// - Parameter outputScale: quantizes the output with this scale and zero point 0.
    static func write(
        input: TensorType, output: TensorType, shape: [Int32], signature: [Int32]? = nil,
        outputScale: Float? = nil, to directory: URL
    ) throws -> String {
        func tensor(_ name: String, _ type: TensorType, scale: Float? = nil) -> FBTable {
            var t = FBTable([0: .i32s(shape), 1: .i8(type.rawValue), 2: .u32(0), 3: .string(name)])
            if let signature { t[7] = .i32s(signature) }
            if let scale { t[4] = .table(FBTable([2: .f32s([scale]), 3: .i64s([0])])) }
            return t
        }
        let cast = FBTable([0: .u32(0), 1: .i32s([0]), 2: .i32s([1])])
        let subgraph = FBTable([
            0: .tables([tensor("x", input), tensor("y", output, scale: outputScale)]), 1: .i32s([0]), 2: .i32s([1]),
            3: .tables([cast]), 4: .string("main"),
        ])
        let opcode = FBTable([0: .i8(53), 2: .i32(1), 3: .i32(53)])
        let model = FBTable([
            0: .u32(3), 1: .tables([opcode]), 2: .tables([subgraph]), 3: .string("cast"), 4: .tables([FBTable()]),
        ])
        let url = directory.appendingPathComponent("cast-\(input)-\(output)-\(UUID().uuidString).tflite")
        try Data(FlatBufferWriter.serialize(model, identifier: "TFL3")).write(to: url)
        return url.path
    }
}
