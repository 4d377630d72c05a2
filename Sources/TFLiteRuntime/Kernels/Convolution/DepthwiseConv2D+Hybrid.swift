import TFLiteModel

/// Hybrid DEPTHWISE_CONV_2D (float32 input and output, constant int8 filter), as LiteRT
/// computes it: each image is quantized asymmetrically (``HybridInput``), whatever the
/// filter's scales; `acc = Σ w·(q - offset[b])` over the in-image taps in `Int32`, then
/// `y = act(Float(acc) · (s_w[oc] · scale[b]) + bias[oc])` (the two scales are multiplied
/// first, unlike CONV_2D).
///
/// The filter's scales must be one per output channel along dimension 3 (or a single one
/// for a single output channel): LiteRT indexes one scale per output channel.
enum DepthwiseConv2DHybrid {
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, input: TensorState,
        filter: TensorState, bias: TensorState?, output: TensorState,
        range: FloatActivationRange
    ) throws(KernelError) -> any PreparedKernel {
        try HybridCheck.floats(context, input: input, bias: bias, output: output)
        let w = try HybridWeights(filter, channels: g.outC, channelAxis: 3, op: "DEPTHWISE_CONV_2D")
        guard filter.quantization?.scales.count == g.outC else {
            throw .invalid("DEPTHWISE_CONV_2D: hybrid weights need one scale per output channel (\(g.outC))")
        }
        let accBytes = try ConvCheck.product([g.outC, 4], "DEPTHWISE_CONV_2D")
        let workerBytes = try ConvCheck.cacheLines([accBytes], "DEPTHWISE_CONV_2D")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "DEPTHWISE_CONV_2D")
        let work = context.requestThreadScratch(bytesPerThread: workerBytes)
        let codes = context.requestScratch(bytes: input.elementCount)
        let imageParams = context.requestScratch(bytes: try ConvCheck.product([g.batch, 8], "DEPTHWISE_CONV_2D"))
        return DepthwiseConv2DHybridDirect(
            input: input.index, bias: bias?.index, output: output.index, geometry: g, multiplier: g.outC / g.inC,
            weights: w.codes.map { Int32($0) }, weightScales: w.scales, range: range,
            codes: codes, imageParams: imageParams, work: work, workerBytes: workerBytes)
    }
}

/// Quantizes each image to int8 codes, then accumulates each output pixel's channels in a
/// per-worker `Int32` row (``Conv2DGeometry/depthwiseAccumulate``); work is split over
/// output rows, and every output is computed whole by one worker.
struct DepthwiseConv2DHybridDirect: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let multiplier: Int
    /// The filter `[kh·kw, outC]` as `Int32`.
    let weights: [Int32]
    let weightScales: [Float]
    let range: FloatActivationRange
    let codes: Int, imageParams: Int, work: Int, workerBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let q = context.scratch(codes, as: Int8.self)
        let params = context.scratch(imageParams, as: Float.self) // [scale, offset bits] per image
        let image = g.inH * g.inW * g.inC
        context.parallel.forEachChunk(g.batch) { images in
            for i in images {
                let (scale, offset) = HybridInput.asymmetric(
                    x + i * image, count: image, stride: 1, into: q + i * image)
                params[2 * i] = scale
                params[2 * i + 1] = Float(offset) // |offset| ≤ 128: exact
            }
        }
        let codes = UnsafePointer(q)
        weights.withUnsafeBufferPointer { wb in
            weightScales.withUnsafeBufferPointer { ws in
                guard let w = wb.baseAddress else { return }
                context.parallel.forEachChunkOnThread(g.batch * g.outH) { thread, rows in
                    let acc = context.threadScratch(work, thread: thread, bytes: workerBytes)
                        .assumingMemoryBound(to: Int32.self)
                    for row in rows {
                        let image = row / g.outH
                        let scale = params[2 * image], offset = Int32(params[2 * image + 1])
                        for ox in 0 ..< g.outW {
                            g.depthwiseAccumulate(
                                row: row, ox: ox, multiplier: multiplier, x: codes, zeroPoint: offset,
                                w: w, acc: acc)
                            let out = y + (row * g.outW + ox) * g.outC
                            for c in 0 ..< g.outC {
                                let v = Float(acc[c]) * (ws[c] * scale)
                                out[c] = range.clamp(v + (b?[c] ?? 0))
                            }
                        }
                    }
                }
            }
        }
    }
}
