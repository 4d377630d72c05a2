import TFLiteModel

/// Hybrid BATCH_MATMUL (float32 LHS and output, constant int8 RHS), as LiteRT computes it:
/// every row of `op(x)` (length `k`) is quantized on its own (``HybridInput``; asymmetric
/// when `asymmetric_quantize_inputs` is set). With `t = Σ_k q[m, k]·w[k, n]` (`Int32`) and the
/// RHS column sums `c[n] = Σ_k w[k, n]`, LiteRT corrects for the offset in single precision
/// and truncates back, `t' = Int32(Float(t) - Float(c[n])·Float(offset[m]))`, then
/// `z[m, n] = 0 + (scale[m]·s_w[n])·Float(t')`. There is no bias or activation.
///
/// Weights are per tensor, or per output column `n` (the RHS dimension that `n` indexes).
enum BatchMatMulHybrid {
    static func make(
        _ context: inout PrepareContext, options: BatchMatMulOptions, x: TensorState, y: TensorState,
        output: TensorState, m: Int, n: Int, k: Int,
        broadcast: BatchBroadcast
    ) throws(KernelError) -> any PreparedKernel {
        guard x.type == .float32, output.type == .float32 else { throw context.unsupportedTypes() }
        let w = try HybridWeights(
            y, channels: n, channelAxis: options.adjointY ? y.rank - 2 : y.rank - 1, op: "BATCH_MATMUL")
        let (yr, yc) = (y.shape[y.rank - 2], y.shape[y.rank - 1])
        let (xr, xc) = (x.shape[x.rank - 2], x.shape[x.rank - 1])
        let matrixK = try ConvCheck.product([n, k], "BATCH_MATMUL")
        let weightMatrices = matrixK == 0 ? 0 : y.elementCount / matrixK
        let lhsRows = try ConvCheck.product([x.elementCount / Swift.max(1, xr * xc), m], "BATCH_MATMUL")
        // Weights as [matrix][n][k] floats (op(y) transposed) and their sums over k.
        let packed = AlignedBuffer(zeroedCount: try ConvCheck.product([y.elementCount, 4], "BATCH_MATMUL"))
        let p = packed.typed(Float.self)
        var sums = [Int32](repeating: 0, count: weightMatrices * n)
        for mat in 0 ..< weightMatrices {
            for j in 0 ..< n {
                var sum: Int32 = 0
                for i in 0 ..< k {
                    let code = w.codes[mat * yr * yc + (options.adjointY ? j * yc + i : i * yc + j)]
                    p[(mat * n + j) * k + i] = Float(code)
                    sum = sum &+ Int32(code)
                }
                sums[mat * n + j] = sum
            }
        }
        let workerBytes = try ConvCheck.cacheLines(
            [try ConvCheck.product([2, m, n, 4], "BATCH_MATMUL")], "BATCH_MATMUL")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "BATCH_MATMUL")
        let work = context.requestThreadScratch(bytesPerThread: workerBytes)
        let codes = context.requestScratch(bytes: try ConvCheck.product([lhsRows, k, 4], "BATCH_MATMUL"))
        let rowParams = context.requestScratch(bytes: try ConvCheck.product([lhsRows, 8], "BATCH_MATMUL"))
        return BatchMatMulHybridGemm(
            x: x.index, output: output.index, m: m, n: n, k: k, adjointX: options.adjointX, xColumns: xc,
            asymmetric: options.asymmetricQuantizeInputs, lhsRows: lhsRows,
            broadcast: broadcast,
            packed: packed, columnSums: sums, weightScales: w.scales,
            codes: codes, rowParams: rowParams, work: work, workerBytes: workerBytes,
            gemm: ExactGEMM(maxAbsA: 128, maxAbsB: 128))
    }
}

/// Quantizes the LHS rows into float codes, then one ``ExactGEMM`` per output matrix
/// (matrices spread over threads, each computed whole by one worker).
struct BatchMatMulHybridGemm: PreparedKernel {
    let x: Int, output: Int
    let m: Int, n: Int, k: Int
    let adjointX: Bool
    /// Row length of the stored LHS matrices.
    let xColumns: Int
    let asymmetric: Bool
    let lhsRows: Int
    /// LHS and RHS matrix index of each output matrix.
    let broadcast: BatchBroadcast
    let packed: AlignedBuffer
    let columnSums: [Int32]
    let weightScales: [Float]
    let codes: Int, rowParams: Int, work: Int, workerBytes: Int
    let gemm: ExactGEMM

    func eval(_ context: EvalContext) throws(KernelError) {
        let a = UnsafePointer(context.pointer(x, as: Float.self))
        let z = context.pointer(output, as: Float.self)
        let q = context.scratch(codes, as: Float.self)
        let params = context.scratch(rowParams, as: Float.self) // [scale, offset] per LHS row
        let (m, n, k, xc, adjointX, asymmetric) = (
            self.m, self.n, self.k, self.xColumns, self.adjointX, self.asymmetric
        )
        context.parallel.forEachChunk(lhsRows) { rows in
            for r in rows {
                // Row r is row (r % m) of op(x) in LHS matrix r / m.
                let matrix = a + (r / m) * m * k
                let start = adjointX ? matrix + r % m : matrix + (r % m) * xc
                let (scale, offset) = HybridInput.quantize(
                    start, count: k, stride: adjointX ? xc : 1,
                    asymmetric: asymmetric, into: q + r * k)
                params[2 * r] = scale
                params[2 * r + 1] = Float(offset)
            }
        }
        let w = UnsafePointer(packed.typed(Float.self))
        columnSums.withUnsafeBufferPointer { sums in
            weightScales.withUnsafeBufferPointer { ws in
                context.parallel.forEachChunkOnThread(broadcast.count) { thread, matrices in
                    let base = context.threadScratch(work, thread: thread, bytes: workerBytes)
                    let temp = base.assumingMemoryBound(to: Float.self)
                    let acc = (base + m * n * 4).assumingMemoryBound(to: Int32.self)
                    for i in matrices {
                        let (xi, wm) = broadcast.matrices(i)
                        let row0 = xi * m
                        gemm.run(
                            m: m, n: n, k: k, a: q + row0 * k, lda: k, b: w + wm * n * k, ldb: k,
                            temp: temp, acc: acc, ldacc: n)
                        for r in 0 ..< m {
                            let scale = params[2 * (row0 + r)], offset = params[2 * (row0 + r) + 1]
                            let out = z + (i * m + r) * n
                            for j in 0 ..< n {
                                let corrected = Float(acc[r * n + j]) - Float(sums[wm * n + j]) * offset
                                let total = HybridInput.truncatingToInt32(corrected)
                                out[j] = 0 + (scale * ws[j]) * Float(total)
                            }
                        }
                    }
                }
            }
        }
    }
}
