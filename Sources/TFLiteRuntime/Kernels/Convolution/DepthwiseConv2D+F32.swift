import TFLiteModel

/// Float DEPTHWISE_CONV_2D: a general per-pixel kernel, and `depthwiseConv3x3F32` for the
/// common 3×3 / multiplier 1 / stride 1 or 2 case.
enum DepthwiseConv2DF32 {
    static func make(geometry g: Conv2DGeometry, input: Int, filter: Int, bias: Int?, output: Int,
                     range: FloatActivationRange) -> any PreparedKernel {
        let general = DepthwiseConv2DF32General(input: input, filter: filter, bias: bias, output: output,
                                                geometry: g, multiplier: g.outC / g.inC,
                                                epilogue: FloatBiasActivation(channels: g.outC, range: range))
        if g.kh == 3, g.kw == 3, g.outC == g.inC, g.dilationH == 1, g.dilationW == 1,
           (1...2).contains(g.strideH), (1...2).contains(g.strideW) {
            return DepthwiseConv2D3x3F32(general: general)
        }
        return general
    }
}

/// Any filter size, multiplier, stride and dilation. Each output pixel's `outC` values are
/// accumulated in place over the in-image taps in `(ky, kx)` order (channels innermost,
/// SIMD), then bias and activation are applied. Work is split over output rows.
struct DepthwiseConv2DF32General: PreparedKernel {
    let input: Int, filter: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let multiplier: Int
    let epilogue: FloatBiasActivation

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let w = UnsafePointer(context.pointer(filter, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let g = geometry
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                for ox in 0 ..< g.outW { pixel(row: row, ox: ox, x: x, w: w, bias: b, y: y) }
            }
        }
    }

    /// Computes output pixel `(row / outH, row % outH, ox)`.
    @inline(__always)
    func pixel(row: Int, ox: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>,
               bias: UnsafePointer<Float>?, y: UnsafeMutablePointer<Float>) {
        let g = geometry
        let b = row / g.outH, oy = row % g.outH
        let out = y + (row * g.outW + ox) * g.outC
        out.update(repeating: 0, count: g.outC)
        let iy0 = oy * g.strideH - g.padTop
        let ix0 = ox * g.strideW - g.padLeft
        for ky in 0 ..< g.kh {
            let iy = iy0 + ky * g.dilationH
            guard iy >= 0, iy < g.inH else { continue }
            for kx in 0 ..< g.kw {
                let ix = ix0 + kx * g.dilationW
                guard ix >= 0, ix < g.inW else { continue }
                let src = x + ((b * g.inH + iy) * g.inW + ix) * g.inC
                let tap = w + (ky * g.kw + kx) * g.outC
                if multiplier == 1 {
                    Self.multiplyAdd(out, src, tap, count: g.outC)
                } else {
                    for ic in 0 ..< g.inC {
                        Self.multiplyAdd(out + ic * multiplier, broadcast: src[ic], tap + ic * multiplier, count: multiplier)
                    }
                }
            }
        }
        epilogue.apply(rows: 0 ..< 1, output: out, rowStride: 0, bias: bias)
    }

    /// `out[c] += a[c] · w[c]` for `c < count`.
    @inline(__always)
    static func multiplyAdd(_ out: UnsafeMutablePointer<Float>, _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, count: Int) {
        var c = 0
        while c + 8 <= count {
            let v = load8(out + c) + load8(a + c) * load8(w + c)
            UnsafeMutableRawPointer(out + c).storeBytes(of: v, as: SIMD8<Float>.self)
            c += 8
        }
        while c < count {
            out[c] = out[c] + a[c] * w[c]
            c += 1
        }
    }

    /// `out[c] += a · w[c]` for `c < count`.
    @inline(__always)
    static func multiplyAdd(_ out: UnsafeMutablePointer<Float>, broadcast a: Float, _ w: UnsafePointer<Float>, count: Int) {
        var c = 0
        let a8 = SIMD8<Float>(repeating: a)
        while c + 8 <= count {
            let v = load8(out + c) + a8 * load8(w + c)
            UnsafeMutableRawPointer(out + c).storeBytes(of: v, as: SIMD8<Float>.self)
            c += 8
        }
        while c < count {
            out[c] = out[c] + a * w[c]
            c += 1
        }
    }
}

/// `depthwiseConv3x3F32`: 3×3 filter, multiplier 1, no dilation, stride 1 or 2.
///
/// Pixels whose whole 3×3 window lies inside the image (all but a one-pixel border) take
/// an unrolled path: nine SIMD multiply-adds per 8 (then 4) channels, no bounds checks, the
/// accumulator kept in registers; border pixels use the general kernel. Both sum the taps
/// in the same order starting from zero and add the bias last, so they agree exactly.
/// The activation of the interior pixels is one plain loop over their span of the output
/// row, which LLVM vectorizes: `SIMD8<Float>.clamped` here was ~60x slower than that loop.
struct DepthwiseConv2D3x3F32: PreparedKernel {
    let general: DepthwiseConv2DF32General
    /// Output columns and rows whose window is entirely inside the input.
    let interiorX: Range<Int>
    let interiorY: Range<Int>

