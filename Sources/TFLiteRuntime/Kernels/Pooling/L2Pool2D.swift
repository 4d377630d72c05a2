import TFLiteModel

/// L2_POOL_2D: the root mean square of each window, over NHWC float32 tensors:
/// `y = act(sqrt(Σ x² / n))`, with the window clipped to the image as in AVERAGE_POOL_2D
/// (``Pool2D``) and `n` the pixels summed. The squares are summed in row-major window
/// order, as TFLite does. TFLite has no quantized L2 pool; 8-bit inputs are rejected.
enum L2Pool2D {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        let (options, input, output, g, _) = try Pool2D.validated(&context)
        guard input.type == .float32, output.type == .float32 else { throw context.unsupportedTypes() }
        let range = try FloatActivationRange.of(options.activation)
        context.declareWork([
            g.batch, g.outH, g.outW, g.channels, Swift.min(g.filterH, g.inH), Swift.min(g.filterW, g.inW),
        ])
        return L2Pool2DF32(input: input.index, output: output.index, geometry: g, range: range)
    }
}

/// Per output pixel, the channels' squares are summed over the clipped window (one loop
/// over the channels per window pixel, which LLVM vectorizes); work is split over rows.
struct L2Pool2DF32: PreparedKernel {
    let input: Int, output: Int
    let geometry: Pool2D.Geometry
    let range: FloatActivationRange

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let g = geometry
        let lower = range.lower, upper = range.upper
        context.parallel.forEachChunk(g.batch * g.outH, cost: g.outW * g.channels * g.filterH * g.filterW) { rows in
            for row in rows {
                let b = row / g.outH, oy = row % g.outH
                let ys = Pool2D.Geometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
                let image = x + b * g.inH * g.inW * g.channels
                for ox in 0 ..< g.outW {
                    let xs = Pool2D.Geometry.window(
                        ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
                    let out = y + (row * g.outW + ox) * g.channels
                    let count = Float(ys.count * xs.count)
                    out.update(repeating: 0, count: g.channels)
                    for iy in ys {
                        for ix in xs {
                            let src = image + (iy * g.inW + ix) * g.channels
                            for c in 0 ..< g.channels { out[c] = out[c] + src[c] * src[c] }
                        }
                    }
                    for c in 0 ..< g.channels {
                        out[c] = Swift.min(Swift.max((out[c] / count).squareRoot(), lower), upper)
                    }
                }
            }
        }
    }
}
