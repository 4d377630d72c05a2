import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct DensifyTests {
    static func dense(_ i: Int) -> Sparsity.Dimension {
        .init(format: .dense, denseSize: i, arraySegments: [], arrayIndices: [])
    }
    static func csr(_ segments: [Int], _ indices: [Int]) -> Sparsity.Dimension {
        .init(format: .sparseCSR, denseSize: 0, arraySegments: segments, arrayIndices: indices)
    }

    /// A DENSIFY of a sparse constant feeding a graph output; returns the engine.
    static func engine<T>(_ values: [T], shape: [Int], _ type: ElementType, _ sparsity: Sparsity) throws -> Engine {
        var g = GraphBuilder()
        let x = g.constant(values, shape: shape, type)
        let y = g.tensor(shape, type)
        g.op(.densify, inputs: [x], outputs: [y])
        g.output(y)
        let model = g.model()
        var subgraph = model.subgraphs[0]
        subgraph.tensors[x].sparsity = sparsity
        let sparse = Model(
            bytes: model.bytes, version: model.version, modelDescription: model.modelDescription,
            operatorCodes: model.operatorCodes, subgraphs: [subgraph], signatures: [], metadata: [])
        return try Engine(model: sparse)
    }

    static func densify<T>(_ values: [T], shape: [Int], _ type: ElementType, _ sparsity: Sparsity) throws -> [T] {
        let engine = try engine(values, shape: shape, type, sparsity)
        try engine.allocate()
        #expect(engine.arenaSize == 0, "densified at prepare")
        try engine.invoke()
        return try engine.output(0, as: T.self)
    }

    @Test func csrMatrix() throws {
        // [3, 4]: row 0 has columns 1 and 3, row 1 is empty, row 2 has column 0.
        let s = Sparsity(
            traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 2, 2, 3], [1, 3, 0])])
        let y = try Self.densify([1.5, -2, 7] as [Float], shape: [3, 4], .float32, s)
        #expect(
            y == [
                0, 1.5, 0, -2,
                0, 0, 0, 0,
                7, 0, 0, 0,
            ])
    }

    @Test func columnMajorTraversal() throws {
        // [2, 3] stored by columns: the outer level walks dimension 1, the inner one dimension 0.
        let s = Sparsity(
            traversalOrder: [1, 0], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 1, 1, 3], [1, 0, 1])])
        let y = try Self.densify([10, 20, 30] as [Int32], shape: [2, 3], .int32, s)
        #expect(
            y == [
                0, 0, 20,
                10, 0, 30,
            ])
    }

    /// The example of TFLite's `testdata/sparse_tensor.json`: a 4×4 int8 matrix in 2×2
    /// blocks, block rows dense, block columns CSR, each stored block dense.
    @Test func blockSparseExampleFromTFLite() throws {
        let s = Sparsity(
            traversalOrder: [0, 1, 2, 3], blockMap: [0, 1],
            dimensions: [Self.dense(2), Self.csr([0, 2, 3], [0, 1, 1]), Self.dense(2), Self.dense(2)])
        let y = try Self.densify([1, 0, 0, 4, 2, 3, 0, 0, 5, 0, 0, 6] as [Int8], shape: [4, 4], .int8, s)
        #expect(
            y == [
                1, 0, 2, 3,
                0, 4, 0, 0,
                0, 0, 5, 0,
                0, 0, 0, 6,
            ])
    }

    @Test func blocksAlongOneDimensionWithFloat16() throws {
        // [2, 4] with 1×2 blocks along dimension 1 (blocked shape [2, 2]); row 0 keeps block 1,
        // row 1 keeps block 0. Values are float16 bit patterns.
        let s = Sparsity(
            traversalOrder: [0, 1, 2], blockMap: [1],
            dimensions: [Self.dense(2), Self.csr([0, 1, 2], [1, 0]), Self.dense(2)])
        let y = try Self.densify([0x3C00, 0x4000, 0x4200, 0x4400] as [UInt16], shape: [2, 4], .float16, s)
        #expect(
            y == [
                0, 0, 0x3C00, 0x4000,
                0x4200, 0x4400, 0, 0,
            ])
    }

    static func expectInvalid(_ s: Sparsity, values: [Float] = [1, 2, 3], shape: [Int] = [3, 4], _ reason: String) {
        #expect(throws: RuntimeError.invalidOperator(index: 0, op: "DENSIFY", reason: reason)) {
            try Self.engine(values, shape: shape, .float32, s)
        }
    }

    @Test func malformedMetadataIsRejected() {
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 2, 2, 3], [1, 4, 0])]),
            "level 1: index 4 is outside its dimension of size 4")
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 2, 1, 3], [1, 3, 0])]),
            "level 1: segments decrease at position 2")
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 2, 3], [1, 3, 0])]),
            "level 1 has 3 segments, expected 4")
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 2, 2, 4], [1, 3, 0])]),
            "level 1: segments must run from 0 to the 3 indices")
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(2), Self.csr([0, 2, 3], [1, 3, 0])]),
            "level 0 is DENSE with size 2, but its dimension has size 3")
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3), Self.csr([0, 1, 1, 2], [1, 0])]),
            "sparsity describes 2 stored values, but the tensor holds 3")
        Self.expectInvalid(
            Sparsity(traversalOrder: [0, 0], blockMap: [], dimensions: [Self.dense(3), Self.dense(3)]),
            "traversal_order [0, 0] must list the 2 tensor dimensions, then the 0 block dimensions")
        Self.expectInvalid(
            Sparsity(
                traversalOrder: [0, 1, 2], blockMap: [1], dimensions: [Self.dense(3), Self.dense(1), Self.dense(3)]),
            "block size 3 does not divide dimension 1 of size 4")
        Self.expectInvalid(
            Sparsity(traversalOrder: [0, 1], blockMap: [], dimensions: [Self.dense(3)]),
            "dim_metadata has 1 entries, expected 2")
    }

    @Test func inputMustBeSparseAndConstant() throws {
        var g = GraphBuilder()
        let x = g.constant([1, 2] as [Float], shape: [2])
        let y = g.tensor([2], .float32)
        g.op(.densify, inputs: [x], outputs: [y])
        g.output(y)
        #expect(
            throws: RuntimeError.invalidOperator(index: 0, op: "DENSIFY", reason: "input has no sparsity parameters")
        ) { try g.engine() }
    }
}
