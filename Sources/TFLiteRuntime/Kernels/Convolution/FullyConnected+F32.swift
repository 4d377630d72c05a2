/// Float FULLY_CONNECTED: one GEMM `y[batch×out] = x[batch×in] · w[out×in]ᵀ` (the weights'
/// row-major layout is the transposed operand), bias and activation fused per row tile.
struct FullyConnectedF32: PreparedKernel {
    let input: Int, weights: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let epilogue: FloatBiasActivation

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(input, as: Float.self)
        let w = context.pointer(weights, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let epilogue = self.epilogue, units = self.units
        let finish = epilogue.isIdentity(hasBias: b != nil) ? nil : { (rows: Range<Int>) in
            epilogue.apply(rows: rows, output: y, rowStride: units, bias: b)
        }
        TiledGEMM.run(context.parallel, m: batch, n: units, k: depth, a: x, lda: depth,
                      b: w, ldb: depth, transposeB: true, c: y, ldc: units, finishRows: finish)
    }
}
