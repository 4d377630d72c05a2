import TFLiteFormat

// Stage 1 of decoding: copy what the schema views say into plain structs, without
// judging it. Only structural faults (bad offsets, truncated vectors...) fail here;
// stage 2 (`ModelDecoder.build`) checks that the values make a consistent graph.

struct RawBuffer {
    var dataRange: Range<Int>?
    var offset: UInt64
    var size: UInt64
}

struct RawOperatorCode {
    var code: Int32
    var customCode: String?
    var version: Int32
}

struct RawQuantization {
    var scale: [Float]?
    var zeroPoint: [Int64]?
    var min: [Float]?
    var max: [Float]?
    var quantizedDimension: Int32
    var detailsType: UInt8
}

struct RawDimension {
    var format: Int8
    var denseSize: Int32
    var segments: Schema.SparseIndexVector?
    var indices: Schema.SparseIndexVector?
}

struct RawSparsity {
    var traversalOrder: [Int32]
    var blockMap: [Int32]
    var dimensions: [RawDimension]
}

struct RawTensor {
    var shape: [Int32]
    var type: Int8
    var buffer: UInt32
    var name: String
    var quantization: RawQuantization?
    var isVariable: Bool
    var sparsity: RawSparsity?
    var shapeSignature: [Int32]?
}

struct RawOperator {
    var opcodeIndex: UInt32
    var inputs: [Int32]
    var outputs: [Int32]
    var intermediates: [Int32]
    var options: BuiltinOptions
    var options2: BuiltinOptions2
    var customOptionsRange: Range<Int>?
    var customOptionsFormat: Int8
    var largeCustomOptionsOffset: UInt64
    var largeCustomOptionsSize: UInt64
}

struct RawSubgraph {
    var name: String
    var tensors: [RawTensor]
    var inputs: [Int32]
    var outputs: [Int32]
    var operators: [RawOperator]
}

struct RawTensorMap {
    var name: String
    var tensorIndex: UInt32
}

struct RawSignature {
    var key: String
    var subgraphIndex: UInt32
    var inputs: [RawTensorMap]
    var outputs: [RawTensorMap]
}

struct RawModel {
    var description: String?
    var operatorCodes: [RawOperatorCode] = []
    var subgraphs: [RawSubgraph] = []
    var buffers: [RawBuffer] = []
    var metadataBuffer: [Int32] = []
    var metadata: [(name: String, buffer: UInt32)] = []
    var signatures: [RawSignature] = []
}

extension RawModel {
    init(_ model: Schema.Model) throws(FlatBufferError) {
        description = try model.description
        if let codes = try model.operatorCodes {
            for i in 0 ..< codes.count {
                let code = try codes.element(i)
                operatorCodes.append(
                    RawOperatorCode(code: try code.code, customCode: try code.customCode, version: try code.version))
            }
        }
        if let buffers = try model.buffers {
            self.buffers.reserveCapacity(buffers.count)
            for i in 0 ..< buffers.count {
                let buffer = try buffers.element(i)
                self.buffers.append(
                    RawBuffer(dataRange: try buffer.dataRange, offset: try buffer.offset, size: try buffer.size))
            }
        }
        if let subgraphs = try model.subgraphs {
            for i in 0 ..< subgraphs.count {
                self.subgraphs.append(try RawSubgraph(try subgraphs.element(i)))
            }
        }
        metadataBuffer = try model.metadataBuffer ?? []
        if let metadata = try model.metadata {
            for i in 0 ..< metadata.count {
                let entry = try metadata.element(i)
                self.metadata.append((try entry.name ?? "", try entry.buffer))
            }
        }
        if let signatures = try model.signatureDefs {
            for i in 0 ..< signatures.count {
                let signature = try signatures.element(i)
                self.signatures.append(
                    RawSignature(
                        key: try signature.signatureKey ?? "",
                        subgraphIndex: try signature.subgraphIndex,
                        inputs: try Self.tensorMaps(try signature.inputs),
                        outputs: try Self.tensorMaps(try signature.outputs)))
            }
        }
    }

    static func tensorMaps(_ list: Schema.TableList<Schema.TensorMap>?) throws(FlatBufferError) -> [RawTensorMap] {
        guard let list else { return [] }
        var result: [RawTensorMap] = []
        for i in 0 ..< list.count {
            let map = try list.element(i)
            result.append(RawTensorMap(name: try map.name ?? "", tensorIndex: try map.tensorIndex))
        }
        return result
    }
}

extension RawSubgraph {
    init(_ subgraph: Schema.SubGraph) throws(FlatBufferError) {
        name = try subgraph.name ?? ""
        inputs = try subgraph.inputs ?? []
        outputs = try subgraph.outputs ?? []
        tensors = []
        if let list = try subgraph.tensors {
            tensors.reserveCapacity(list.count)
            for i in 0 ..< list.count { tensors.append(try RawTensor(try list.element(i))) }
        }
        operators = []
        if let list = try subgraph.operators {
            operators.reserveCapacity(list.count)
            for i in 0 ..< list.count { operators.append(try RawOperator(try list.element(i))) }
        }
    }
}

extension RawTensor {
    init(_ tensor: Schema.Tensor) throws(FlatBufferError) {
        shape = try tensor.shape ?? []
        type = try tensor.type
        buffer = try tensor.buffer
        name = try tensor.name ?? ""
        isVariable = try tensor.isVariable
        shapeSignature = try tensor.shapeSignature
        if let q = try tensor.quantization {
            quantization = RawQuantization(
                scale: try q.scale, zeroPoint: try q.zeroPoint, min: try q.min, max: try q.max,
                quantizedDimension: try q.quantizedDimension, detailsType: try q.detailsType)
        }
        if let s = try tensor.sparsity {
            var dimensions: [RawDimension] = []
            if let list = try s.dimMetadata {
                for i in 0 ..< list.count {
                    let d = try list.element(i)
                    dimensions.append(
                        RawDimension(
                            format: try d.format, denseSize: try d.denseSize, segments: try d.arraySegments,
                            indices: try d.arrayIndices))
                }
            }
            sparsity = RawSparsity(
                traversalOrder: try s.traversalOrder ?? [], blockMap: try s.blockMap ?? [], dimensions: dimensions)
        }
    }
}

extension RawOperator {
    init(_ op: Schema.Operator) throws(FlatBufferError) {
        opcodeIndex = try op.opcodeIndex
        inputs = try op.inputs ?? []
        outputs = try op.outputs ?? []
        intermediates = try op.intermediates ?? []
        let (type, table) = try op.builtinOptions
        options = try BuiltinOptions(typeID: type, table: table)
        customOptionsRange = try op.customOptionsRange
        customOptionsFormat = try op.customOptionsFormat
        largeCustomOptionsOffset = try op.largeCustomOptionsOffset
        largeCustomOptionsSize = try op.largeCustomOptionsSize
        let (type2, table2) = try op.builtinOptions2
        options2 = try BuiltinOptions2(typeID: type2, table: table2)
        // Read (and so verify) the mutation flags even though the model does not keep
        // them: a malformed vector is still a malformed file.
        _ = try op.mutatingVariableInputs
    }
}
