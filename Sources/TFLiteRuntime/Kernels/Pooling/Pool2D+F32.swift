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
                    if ys.count == 2, xs.count == 2 {
                        window2x2(image, ys.lowerBound, xs.lowerBound, out)
                        continue
                    }
                    switch kind {
                    case .average: average(image, ys, xs, out)
                    case .max: maximum(image, ys, xs, out)
                    }
                }
            }
        }
    }

    /// A window of exactly 2×2 in-image pixels (BlazeFace's and many U-Nets' 2×2 / 2 pools):
    /// the four pixels reduced in one loop over the channels, instead of one loop per pixel
    /// plus an initializing and a finishing loop. Same operations in the same order as
    /// ``average(_:_:_:_:)`` and ``maximum(_:_:_:_:)``, so the same bits.
    @inline(__always)
    func window2x2(_ image: UnsafePointer<Float>, _ iy: Int, _ ix: Int, _ out: UnsafeMutablePointer<Float>) {
        let g = geometry, channels = g.channels
        let lower = range.lower, upper = range.upper
        let a = image + (iy * g.inW + ix) * channels, b = a + channels
        let d = a + g.inW * channels, e = d + channels
        switch kind {
        case .average:
            for c in 0 ..< channels {
                let sum = Float(0) + a[c] + b[c] + d[c] + e[c]
                out[c] = Swift.min(Swift.max(sum / 4, lower), upper)
            }
        case .max:
            for c in 0 ..< channels {
                var m = Swift.max(-Float.greatestFiniteMagnitude, a[c])
                m = Swift.max(Swift.max(Swift.max(m, b[c]), d[c]), e[c])
                out[c] = Swift.min(Swift.max(m, lower), upper)
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
