import Testing
import FlatBufferTestSupport
import TFLiteFormat
@testable import TFLiteModel

@Suite("Model decoding")
struct ModelDecoderTests {
    @Test func minimalModelDecodesIntoTheExpectedModel() throws {
        let model = try TModel.minimal().decode()
        #expect(model.version == 3)
        #expect(model.modelDescription == "test model")
        #expect(model.operatorCodes.map(\.name) == ["ADD", "CUSTOM:MyOp", "GELU"])
        #expect(model.operatorCodes[2].version == 2)
        #expect(model.subgraphs.count == 1)

        let graph = model.mainSubgraph
        #expect(graph.name == "main")
        #expect(graph.inputs == [0] && graph.outputs == [4])
        #expect(graph.tensors.map(\.name) == ["x", "c", "a", "b", "y"])
        #expect(graph.tensors.allSatisfy { $0.shape == [1, 2] && $0.type == .float32 })
        #expect(graph.tensors.map(\.index) == [0, 1, 2, 3, 4])
        #expect(graph.tensors[4].shapeSignature == [-1, 2])
        #expect(graph.tensors[0].shapeSignature == nil)

        let constant = try #require(graph.tensors[1].constantData)
        #expect(graph.tensors[1].bufferIndex == 1 && graph.tensors[1].isConstant)
        #expect(constant.array == floats([1, 2]))
        #expect(constant.storage === model.bytes)
        #expect(!graph.tensors[0].isConstant && graph.tensors[0].quantization == nil)

        #expect(graph.operators.count == 3)
        let add = graph.operators[0]
        #expect(add.index == 0 && add.code.builtin == .add)
        #expect(add.inputs == [0, 1] && add.outputs == [2])
        #expect(add.options == .add(activation: .relu6, potScaleInt16: true))

        let custom = graph.operators[1]
        #expect(custom.inputs == [2, -1])
        #expect(custom.options == BuiltinOptions.none)
        #expect(custom.customOptionsFormat == 0)
        let options = try FlexBuffer(copying: try #require(custom.customOptions).bytes).root.asMap()
        #expect(try options["max_detections"]?.asInt() == 10)
        #expect(try options["scale"]?.asFloat() == 0.5)

        #expect(graph.operators[2].code.builtin.rawValue == 150)
        #expect(graph.operators[2].options == .gelu(approximate: true))

        #expect(model.minRuntimeVersion == "1.5.0")
        #expect(model.metadata.map(\.name) == ["min_runtime_version"])
        #expect(
            model.signatures == [
                Signature(
                    key: "serving_default", subgraphIndex: 0,
                    inputs: [.init(name: "input", tensorIndex: 0)], outputs: [.init(name: "output", tensorIndex: 4)])
            ])
    }

    @Test func operatorCodeIsTheLargerOfBothFields() throws {
        var m = TModel.minimal()
        // Old file: only the 8-bit field. New file: 127 placeholder plus the real code.
        m.opcodes[0] = FBTable([0: .i8(0)])
        m.opcodes[2] = FBTable([0: .i8(127), 3: .i32(150)])
        let model = try m.decode()
        #expect(model.operatorCodes[0].builtin == .add && model.operatorCodes[0].version == 1)
        #expect(model.operatorCodes[2].builtin.name == "GELU")
        #expect(BuiltinOperator(rawValue: 209).name == "STABLEHLO_CASE")
        #expect(BuiltinOperator(rawValue: 210).name == "BUILTIN_210")
        #expect(BuiltinOperator.names.count == 210)
    }

    @Test func outOfLineBufferAndLargeCustomOptions() throws {
        var m = TModel.minimal()
        // Lay the tables out first; the placeholder values have the final sizes.
        m.buffers[1] = FBTable([1: .u64(0), 2: .u64(8)])
        m.subgraphs[0].operators[1].customOptions = nil
        m.subgraphs[0].operators[1].largeCustomOptions = (0, 3)
        let base = m.bytes.count
        m.trailer = floats([5, 6]) + [7, 7, 7]
        m.buffers[1] = FBTable([1: .u64(UInt64(base)), 2: .u64(8)])
        m.subgraphs[0].operators[1].largeCustomOptions = (UInt64(base + 8), 3)
        #expect(m.bytes.count == base + 11)
        let graph = try m.decode().mainSubgraph
        #expect(graph.tensors[1].constantData?.array == floats([5, 6]))
        #expect(graph.operators[1].customOptions?.array == [7, 7, 7])
    }

