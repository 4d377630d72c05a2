import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct BatchMatMulTests {
    /// Direct loops with NumPy broadcasting of the batch dimensions.
    func reference(_ x: [Float], _ xs: [Int], _ y: [Float], _ ys: [Int], adjX: Bool, adjY: Bool) -> (
        values: [Float], shape: [Int]
    ) {
        let rank = Swift.max(xs.count, ys.count)
        let xb = [Int](repeating: 1, count: rank - xs.count) + xs
        let yb = [Int](repeating: 1, count: rank - ys.count) + ys
        let batch = (0 ..< rank - 2).map { Swift.max(xb[$0], yb[$0]) }
        let (xr, xc, yr, yc) = (xb[rank - 2], xb[rank - 1], yb[rank - 2], yb[rank - 1])
        let m = adjX ? xc : xr, k = adjX ? xr : xc, n = adjY ? yr : yc
        var out: [Float] = []
        let count = batch.reduce(1, *)
        for flat in 0 ..< count {
            var rest = flat, xo = 0, yo = 0, xStride = xr * xc, yStride = yr * yc
            for d in stride(from: rank - 3, through: 0, by: -1) {
                let i = rest % batch[d]
                rest /= batch[d]
                if xb[d] != 1 { xo += i * xStride }
                if yb[d] != 1 { yo += i * yStride }
                xStride *= xb[d]
                yStride *= yb[d]
            }
            for i in 0 ..< m {
                for j in 0 ..< n {
                    var acc: Float = 0
                    for p in 0 ..< k {
                        let a = adjX ? x[xo + p * xc + i] : x[xo + i * xc + p]
                        let b = adjY ? y[yo + j * yc + p] : y[yo + p * yc + j]
                        acc += a * b
                    }
                    out.append(acc)
                }
            }
        }
        return (out, batch + [m, n])
    }

    func check(
        _ xs: [Int], _ ys: [Int], adjX: Bool = false, adjY: Bool = false, seed: UInt64, level: KernelLevel? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let x = seededFloats(xs.reduce(1, *), seed: seed), y = seededFloats(ys.reduce(1, *), seed: seed + 1)
        let got = try runFloatGraph([x, y], level: level) { g in
            let xi = g.input(xs, .float32), yi = g.input(ys, .float32)
            let z = g.tensor([1], .float32)
            g.op(
                .batchMatmul, inputs: [xi, yi], outputs: [z],
                options: .batchMatMul(BatchMatMulOptions(adjointX: adjX, adjointY: adjY)))
            g.output(z)
        }
        let ref = reference(x, xs, y, ys, adjX: adjX, adjY: adjY)
        #expect(got.shape == ref.shape, sourceLocation: sourceLocation)
        expectClose(got.values, ref.values, "\(xs) x \(ys) adj \(adjX) \(adjY)", sourceLocation: sourceLocation)
    }

    @Test func plainAndAdjoint() throws {
        var seed: UInt64 = 1
        for adjX in [false, true] {
            for adjY in [false, true] {
                let xs = adjX ? [3, 5, 4] : [3, 4, 5]
                let ys = adjY ? [3, 6, 5] : [3, 5, 6]
                try check(xs, ys, adjX: adjX, adjY: adjY, seed: seed)
                seed += 2
            }
        }
        try check([7, 3], [3, 2], seed: 20)
    }

    @Test func broadcastsBatchDimensions() throws {
        try check([2, 1, 3, 4], [3, 4, 5], seed: 30) // → [2, 3, 3, 5]
        try check([1, 4, 6], [5, 6, 2], adjY: false, seed: 31)
        try check([2, 3, 1, 2, 4], [3, 5, 3, 4], adjX: false, adjY: true, seed: 32) // → [2, 3, 5, 2, 3]
        try check([4, 3], [2, 2, 3, 4], seed: 33)
    }

    /// The portable loops (BLAS) and the vector levels' packed GEMM (RHS packed per matrix,
    /// reused across a broadcast, LHS transposed for `adjoint_x`) on shapes whose columns
    /// end mid-panel and whose rows end mid-block.
    @Test(arguments: KernelLevel.allCases.filter { $0 <= KernelLevel.host })
    func everyLevel(level: KernelLevel) throws {
        var seed: UInt64 = 50
        for (adjX, adjY) in [(false, false), (true, false), (false, true), (true, true)] {
            let xs = adjX ? [2, 1, 9, 13] : [2, 1, 13, 9]
            let ys = adjY ? [3, 17, 9] : [3, 9, 17]
            try check(xs, ys, adjX: adjX, adjY: adjY, seed: seed, level: level) // RHS reused across the batch
            try check(
                adjX ? [9, 70] : [70, 9], adjY ? [33, 9] : [9, 33], adjX: adjX, adjY: adjY, seed: seed + 5, level: level
            )
            seed += 10
        }
    }

    /// A NaN in the LHS reaches exactly its row's outputs (the packed GEMM's clamp to
    /// ±infinity lets it through).
    @Test func nanReachesItsRow() throws {
        var x = [Float](repeating: 1, count: 9 * 4)
        x[2 * 4 + 1] = .nan
        let got = try runFloatGraph([x, [Float](repeating: 0.5, count: 4 * 20)]) { g in
            let xi = g.input([9, 4], .float32), yi = g.input([4, 20], .float32)
            let z = g.tensor([1], .float32)
            g.op(
                .batchMatmul, inputs: [xi, yi], outputs: [z],
                options: .batchMatMul(BatchMatMulOptions(adjointX: false, adjointY: false)))
            g.output(z)
        }
        for (i, v) in got.values.enumerated() { #expect(i / 20 == 2 ? v.isNaN : v == 2, "output \(i)") }
    }

    @Test func largeMatricesAreTiled() throws {
        try check([130, 40], [40, 150], seed: 40) // row tiles
        try check([1, 2, 50], [2, 100, 50], adjY: true, seed: 41) // column tiles, two matrices
    }

    @Test func absentOptionsMeanNoAdjoint() throws {
        let got = try runFloatGraph([[1, 2, 3, 4], [1, 0, 0, 2]]) { g in
            let x = g.input([2, 2], .float32), y = g.input([2, 2], .float32)
            let z = g.tensor([1], .float32)
            g.op(.batchMatmul, inputs: [x, y], outputs: [z])
            g.output(z)
        }
        #expect(got.values == [1, 4, 3, 8])
    }

    func graph(_ xs: [Int], _ ys: [Int], type: ElementType = .float32, adjX: Bool = false) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(xs, type), y = g.input(ys, type)
        let z = g.tensor([1], type)
        g.op(
            .batchMatmul, inputs: [x, y], outputs: [z],
            options: .batchMatMul(BatchMatMulOptions(adjointX: adjX, adjointY: false)))
        g.output(z)
        return g
    }

    @Test func prepareRejectsBadOperators() {
        expectInvalid(graph([4], [4, 2]), "rank 2 to 5")
        expectInvalid(graph([1, 1, 1, 1, 2, 3], [3, 2]), "rank 2 to 5")
        expectInvalid(graph([2, 3], [4, 2]), "inner dimensions differ")
        expectInvalid(graph([2, 3], [2, 2], adjX: false), "inner dimensions differ")
        expectInvalid(graph([2, 2, 3], [3, 3, 2]), "do not broadcast")
        expectUnsupportedTypes(graph([2, 3], [3, 2], type: .uint8))
    }
}
