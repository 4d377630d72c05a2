import TFLiteModel

/// Hybrid FULLY_CONNECTED (float32 input and output, constant int8 weights), as LiteRT's
/// kernels compute it: each input row is quantized on its own (``HybridInput``,
/// asymmetric when the options' `asymmetric_quantize_inputs` is set, else symmetric),
/// `acc[b, o] = Σ_i w[o, i]·(q[b, i] - offset[b])` in `Int32`, then
/// `y = act(bias[o] + Float(acc) · (scale[b] · s_w[o]))` in single precision.
///
/// (LiteRT subtracts `offset · Σ_i w[o, i]` after the plain dot product; in wrapping
/// `Int32` arithmetic that is the same number.)
enum FullyConnectedHybrid {
    static func make(
        _ context: inout PrepareContext, input: TensorState, weights: TensorState, bias: TensorState?,
        output: TensorState, options: FullyConnectedOptions, range: FloatActivationRange,
        batch: Int, units: Int, depth: Int
    ) throws(KernelError) -> any PreparedKernel {
        try HybridCheck.floats(context, input: input, bias: bias, output: output)
        let w = try HybridWeights(weights, channels: units, channelAxis: 0, op: "FULLY_CONNECTED")
        if batch <= FullyConnectedHybridRows.maxRows {
            return try FullyConnectedHybridRows(
                &context, input: input.index, bias: bias?.index, output: output.index, weights: weights,
                weightScales: w.scales, batch: batch, units: units, depth: depth,
                asymmetric: options.asymmetricQuantizeInputs, range: range)
        }
        if let integer = try FullyConnectedHybridS16.make(
            &context, input: input.index, bias: bias?.index, output: output.index, weights: w, batch: batch,
            units: units, depth: depth, asymmetric: options.asymmetricQuantizeInputs, range: range)
        {
            return integer
        }
        let rows = Swift.max(1, Swift.min(FullyConnectedQ8.tileRows, batch))
        // Wide column tiles: each tile is one BLAS call, which packs its operands again, so
        // a layer of a few hundred units goes in one call per thread rather than in 64-wide
        // pieces; the tiles still split the units over the threads.
        let perThread = (units + context.threadCount - 1) / Swift.max(1, context.threadCount)
        let columns = Swift.max(1, Swift.min(units, Swift.max(FullyConnectedQ8.tileColumns, Swift.min(512, perThread))))
        try ConvCheck.blasSizes([batch, units, depth, rows, columns], "FULLY_CONNECTED")
        let codes = context.requestScratch(bytes: try ConvCheck.product([batch, depth, 4], "FULLY_CONNECTED"))
        let rowScales = context.requestScratch(bytes: try ConvCheck.product([batch, 4], "FULLY_CONNECTED"))
        let workerBytes = try ConvCheck.cacheLines(
            [try ConvCheck.product([2, rows, columns, 4], "FULLY_CONNECTED")], "FULLY_CONNECTED")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "FULLY_CONNECTED")
        let work = context.requestThreadScratch(bytesPerThread: workerBytes)
        return FullyConnectedHybridGemm(
            input: input.index, bias: bias?.index, output: output.index, batch: batch, units: units, depth: depth,
            asymmetric: options.asymmetricQuantizeInputs, rows: rows, columns: columns,
            codes: codes, rowScales: rowScales, work: work, workerBytes: workerBytes,
            packed: w.packedFloats(), weightScales: w.scales, range: range,
            gemm: ExactGEMM(maxAbsA: 255, maxAbsB: 128))
    }
}

extension FullyConnectedHybrid {
    /// One output row from its exact sums:
    /// `out[j] = act(bias[j] + Float(sum[j]) · (scale · unitScales[j]))`, `0 + …` without a
    /// bias (LiteRT's order of operations, so the bits are its).
    @inline(__always)
    static func finishRow(
        _ sum: UnsafePointer<Int32>, count n: Int, scale s: Float, unitScales: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, range: FloatActivationRange, into out: UnsafeMutablePointer<Float>
    ) {
        // The bias test is outside the loops so that each vectorizes.
        if let bias {
            for j in 0 ..< n { out[j] = range.clamp(bias[j] + Float(sum[j]) * (s * unitScales[j])) }
        } else {
            for j in 0 ..< n { out[j] = range.clamp(0 + Float(sum[j]) * (s * unitScales[j])) }
        }
    }
}

/// Rows are quantized in parallel into centered float codes, then multiplied by the packed
/// weights in `rows × columns` output tiles with ``ExactGEMM`` (integer-exact, so the
/// result does not depend on the tiling or the thread count).
struct FullyConnectedHybridGemm: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let asymmetric: Bool
    let rows: Int, columns: Int
    let codes: Int, rowScales: Int, work: Int, workerBytes: Int
    let packed: AlignedBuffer
    let weightScales: [Float]
    let range: FloatActivationRange
    let gemm: ExactGEMM

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let q = context.scratch(codes, as: Float.self)
        let scales = context.scratch(rowScales, as: Float.self)
        let (depth, units, asymmetric) = (self.depth, self.units, self.asymmetric)
        context.parallel.forEachChunk(batch) { range in
            for r in range {
                let row = q + r * depth
                let (scale, offset) = HybridInput.quantize(
                    x + r * depth, count: depth, stride: 1, asymmetric: asymmetric, into: row)
                if offset != 0 {
                    let o = Float(offset)
                    for i in 0 ..< depth { row[i] -= o }
                }
                scales[r] = scale
            }
        }
        let w = UnsafePointer(packed.typed(Float.self))
        let rowTiles = (batch + rows - 1) / rows, columnTiles = (units + columns - 1) / columns
        weightScales.withUnsafeBufferPointer { ws in
            context.parallel.forEachChunkOnThread(rowTiles * columnTiles) { thread, tiles in
                let base = context.threadScratch(work, thread: thread, bytes: workerBytes)
                let temp = base.assumingMemoryBound(to: Float.self)
                let acc = (base + rows * columns * 4).assumingMemoryBound(to: Int32.self)
                for t in tiles {
                    let r0 = (t / columnTiles) * rows, m = Swift.min(rows, batch - r0)
                    let c0 = (t % columnTiles) * columns, n = Swift.min(columns, units - c0)
                    gemm.run(
                        m: m, n: n, k: depth, a: q + r0 * depth, lda: depth, b: w + c0 * depth, ldb: depth,
                        temp: temp, acc: acc, ldacc: n)
                    guard let scalesBase = ws.baseAddress else { continue }
                    let unitScales = scalesBase + c0
                    for i in 0 ..< m {
                        FullyConnectedHybrid.finishRow(
                            acc + i * n, count: n, scale: scales[r0 + i], unitScales: unitScales,
                            bias: b.map { $0 + c0 }, range: range, into: y + (r0 + i) * units + c0)
                    }
                }
            }
        }
    }
}
