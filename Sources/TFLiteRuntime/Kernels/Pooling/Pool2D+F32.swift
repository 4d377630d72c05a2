/// Float pooling: per output pixel, channels in SIMD8 blocks (then scalar) reduced over the
/// clipped window in row-major order; work is split over output rows.
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
                    let xs = Pool2D.Geometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
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
    func average(_ image: UnsafePointer<Float>, _ ys: Range<Int>, _ xs: Range<Int>, _ out: UnsafeMutablePointer<Float>) {
        let g = geometry, channels = g.channels
        let count = Float(ys.count * xs.count)
        let n8 = SIMD8<Float>(repeating: count)
        let lo8 = SIMD8<Float>(repeating: range.lower), hi8 = SIMD8<Float>(repeating: range.upper)
        var c = 0
        while c + 8 <= channels {
            var acc = SIMD8<Float>()
            for iy in ys {
                for ix in xs { acc = acc + load8(image + (iy * g.inW + ix) * channels + c) }
            }
            UnsafeMutableRawPointer(out + c).storeBytes(of: (acc / n8).clamped(lowerBound: lo8, upperBound: hi8), as: SIMD8<Float>.self)
            c += 8
        }
        while c < channels {
            var acc: Float = 0
            for iy in ys {
                for ix in xs { acc = acc + image[(iy * g.inW + ix) * channels + c] }
            }
            out[c] = range.clamp(acc / count)
            c += 1
        }
    }

    /// Largest in-image value (starting from the lowest finite float, as TFLite does).
    @inline(__always)
    func maximum(_ image: UnsafePointer<Float>, _ ys: Range<Int>, _ xs: Range<Int>, _ out: UnsafeMutablePointer<Float>) {
        let g = geometry, channels = g.channels
        let lo8 = SIMD8<Float>(repeating: range.lower), hi8 = SIMD8<Float>(repeating: range.upper)
        var c = 0
        while c + 8 <= channels {
            var acc = SIMD8<Float>(repeating: -.greatestFiniteMagnitude)
            for iy in ys {
                for ix in xs { acc = pointwiseMax(acc, load8(image + (iy * g.inW + ix) * channels + c)) }
            }
            UnsafeMutableRawPointer(out + c).storeBytes(of: acc.clamped(lowerBound: lo8, upperBound: hi8), as: SIMD8<Float>.self)
            c += 8
        }
        while c < channels {
            var acc = -Float.greatestFiniteMagnitude
            for iy in ys {
                for ix in xs { acc = Swift.max(acc, image[(iy * g.inW + ix) * channels + c]) }
            }
            out[c] = range.clamp(acc)
            c += 1
        }
    }
}