    init(general: DepthwiseConv2DF32General) {
        self.general = general
        let g = general.geometry
        interiorX = Self.interior(output: g.outW, input: g.inW, stride: g.strideW, pad: g.padLeft)
        interiorY = Self.interior(output: g.outH, input: g.inH, stride: g.strideH, pad: g.padTop)
    }

    /// Outputs `o` with `o·stride - pad ≥ 0` and `o·stride - pad + 2 < input`.
    static func interior(output: Int, input: Int, stride: Int, pad: Int) -> Range<Int> {
        let lo = Swift.min(output, (pad + stride - 1) / stride)
        let last = input - 3 + pad
        let hi = last < 0 ? 0 : Swift.min(output, last / stride + 1)
        return lo ..< Swift.max(lo, hi)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(general.input, as: Float.self))
        let w = UnsafePointer(context.pointer(general.filter, as: Float.self))
        let y = context.pointer(general.output, as: Float.self)
        let b = context.optionalFloats(general.bias)
        let g = general.geometry
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let oy = row % g.outH
                guard interiorY.contains(oy) else {
                    for ox in 0 ..< g.outW { general.pixel(row: row, ox: ox, x: x, w: w, bias: b, y: y) }
                    continue
                }
                for ox in 0 ..< interiorX.lowerBound { general.pixel(row: row, ox: ox, x: x, w: w, bias: b, y: y) }
                let image = x + (row / g.outH) * g.inH * g.inW * g.inC
                let iy0 = oy * g.strideH - g.padTop
                for ox in interiorX {
                    let r0 = image + (iy0 * g.inW + ox * g.strideW - g.padLeft) * g.inC
                    interiorPixel(r0: r0, w: w, bias: b, out: y + (row * g.outW + ox) * g.outC)
                }
                general.epilogue.clamp(y + (row * g.outW + interiorX.lowerBound) * g.outC, count: interiorX.count * g.outC)
                for ox in interiorX.upperBound ..< g.outW { general.pixel(row: row, ox: ox, x: x, w: w, bias: b, y: y) }
            }
        }
    }

    /// One interior pixel, before the activation (applied per row by the caller); `r0` is
    /// the window's top-left input pixel.
    @inline(__always)
    func interiorPixel(r0: UnsafePointer<Float>, w: UnsafePointer<Float>, bias: UnsafePointer<Float>?, out: UnsafeMutablePointer<Float>) {
        let g = general.geometry
        let channels = g.inC
        let row = g.inW * channels
        let r1 = r0 + row, r2 = r1 + row
        let c1 = channels, c2 = 2 * channels
        var c = 0
        while c + 8 <= channels {
            var acc = SIMD8<Float>()
            acc = acc + load8(r0 + c) * load8(w + c)
            acc = acc + load8(r0 + c1 + c) * load8(w + c1 + c)
            acc = acc + load8(r0 + c2 + c) * load8(w + c2 + c)
            acc = acc + load8(r1 + c) * load8(w + 3 * channels + c)
            acc = acc + load8(r1 + c1 + c) * load8(w + 4 * channels + c)
            acc = acc + load8(r1 + c2 + c) * load8(w + 5 * channels + c)
            acc = acc + load8(r2 + c) * load8(w + 6 * channels + c)
            acc = acc + load8(r2 + c1 + c) * load8(w + 7 * channels + c)
            acc = acc + load8(r2 + c2 + c) * load8(w + 8 * channels + c)
            if let bias { acc = acc + load8(bias + c) }
            UnsafeMutableRawPointer(out + c).storeBytes(of: acc, as: SIMD8<Float>.self)
            c += 8
        }
        while c + 4 <= channels {
            var acc = SIMD4<Float>()
            acc = acc + load4(r0 + c) * load4(w + c)
            acc = acc + load4(r0 + c1 + c) * load4(w + c1 + c)
            acc = acc + load4(r0 + c2 + c) * load4(w + c2 + c)
            acc = acc + load4(r1 + c) * load4(w + 3 * channels + c)
            acc = acc + load4(r1 + c1 + c) * load4(w + 4 * channels + c)
            acc = acc + load4(r1 + c2 + c) * load4(w + 5 * channels + c)
            acc = acc + load4(r2 + c) * load4(w + 6 * channels + c)
            acc = acc + load4(r2 + c1 + c) * load4(w + 7 * channels + c)
            acc = acc + load4(r2 + c2 + c) * load4(w + 8 * channels + c)
            if let bias { acc = acc + load4(bias + c) }
            UnsafeMutableRawPointer(out + c).storeBytes(of: acc, as: SIMD4<Float>.self)
            c += 4
        }
        while c < channels {
            var acc: Float = 0
            for t in 0 ..< 9 {
                let r = t < 3 ? r0 : (t < 6 ? r1 : r2)
                acc = acc + r[(t % 3) * channels + c] * w[t * channels + c]
            }
            if let bias { acc = acc + bias[c] }
            out[c] = acc
            c += 1
        }
    }
}
