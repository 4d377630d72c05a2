import Testing
import FlatBufferTestSupport
import TFLiteFormat
@testable import TFLiteModel

/// Each malformed or inconsistent model fails to load with a message locating the fault.
@Suite("Model validation errors")
struct ModelValidationTests {
    typealias Edit = @Sendable (inout TModel) -> Void

    static let cases: [(String, Edit)] = [
        // Header and root.
        ("unsupported schema version 2", { $0.version = 2 }),
        ("file identifier is 'TFL2', expected 'TFL3'", { $0.identifier = "TFL2" }),
        ("the model has no subgraphs", { $0.subgraphs = [] }),
        // Operator codes and operators.
        ("operator code 0 has the negative builtin code -4", { $0.opcodes[0] = FBTable([0: .i8(-4), 3: .i32(-9)]) }),
        ("operator code 1 is CUSTOM but has no custom_code name", { $0.opcodes[1] = opcode(32) }),
        (
            "subgraph 0, operator 1: opcode_index 7 is out of range; the model has 3 operator codes",
            { $0.subgraphs[0].operators[1].opcode = 7 }
        ),
        (
            "subgraph 0, operator 0 (ADD): input 1 refers to tensor 301, but the subgraph has 5 tensors",
            { $0.subgraphs[0].operators[0].inputs[1] = 301 }
        ),
        ("subgraph 0, operator 0 (ADD): input 0 refers to tensor -2", { $0.subgraphs[0].operators[0].inputs[0] = -2 }),
        ("subgraph 0, operator 0 (ADD): output 0 refers to tensor -1", { $0.subgraphs[0].operators[0].outputs = [-1] }),
        (
            "subgraph 0, operator 2 (GELU): intermediate 0 refers to tensor 5",
            { $0.subgraphs[0].operators[2].intermediates = [5] }
        ),
        ("subgraph 0: graph input 0 refers to tensor -1", { $0.subgraphs[0].inputs = [-1] }),
        (
            "subgraph 0: graph output 0 refers to tensor 9, but the subgraph has 5 tensors",
            { $0.subgraphs[0].outputs = [9] }
        ),
        // Tensors.
        (
            "subgraph 0, tensor 2 ('a'): dimension 1 of shape [1, -2] is negative",
            { $0.subgraphs[0].tensors[2].shape = [1, -2] }
        ),
        (
            "subgraph 0, tensor 2 ('a'): rank 9 exceeds the limit of 8",
            { $0.subgraphs[0].tensors[2].shape = Array(repeating: 1, count: 9) }
        ),
        (
            "subgraph 0, tensor 2 ('a'): the element count of shape",
            { $0.subgraphs[0].tensors[2].shape = Array(repeating: Int32.max, count: 8) }
        ),
        (
            "subgraph 0, tensor 2 ('a'): FLOAT32 shape [65536, 65536, 65536] needs more than the limit",
            { $0.subgraphs[0].tensors[2].shape = [65536, 65536, 65536] }
        ),
        (
            "subgraph 0, tensor 4 ('y'): shape_signature [-3, 2] has a dimension below -1",
            { $0.subgraphs[0].tensors[4].shapeSignature = [-3, 2] }
        ),
        (
            "subgraph 0, tensor 1 ('c'): FLOAT32 shape [1, 3] needs 3 × 4 = 12 bytes, but buffer 1 holds 8",
            { $0.subgraphs[0].tensors[1].shape = [1, 3] }
        ),
        (
            "subgraph 0, tensor 1 ('c') refers to buffer 3, but the model has 3 buffers",
            { $0.subgraphs[0].tensors[1].buffer = 3 }
        ),
        (
            "subgraph 0, tensor 1 ('c') is a variable but has constant data in buffer 1",
            { $0.subgraphs[0].tensors[1].isVariable = true }
        ),
        ("buffer 0 must be empty", { $0.buffers[0] = buffer([1]) }),
        (
            "buffer 1: 8 bytes at file offset 4096 run past the end",
            { $0.buffers[1] = FBTable([1: .u64(4096), 2: .u64(8)]) }
        ),
        (
            "buffer 1: 2 bytes at file offset 18446744073709551615 run past",
            { $0.buffers[1] = FBTable([1: .u64(UInt64.max), 2: .u64(2)]) }
        ),
        // Quantization.
        (
            "subgraph 0, tensor 0 ('x') has 1 quantization scales but 2 zero points",
            { $0.subgraphs[0].tensors[0].quantization = FBTable([2: .f32s([1]), 3: .i64s([0, 0])]) }
        ),
        (
            "subgraph 0, tensor 0 ('x') has 1 quantization scales but 0 zero points",
            { $0.subgraphs[0].tensors[0].quantization = FBTable([2: .f32s([1])]) }
        ),
        (
            "subgraph 0, tensor 0 ('x'): quantized_dimension 2 is outside its rank 2",
            { $0.subgraphs[0].tensors[0].quantization = FBTable([2: .f32s([1]), 3: .i64s([0]), 6: .i32(2)]) }
        ),
        (
            "subgraph 0, tensor 0 ('x'): quantized_dimension -1 is outside",
            { $0.subgraphs[0].tensors[0].quantization = FBTable([2: .f32s([1]), 3: .i64s([0]), 6: .i32(-1)]) }
        ),
        (
            "subgraph 0, tensor 0 ('x') has 3 per-axis scales, but dimension 1 of shape [1, 2] is 2",
            {
                $0.subgraphs[0].tensors[0].quantization = FBTable([
                    2: .f32s([1, 1, 1]), 3: .i64s([0, 0, 0]), 6: .i32(1),
                ])
            }
        ),
        (
            "subgraph 0, tensor 0 ('x') uses quantization details type 1",
            { $0.subgraphs[0].tensors[0].quantization = FBTable([4: .u8(1), 5: .table(FBTable())]) }
        ),
        // Sparsity.
        (
            "subgraph 0, tensor 1 ('c'): sparsity has 1 traversal entries and 0 dimension metadata, expected 2",
            { $0.subgraphs[0].tensors[1].sparsity = FBTable([0: .i32s([0])]) }
        ),
        (
            "sparsity traversal_order [0, 0] is not a permutation",
            { $0.subgraphs[0].tensors[1].sparsity = FBTable([0: .i32s([0, 0]), 2: .tables([FBTable(), FBTable()])]) }
        ),
        (
            "sparse dimension 1 is SPARSE_CSR but lacks",
            {
                $0.subgraphs[0].tensors[1].sparsity = FBTable([
                    0: .i32s([0, 1]), 2: .tables([FBTable(), FBTable([0: .i8(1)])]),
                ])
            }
        ),
        // STRING constants.
        (
            "subgraph 0, tensor 5 ('s'): STRING buffer 3 holds 3 strings, but the shape has 2 elements",
            { m in
                m.buffers.append(buffer(([3, 20, 21, 22, 23] as [Int32]).flatMap(le) + [1, 2, 3]))
                m.subgraphs[0].tensors.append(TTensor(name: "s", shape: [2], type: 5, buffer: 3))
            }
        ),
        (
            "subgraph 0, tensor 5 ('s'): STRING buffer 3 offset 2 is 17",
            { m in
                m.buffers.append(buffer(([2, 16, 18, 17] as [Int32]).flatMap(le) + [1, 2, 3]))
                m.subgraphs[0].tensors.append(TTensor(name: "s", shape: [2], type: 5, buffer: 3))
            }
        ),
        (
            "subgraph 0, tensor 5 ('s'): STRING buffer 3 last offset is 18, but the buffer holds 19 bytes",
            { m in
                m.buffers.append(buffer(([2, 16, 17, 18] as [Int32]).flatMap(le) + [1, 2, 3]))
                m.subgraphs[0].tensors.append(TTensor(name: "s", shape: [2], type: 5, buffer: 3))
            }
        ),
        // Custom options.
        (
            "subgraph 0, operator 1 (CUSTOM:MyOp): large custom options: 16 bytes at file offset 100000",
            { $0.subgraphs[0].operators[1].largeCustomOptions = (100_000, 16) }
        ),
        // Data flow.
        (
            "subgraph 0, operator 0 (ADD): input 0 reads tensor 0 ('x'), which no earlier operator produces and which is not a graph input, constant or variable",
            { $0.subgraphs[0].inputs = [] }
        ),
        (
            "subgraph 0, operator 0 (CUSTOM:MyOp): input 0 reads tensor 2 ('a'), which no earlier operator produces",
            { $0.subgraphs[0].operators.swapAt(0, 1) }
        ),
        (
            "subgraph 0, operator 0 (ADD): output 0 writes tensor 1 ('c'), which is a constant",
            { $0.subgraphs[0].operators[0].outputs = [1] }
        ),
        (
            "subgraph 0, operator 0 (ADD): output 0 writes tensor 0 ('x'), which is a graph input",
            { $0.subgraphs[0].operators[0].outputs = [0] }
        ),
        (
            "subgraph 0: graph output 0 is tensor 4 ('y'), which no operator produces",
            { $0.subgraphs[0].operators.removeLast() }
        ),
        // Signatures and metadata.
        (
            "signature 0 ('serving_default') refers to subgraph 3, but the model has 1 subgraphs",
            { $0.signatures[0][4] = .u32(3) }
        ),
        (
            "signature 0 ('serving_default') output 0 ('output') refers to tensor 40, but subgraph 0 has 5 tensors",
            { $0.signatures[0][1] = .tables([FBTable([0: .string("output"), 1: .u32(40)])]) }
        ),
        (
            "metadata 0 ('min_runtime_version') refers to buffer 9, but the model has 3 buffers",
            { $0.metadata[0][1] = .u32(9) }
        ),
        ("metadata_buffer entry 1 refers to buffer -1", { $0.metadataBuffer = [2, -1] }),
    ]

