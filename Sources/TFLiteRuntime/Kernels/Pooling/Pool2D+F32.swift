/// Float pooling: per output pixel, the channels are reduced over the clipped window in
/// row-major order, one plain loop over the channels per window pixel (LLVM vectorizes
/// these; the `SIMD8<Float>` form with `pointwiseMax` and `clamped` was several times
/// slower); work is split over output rows.
struct Pool2DF32: PreparedKernel {
    let kind: Pool2D.Kind
    let input: Int, output: Int
    let geometry: Pool2D.Geometry
    let range: FloatActivationRange

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let g = geometry
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let b = row / g.outH, oy = row % g.outH
                let ys = Pool2D.Geometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
                for ox in 0 ..< g.outW {
                    let xs = Pool2D.Geometry.window(
                        ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
                    let out = y + (row * g.outW + ox) * g.channels
                    let image = x + b * g.inH * g.inW * g.channels
                    switch kind {
                    case .average: average(image, ys, xs, out)
                    case .max: maximum(image, ys, xs, out)
                    }
                }
            }
        }
    }

    /// Mean over the in-image window: the sum divided by the number of pixels summed.
    @inline(__always)
    func average(_ image: UnsafePointer<Float>, _ ys: Range<Int>, _ xs: Range<Int>, _ out: UnsafeMutablePointer<Float>)
    {
        let g = geometry, channels = g.channels
        let count = Float(ys.count * xs.count)
        let lower = range.lower, upper = range.upper
        out.update(repeating: 0, count: channels)
        for iy in ys {
            for ix in xs {
                let src = image + (iy * g.inW + ix) * channels
                for c in 0 ..< channels { out[c] = out[c] + src[c] }
            }
        }
        for c in 0 ..< channels { out[c] = Swift.min(Swift.max(out[c] / count, lower), upper) }
    }

    /// Largest in-image value (starting from the lowest finite float, as TFLite does).
    @inline(__always)
    func maximum(_ image: UnsafePointer<Float>, _ ys: Range<Int>, _ xs: Range<Int>, _ out: UnsafeMutablePointer<Float>)
    {
        let g = geometry, channels = g.channels
        let lower = range.lower, upper = range.upper
        out.update(repeating: -.greatestFiniteMagnitude, count: channels)
        for iy in ys {
            for ix in xs {
                let src = image + (iy * g.inW + ix) * channels
                for c in 0 ..< channels { out[c] = Swift.max(out[c], src[c]) }
            }
        }
        for c in 0 ..< channels { out[c] = Swift.min(Swift.max(out[c], lower), upper) }
    }
}
