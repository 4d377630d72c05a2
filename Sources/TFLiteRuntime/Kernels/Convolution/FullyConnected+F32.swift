#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// Float FULLY_CONNECTED: one GEMM `y[batch×out] = x[batch×in] · w[out×in]ᵀ` (the weights'
/// row-major layout is the transposed operand), bias and activation fused per row tile.
struct FullyConnectedF32: PreparedKernel {
    let input: Int, weights: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let epilogue: FloatBiasActivation
    /// Few rows on a level with a matrix-vector microkernel: each row is one product
    /// against the weights as stored (no packing), the outputs split over the threads.
    let rowByRow: Bool
    /// Rows up to which ``rowByRow`` is chosen: past it the GEMM reuses each weight
    /// across rows, which a matrix-vector product cannot.
    static let maxRowByRow = 4

    init(
        _ context: PrepareContext, input: Int, weights: Int, bias: Int?, output: Int, batch: Int, units: Int,
        depth: Int,
        epilogue: FloatBiasActivation
    ) {
        (self.input, self.weights, self.bias, self.output) = (input, weights, bias, output)
        (self.batch, self.units, self.depth, self.epilogue) = (batch, units, depth, epilogue)
        rowByRow = context.kernelLevel >= .avx2 && batch <= Self.maxRowByRow
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        #if arch(x86_64)
        if rowByRow {
            let x = UnsafePointer(context.pointer(input, as: Float.self))
            let w = UnsafePointer(context.pointer(weights, as: Float.self))
            let y = context.pointer(output, as: Float.self)
            let b = context.optionalFloats(bias)
            let (units, depth, lower, upper) = (self.units, self.depth, epilogue.range.lower, epilogue.range.upper)
            // Blocks of 64 outputs; a block is worth a thread only with enough depth.
            let blocks = (units + 63) / 64
            context.parallel.forEachChunk(blocks, minimumChunk: Swift.max(1, 32768 / Swift.max(64 * depth, 1))) {
                range in
                let o0 = range.lowerBound * 64, o1 = Swift.min(units, range.upperBound * 64)
                for r in 0 ..< batch {
                    gemvF32AVX2(
                        n: o1 - o0, k: depth, x: x + r * depth, w: w + o0 * depth, ldw: depth,
                        bias: b.map { $0 + o0 }, lower: lower, upper: upper, y: y + r * units + o0)
                }
            }
            return
        }
        #endif
        let x = context.pointer(input, as: Float.self)
        let w = context.pointer(weights, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let epilogue = self.epilogue, units = self.units
        let finish =
            epilogue.isIdentity(hasBias: b != nil)
            ? nil
            : { (rows: Range<Int>) in
                epilogue.apply(rows: rows, output: y, rowStride: units, bias: b)
            }
        TiledGEMM.run(
            context.parallel, m: batch, n: units, k: depth, a: x, lda: depth,
            b: w, ldb: depth, transposeB: true, c: y, ldc: units, finishRows: finish)
    }
}