    @Test(arguments: cases.indices)
    func locatedError(caseIndex: Int) {
        let (message, edit) = Self.cases[caseIndex]
        var model = TModel.minimal()
        edit(&model)
        expectModelError(model, message)
    }

    @Test func errorCases() throws {
        var m = TModel.minimal()
        m.version = 2
        #expect(throws: ModelError.unsupportedSchemaVersion(2)) { try m.decode() }
        m = TModel.minimal()
        m.identifier = "ABCD"
        #expect(throws: ModelError.wrongIdentifier(found: "ABCD")) { try m.decode() }
        var bytes = TModel.minimal().bytes
        bytes[4] = 0
        #expect(throws: ModelError.wrongIdentifier(found: "\\x00FL3")) { try Model(bytes: ModelBytes(bytes)) }
        m = TModel.minimal()
        m.subgraphs[0].tensors[0].shape = [-1]
        do {
            _ = try m.decode()
        } catch {
            guard case .invalidModel = error else { throw error }
        }
    }

    @Test func tooShortFiles() {
        expectModelError(bytes: [], "the file is 0 bytes; a TFLite model needs at least 12")
        expectModelError(bytes: Array("12345678901".utf8), "the file is 11 bytes")
    }

    @Test func structuralFaultsAreMalformed() throws {
        var bytes = TModel.minimal().bytes
        bytes.replaceSubrange(0 ..< 4, with: le(UInt32(bytes.count + 4)))
        expectModelError(bytes: bytes, "malformed model: Model: root offset")
        // Truncating a model mid-way gives a located structural error.
        let full = TModel.minimal().flatBufferBytes
        expectModelError(bytes: Array(full[..<(full.count - 40)]), "malformed model: Model")
    }

    @Test func verifierLimitsApply() {
        var limits = ModelLimits()
        limits.maxTables = 5
        expectModelError(TModel.minimal(), "model exceeds a limit: Model.", limits: limits)
        limits = ModelLimits()
        limits.maxDepth = 2
        expectModelError(TModel.minimal(), "nested deeper than 2", limits: limits)
        limits = ModelLimits()
        limits.maxRank = 1
        expectModelError(TModel.minimal(), "subgraph 0, tensor 0 ('x'): rank 2 exceeds the limit of 1", limits: limits)
        limits = ModelLimits()
        limits.maxTensorBytes = 7
        expectModelError(TModel.minimal(), "needs more than the limit of 7 bytes", limits: limits)
    }
}
