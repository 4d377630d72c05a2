import FlatBufferTestSupport
import TFLiteModel

/// A `.tflite` file built by hand with the test FlatBuffers writer, so that crafted
/// models go through the same loader and validation as files from disk.
struct FileModel {
    struct Tensor {
        var name: String
        var shape: [Int32]
        var type: Int8 = 0 // FLOAT32; INT32 is 2
        var buffer: UInt32 = 0
    }

    struct Op {
        var builtin: Int32
        var custom: String? = nil
        var inputs: [Int32]
        var outputs: [Int32]
        var optionsType: UInt8 = 0
        var options: FBTable? = nil
        var customOptions: [UInt8]? = nil
    }

    var tensors: [Tensor] = []
    /// Buffer 1... (buffer 0, "no data", is added when serializing).
    var buffers: [[UInt8]] = []
    var ops: [Op] = []
    var inputs: [Int32] = []
    var outputs: [Int32] = []

    @discardableResult
    mutating func tensor(_ shape: [Int32], type: Int8 = 0, data: [UInt8]? = nil, name: String? = nil) -> Int32 {
        var buffer: UInt32 = 0
        if let data {
            buffers.append(data)
            buffer = UInt32(buffers.count)
        }
        tensors.append(Tensor(name: name ?? "t\(tensors.count)", shape: shape, type: type, buffer: buffer))
        return Int32(tensors.count - 1)
    }

    mutating func input(_ shape: [Int32], type: Int8 = 0) -> Int32 {
        let t = tensor(shape, type: type)
        inputs.append(t)
        return t
    }

    var bytes: [UInt8] {
        let opcodes = ops.map { op -> FBTable in
            var t = FBTable([0: .i8(Int8(clamping: op.builtin)), 2: .i32(1), 3: .i32(op.builtin)])
            if let custom = op.custom { t[1] = .string(custom) }
            return t
        }
        let operators = ops.enumerated().map { i, op -> FBTable in
            var t = FBTable([0: .u32(UInt32(i)), 1: .i32s(op.inputs), 2: .i32s(op.outputs)])
            if op.optionsType != 0 { t[3] = .u8(op.optionsType) }
            if let options = op.options { t[4] = .table(options) }
            if let custom = op.customOptions { t[5] = .bytes(custom) }
            return t
        }
        let tensorTables = tensors.map { t in
            FBTable([0: .i32s(t.shape), 1: .i8(t.type), 2: .u32(t.buffer), 3: .string(t.name)])
        }
        let subgraph = FBTable([
            0: .tables(tensorTables), 1: .i32s(inputs), 2: .i32s(outputs),
            3: .tables(operators), 4: .string("main"),
        ])
        let bufferTables = [FBTable()] + buffers.map { FBTable([0: .bytes($0)]) }
        let model = FBTable([0: .u32(3), 1: .tables(opcodes), 2: .tables([subgraph]), 4: .tables(bufferTables)])
        return FlatBufferWriter.serialize(model, identifier: "TFL3")
    }

    func model() throws -> Model { try Model(bytes: ModelBytes(bytes)) }
}

extension Array where Element == Int32 {
    var littleEndianBytes: [UInt8] { flatMap { le($0) } }
}

extension Array where Element == Float {
    var littleEndianBytes: [UInt8] { flatMap { le($0.bitPattern) } }
}