    @Test func quantizationPerTensorAndPerAxis() throws {
        var m = TModel.minimal()
        m.subgraphs[0].tensors[0].quantization = FBTable([
            2: .f32s([0.5]), 3: .i64s([-3]), 0: .f32s([-1]), 1: .f32s([1]),
        ])
        m.subgraphs[0].tensors[2].quantization = FBTable([2: .f32s([0.1, 0.2]), 3: .i64s([0, 0]), 6: .i32(1)])
        // Present but empty scales mean "not quantized".
        m.subgraphs[0].tensors[3].quantization = FBTable([2: .f32s([]), 3: .i64s([])])
        let graph = try m.decode().mainSubgraph
        #expect(graph.tensors[0].quantization == Quantization(scales: [0.5], zeroPoints: [-3], min: [-1], max: [1]))
        let axis = try #require(graph.tensors[2].quantization)
        #expect(axis.isPerAxis && axis.quantizedDimension == 1 && axis.scales == [0.1, 0.2])
        #expect(graph.tensors[3].quantization == nil)
    }

    @Test func sparseConstantSkipsTheDenseSizeCheck() throws {
        var m = TModel.minimal()
        m.subgraphs[0].tensors[1].shape = [2, 2]
        m.subgraphs[0].tensors[1].sparsity = FBTable([
            0: .i32s([0, 1]),
            2: .tables([
                FBTable([0: .i8(0), 1: .i32(2)]),
                FBTable([
                    0: .i8(1), 2: .u8(1), 3: .table(FBTable([0: .i32s([0, 1, 2])])), 4: .u8(3),
                    5: .table(FBTable([0: .bytes([0, 1], align: 4)])),
                ]),
            ]),
        ])
        let sparsity = try #require(try m.decode().mainSubgraph.tensors[1].sparsity)
        #expect(sparsity.traversalOrder == [0, 1] && sparsity.blockMap == [])
        #expect(
            sparsity.dimensions[0]
                == Sparsity.Dimension(format: .dense, denseSize: 2, arraySegments: [], arrayIndices: []))
        #expect(
            sparsity.dimensions[1]
                == Sparsity.Dimension(
                    format: .sparseCSR, denseSize: 0, arraySegments: [0, 1, 2], arrayIndices: [0, 1]))
    }

    @Test func stringConstant() throws {
        var m = TModel.minimal()
        // Two strings "ab", "c": count, 3 offsets, then the bytes.
        let header: [Int32] = [2, 16, 18, 19]
        m.buffers.append(buffer(header.flatMap(le) + Array("abc".utf8)))
        m.subgraphs[0].tensors.append(TTensor(name: "s", shape: [2], type: 5, buffer: 3))
        let tensor = try m.decode().mainSubgraph.tensors[5]
        #expect(tensor.type == .string && tensor.constantData?.count == 19)
    }

    /// Malformed STRING constants: every offset and the count are checked at load.
    @Test func malformedStringConstantsAreRefused() throws {
        let cases: [([Int32], String)] = [
            ([3, 16, 18, 19], "holds 3 strings, but the shape has 2 elements"),
            ([2, 15, 18, 19], "offset 0 is 15"),
            ([2, 16, 20, 19], "offset 1 is 20"),
            ([2, 16, 18, 17], "offset 2 is 17"),
            ([2, 16, 17, 18], "last offset is 18"),
        ]
        for (header, message) in cases {
            var m = TModel.minimal()
            m.buffers.append(buffer(header.flatMap(le) + Array("abc".utf8)))
            m.subgraphs[0].tensors.append(TTensor(name: "s", shape: [2], type: 5, buffer: 3))
            do {
                _ = try m.decode()
                Issue.record("accepted \(header)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func emptyBufferListAndScalarQuantization() throws {
        var m = TModel.minimal()
        m.buffers = []
        m.metadata = []
        m.subgraphs[0].tensors[1].buffer = 0
        m.subgraphs[0].inputs = [0, 1]
        // A quantized scalar: per-tensor with quantized_dimension 0 on rank 0.
        m.subgraphs[0].tensors[1].shape = []
        m.subgraphs[0].tensors[1].quantization = FBTable([2: .f32s([1]), 3: .i64s([0])])
        let graph = try m.decode().mainSubgraph
        #expect(graph.tensors[1].constantData == nil && graph.tensors[1].shape == [])
        #expect(graph.tensors[1].elementCount == 1)
    }

    @Test func absentOptionsTableIsNone() throws {
        var m = TModel.minimal()
        m.subgraphs[0].operators[0].options = nil
        #expect(try m.decode().mainSubgraph.operators[0].options == BuiltinOptions.none)
    }

    static let optionCases: [(UInt8, FBTable, BuiltinOptions)] = [
        (
            1, FBTable([0: .i8(1), 1: .i32(2), 2: .i32(3), 3: .i8(1)]),
            .conv2D(Conv2DOptions(padding: .valid, strideWidth: 2, strideHeight: 3, activation: .relu))
        ),
        (
            1, FBTable([0: .i8(0), 4: .i32(2), 5: .i32(4)]),
            .conv2D(
                Conv2DOptions(
                    padding: .same, strideWidth: 0, strideHeight: 0, activation: .none, dilationWidth: 2,
                    dilationHeight: 4))
        ),
        (
            2, FBTable([0: .i8(1), 1: .i32(1), 2: .i32(1), 3: .i32(4), 4: .i8(3)]),
            .depthwiseConv2D(
                DepthwiseConv2DOptions(
                    padding: .valid, strideWidth: 1, strideHeight: 1, depthMultiplier: 4, activation: .relu6))
        ),
        (
            5, FBTable([0: .i8(0), 1: .i32(2), 2: .i32(2), 3: .i32(3), 4: .i32(3), 5: .i8(0)]),
            .pool2D(
                Pool2DOptions(
                    padding: .same, strideWidth: 2, strideHeight: 2, filterWidth: 3, filterHeight: 3, activation: .none)
            )
        ),
        (
            8, FBTable([0: .i8(1), 2: .bool(true)]),
            .fullyConnected(FullyConnectedOptions(activation: .relu, keepNumDims: true))
        ),
        (9, FBTable([0: .f32(0.75)]), .softmax(beta: 0.75)),
        (9, FBTable(), .softmax(beta: 0)),
        (10, FBTable([0: .i32(-1), 1: .i8(2)]), .concatenation(axis: -1, activation: .reluN1To1)),
        (11, FBTable([1: .bool(false)]), .add(activation: .none, potScaleInt16: false)),
        (28, FBTable([0: .i8(4)]), .sub(activation: .tanh, potScaleInt16: true)),
        (21, FBTable([0: .i8(9)]), .mul(activation: .unknown(9))),
        (29, FBTable([0: .i8(5)]), .div(activation: .signBit)),
        (17, FBTable([0: .i32s([1, -1])]), .reshape(newShape: [1, -1])),
        (17, FBTable(), .reshape(newShape: nil)),
        (
            15, FBTable([2: .bool(true), 3: .bool(false)]),
            .resizeBilinear(ResizeOptions(alignCorners: true, halfPixelCenters: false))
        ),
        (
            74, FBTable([1: .bool(true)]),
            .resizeNearestNeighbor(ResizeOptions(alignCorners: false, halfPixelCenters: true))
        ),
        (19, FBTable([0: .i32(2)]), .spaceToDepth(blockSize: 2)),
        (94, FBTable([0: .i32(4)]), .depthToSpace(blockSize: 4)),
        (27, FBTable([0: .bool(true)]), .reducer(keepDims: true)),
        (30, FBTable([0: .i32s([1, 2])]), .squeeze(squeezeDims: [1, 2])),
        (30, FBTable(), .squeeze(squeezeDims: [])),
        (
            32, FBTable([0: .i32(1), 1: .i32(2), 2: .i32(3), 3: .i32(4), 4: .i32(5), 5: .bool(true)]),
            .stridedSlice(
                StridedSliceOptions(
                    beginMask: 1, endMask: 2, ellipsisMask: 3, newAxisMask: 4, shrinkAxisMask: 5, offset: true))
        ),
        (23, FBTable([0: .i32(1), 1: .i32(2)]), .gather(axis: 1, batchDims: 2)),
        (75, FBTable([0: .f32(0.2)]), .leakyRelu(alpha: 0.2)),
        (
            49, FBTable([0: .i8(1), 1: .i32(2), 2: .i32(2), 3: .i8(1)]),
            .transposeConv(TransposeConvOptions(padding: .valid, strideWidth: 2, strideHeight: 2, activation: .relu))
        ),
        (59, FBTable([0: .i32(3), 1: .i32(1)]), .pack(valuesCount: 3, axis: 1)),
        (64, FBTable([0: .i32(2), 1: .i32(-1)]), .unpack(num: 2, axis: -1)),
        (35, FBTable([0: .i32(3)]), .split(numSplits: 3)),
        (79, FBTable([0: .i32(2)]), .splitV(numSplits: 2)),
        (77, FBTable([0: .i8(1)]), .mirrorPad(mode: 1)),
        (7, FBTable([0: .i8(4), 1: .bool(true)]), .rnn(RNNOptions(activation: .tanh, asymmetricQuantizeInputs: true))),
        (7, FBTable(), .rnn(RNNOptions(activation: .none))),
        (
            31, FBTable([0: .bool(true), 1: .i8(1)]),
            .sequenceRNN(SequenceRNNOptions(timeMajor: true, activation: .relu))
        ),
        (
            70, FBTable([1: .i8(4), 2: .bool(true), 3: .bool(true)]),
            .bidirectionalSequenceRNN(
                BidirectionalSequenceRNNOptions(
                    timeMajor: false, activation: .tanh, mergeOutputs: true, asymmetricQuantizeInputs: true))
        ),
        (
            6, FBTable([0: .i32(2), 1: .i8(1), 2: .bool(true)]),
            .svdf(SVDFOptions(rank: 2, activation: .relu, asymmetricQuantizeInputs: true))
        ),
        (6, FBTable(), .svdf(SVDFOptions(rank: 0, activation: .none))),
        (
            101, FBTable([0: .bool(true), 2: .bool(true)]),
            .batchMatMul(BatchMatMulOptions(adjointX: true, adjointY: false, asymmetricQuantizeInputs: true))
        ),
        (37, FBTable([0: .i8(0), 1: .i8(9)]), .cast(inType: .float32, outType: .int8)),
        (55, FBTable([0: .i8(4)]), .shape(outType: .int64)),
        (
            14, FBTable([0: .i8(4), 1: .f32(1.5), 2: .f32(0.5), 3: .i8(1), 4: .bool(true)]),
            .lstm(
                LSTMOptions(
                    activation: .tanh, cellClip: 1.5, projClip: 0.5, kernelType: 1, asymmetricQuantizeInputs: true))
        ),
        (
            71, FBTable([0: .i8(4), 3: .bool(true), 4: .bool(true), 5: .bool(true)]),
            .unidirectionalSequenceLSTM(
                LSTMOptions(
                    activation: .tanh, timeMajor: true, asymmetricQuantizeInputs: true, diagonalRecurrentTensors: true))
        ),
        (
            69, FBTable([0: .i8(4), 2: .f32(3), 3: .bool(true), 5: .bool(true)]),
            .bidirectionalSequenceLSTM(
                LSTMOptions(
                    activation: .tanh, projClip: 3, timeMajor: true, mergeOutputs: true, asymmetricQuantizeInputs: true)
            )
        ),
        (69, FBTable([4: .bool(false)]), .bidirectionalSequenceLSTM(LSTMOptions(activation: .none))),
        (22, FBTable(), .empty(typeID: 22)),
        (91, FBTable(), .empty(typeID: 91)),
        (16, FBTable([0: .u32(1)]), .other(typeID: 16)),
        (250, FBTable(), .other(typeID: 250)),
    ]

    @Test(arguments: optionCases.indices)
    func builtinOptionsTables(caseIndex: Int) throws {
        let (type, table, expected) = Self.optionCases[caseIndex]
        var m = TModel.minimal()
        m.subgraphs[0].operators[0].optionsType = type
        m.subgraphs[0].operators[0].options = table
        #expect(try m.decode().mainSubgraph.operators[0].options == expected)
    }

    @Test func optionsTypeNamesFollowTheSchema() {
        #expect(Schema.BuiltinOptionsType.names.count == 127)
        #expect(Schema.BuiltinOptionsType.name(101) == "BatchMatMulOptions")
        #expect(Schema.BuiltinOptionsType.name(Schema.BuiltinOptionsType.svdf) == "SVDFOptions")
        #expect(Schema.BuiltinOptionsType.name(Schema.BuiltinOptionsType.rnn) == "RNNOptions")
        #expect(Schema.BuiltinOptionsType.name(Schema.BuiltinOptionsType.sequenceRNN) == "SequenceRNNOptions")
        #expect(
            Schema.BuiltinOptionsType.name(Schema.BuiltinOptionsType.bidirectionalSequenceRNN)
                == "BidirectionalSequenceRNNOptions")
        #expect(Schema.BuiltinOptionsType.name(126) == "RightShiftOptions")
        #expect(Schema.BuiltinOptionsType.name(127) == "BuiltinOptions_127")
        #expect(Schema.BuiltinOptions2Type.name(23) == "StablehloCaseOptions")
    }
}
