import TFLiteModel

/// Hybrid CONV_2D (float32 input and output, constant int8 filter), as LiteRT computes it.
/// Each image of the batch is quantized as a whole. LiteRT has two paths:
/// - **per channel** (the filter has distinct per-channel scales, or the convolution is
///   grouped): asymmetric input quantization; `acc = Σ w·(q - offset[b])` over the in-image
///   taps (padding contributes nothing), `y = act((Float(acc) · s_w[oc]) · scale[b] + bias[oc])`;
/// - **per tensor** (one scale, or all equal): symmetric input quantization, `acc = Σ w·q`,
///   `y = act(Float(acc) · (scale[b] · s_w) + bias[oc])`.
/// Both are reproduced operation for operation (single precision, same association).
enum Conv2DHybrid {
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: TensorState, filter: TensorState, bias: TensorState?, output: TensorState,
        range: FloatActivationRange
    ) throws(KernelError) -> any PreparedKernel {
        try HybridCheck.floats(context, input: input, bias: bias, output: output)
        let w = try HybridWeights(filter, channels: g.outC, channelAxis: 0, op: "CONV_2D")
        let perChannel = w.distinctScales || groups != 1
        if groups != 1, filter.quantization?.scales.count != g.outC {
            // LiteRT's grouped hybrid path indexes one scale per output channel.
            throw .invalid("CONV_2D: a grouped hybrid convolution needs one weight scale per output channel")
        }
        let groupInC = g.inC / groups, groupOutC = g.outC / groups
        let patch = try ConvCheck.product([g.kh, g.kw, groupInC], "CONV_2D patch")
        let tiles = try GemmTiles(&context, pixels: g.outputPixels, patch: patch, outChannels: groupOutC, op: "CONV_2D")
        let codes = context.requestScratch(bytes: try ConvCheck.product([input.elementCount, 4], "CONV_2D"))
        let imageScales = context.requestScratch(bytes: try ConvCheck.product([g.batch, 4], "CONV_2D"))
        return Conv2DHybridGemm(
            input: input.index, bias: bias?.index, output: output.index, geometry: g, groups: groups,
            groupInC: groupInC, groupOutC: groupOutC, patch: patch, perChannel: perChannel, tiles: tiles,
            codes: codes, imageScales: imageScales, packed: w.packedFloats(), weightScales: w.scales,
            range: range, gemm: ExactGEMM(maxAbsA: perChannel ? 255 : 127, maxAbsB: 128))
    }
}

/// Quantizes each image into centered float codes, then im2col + ``ExactGEMM`` over tiles
/// of output pixels (integer-exact: independent of tiling and thread count), then the
/// float epilogue of the path chosen at prepare.
struct Conv2DHybridGemm: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let groups: Int, groupInC: Int, groupOutC: Int
    let patch: Int
    let perChannel: Bool
    let tiles: GemmTiles
    let codes: Int, imageScales: Int
    let packed: AlignedBuffer
    let weightScales: [Float]
    let range: FloatActivationRange
    let gemm: ExactGEMM

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let q = context.scratch(codes, as: Float.self)
        let scales = context.scratch(imageScales, as: Float.self)
        let image = g.inH * g.inW * g.inC
        let perChannel = self.perChannel
        context.parallel.forEachChunk(g.batch) { images in
            for i in images {
                let codes = q + i * image
                let (scale, offset) = HybridInput.quantize(
                    x + i * image, count: image, stride: 1,
                    asymmetric: perChannel, into: codes)
                if offset != 0 {
                    let o = Float(offset)
                    for k in 0 ..< image { codes[k] -= o }
                }
                scales[i] = scale
            }
        }
        let w = UnsafePointer(packed.typed(Float.self))
        let outC = g.outC, perImage = g.outH * g.outW
        weightScales.withUnsafeBufferPointer { ws in
            tiles.forEach(context) { tile in
                let p0 = tile.first, rows = tile.count
                for group in 0 ..< groups {
                    for r in 0 ..< rows {
                        g.gatherPatch(
                            pixel: p0 + r, group: group, groups: groups, groupInC: groupInC,
                            from: q, into: tile.columns + r * patch)
                    }
                    gemm.run(
                        m: rows, n: groupOutC, k: patch, a: tile.columns, lda: patch,
                        b: w + group * groupOutC * patch, ldb: patch, temp: tile.result, acc: tile.sums,
                        ldacc: groupOutC)
                    for r in 0 ..< rows {
                        let s = scales[(p0 + r) / perImage]
                        let c0 = group * groupOutC
                        let out = y + (p0 + r) * outC + c0, a = tile.sums + r * groupOutC
                        for j in 0 ..< groupOutC {
                            let v = perChannel ? Float(a[j]) * ws[c0 + j] * s : Float(a[j]) * (s * ws[c0 + j])
                            out[j] = self.range.clamp(v + (b?[c0 + j] ?? 0))
                        }
                    }
                }
            }
        }
    }
}
