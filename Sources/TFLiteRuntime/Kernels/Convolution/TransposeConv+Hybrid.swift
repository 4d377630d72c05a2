import TFLiteModel

/// Hybrid TRANSPOSE_CONV (float32 input and output, constant int8 weights), as LiteRT's
/// reference kernel computes it: each image is quantized asymmetrically (``HybridInput``),
/// and every in-image contribution is rescaled on its own and summed in single precision:
/// `y[oc] += (Float((q - offset[b])·w[oc, fy, fx, ic]) · s_w[oc]) · scale[b]`, in the order
/// the scatter visits them (input row, input column, input channel), starting from 0; then
/// `act(y + bias[oc])`.
///
/// Here each output pixel gathers its contributions in that same order, so sums are
/// bit-identical and each output is computed whole by one worker.
enum TransposeConvHybrid {
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, weights: TensorState, input: TensorState,
        bias: TensorState?, output: TensorState, range: FloatActivationRange
    ) throws(KernelError) -> any PreparedKernel {
        try HybridCheck.floats(context, input: input, bias: bias, output: output)
        let w = try HybridWeights(weights, channels: g.outC, channelAxis: 0, op: "TRANSPOSE_CONV")
        guard weights.quantization?.scales.count == g.outC else {
            throw .invalid("TRANSPOSE_CONV: hybrid weights need one scale per output channel (\(g.outC))")
        }
        // OHWI → [fy][fx][ic][oc], as floats (exact), so the inner loop runs over channels.
        let taps = g.kh * g.kw
        var packed = [Float](repeating: 0, count: w.codes.count)
        for oc in 0 ..< g.outC {
            for t in 0 ..< taps {
                for ic in 0 ..< g.inC {
                    packed[(t * g.inC + ic) * g.outC + oc] = Float(w.codes[(oc * taps + t) * g.inC + ic])
                }
            }
        }
        let codes = context.requestScratch(bytes: try ConvCheck.product([input.elementCount, 4], "TRANSPOSE_CONV"))
        let imageScales = context.requestScratch(bytes: try ConvCheck.product([g.batch, 4], "TRANSPOSE_CONV"))
        return TransposeConvHybridGather(
            input: input.index, bias: bias?.index, output: output.index, geometry: g,
            weights: packed, weightScales: w.scales, range: range,
            codes: codes, imageScales: imageScales)
    }
}

struct TransposeConvHybridGather: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    /// `[kh][kw][inC][outC]` floats.
    let weights: [Float]
    let weightScales: [Float]
    let range: FloatActivationRange
    let codes: Int, imageScales: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let q = context.scratch(codes, as: Float.self)
        let scales = context.scratch(imageScales, as: Float.self)
        let image = g.inH * g.inW * g.inC
        context.parallel.forEachChunk(g.batch) { images in
            for i in images {
                let codes = q + i * image
                let (scale, offset) = HybridInput.asymmetric(x + i * image, count: image, stride: 1, into: codes)
                if offset != 0 {
                    let o = Float(offset)
                    for k in 0 ..< image { codes[k] -= o }
                }
                scales[i] = scale
            }
        }
        weights.withUnsafeBufferPointer { wb in
            weightScales.withUnsafeBufferPointer { ws in
                guard let w = wb.baseAddress, let s = ws.baseAddress else { return }
                context.parallel.forEachChunk(g.batch * g.outH) { rows in
                    for row in rows {
                        let n = row / g.outH, oy = row % g.outH
                        // Input rows iy with 0 ≤ oy + padTop - iy·strideH < kh.
                        let top = oy + g.padTop
                        let iy0 = top - g.kh + 1 <= 0 ? 0 : (top - g.kh + 1 + g.strideH - 1) / g.strideH
                        let iy1 = Swift.min(g.inH - 1, top / g.strideH)
                        for ox in 0 ..< g.outW {
                            let out = y + (row * g.outW + ox) * g.outC
                            out.update(repeating: 0, count: g.outC)
                            let left = ox + g.padLeft
                            let ix0 = left - g.kw + 1 <= 0 ? 0 : (left - g.kw + 1 + g.strideW - 1) / g.strideW
                            let ix1 = Swift.min(g.inW - 1, left / g.strideW)
                            let sf = scales[n]
                            if iy0 <= iy1, ix0 <= ix1 {
                                for iy in iy0 ... iy1 {
                                    let fy = top - iy * g.strideH
                                    for ix in ix0 ... ix1 {
                                        let fx = left - ix * g.strideW
                                        let src = q + ((n * g.inH + iy) * g.inW + ix) * g.inC
                                        let tap = w + (fy * g.kw + fx) * g.inC * g.outC
                                        for ic in 0 ..< g.inC {
                                            let xv = src[ic], wr = tap + ic * g.outC
                                            for oc in 0 ..< g.outC { out[oc] += ((xv * wr[oc]) * s[oc]) * sf }
                                        }
                                    }
                                }
                            }
                            for oc in 0 ..< g.outC { out[oc] = range.clamp(b.map { out[oc] + $0[oc] } ?? out[oc]) }
                        }
                    }
                }
            }
        }
    }
}
