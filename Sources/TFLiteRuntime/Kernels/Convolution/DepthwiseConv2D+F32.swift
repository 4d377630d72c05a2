import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// Float DEPTHWISE_CONV_2D: a general per-pixel kernel, `DepthwiseConv2D3x3F32` for the
/// common 3×3 / multiplier 1 / stride 1 or 2 case, and `DepthwiseConv2DKxKF32` for 5×5
/// filters with multiplier 1 and stride 1 or 2.
enum DepthwiseConv2DF32 {
    static func make(
        geometry g: Conv2DGeometry, input: Int, filter: Int, bias: Int?, output: Int,
        range: FloatActivationRange, level: KernelLevel, threads: Int = 1
    ) -> any PreparedKernel {
        // The K×K kernel's only failure is a padding row whose size overflows, which the
        // input tensor's own size check rules out; the general kernel would still serve.
        if DepthwiseKxKPlan.covers(g),
            let kxk = try? DepthwiseConv2DKxKF32(
                level: level, threads: threads, geometry: g, input: input, filter: filter, bias: bias, output: output,
                range: range)
        {
            return kxk
        }
        let general = DepthwiseConv2DF32General(
            input: input, filter: filter, bias: bias, output: output,
            geometry: g, multiplier: g.outC / g.inC,
            epilogue: FloatBiasActivation(channels: g.outC, range: range))
        if Depthwise3x3Walk.covers(g) { return DepthwiseConv2D3x3F32(general: general, level: level) }
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
    func pixel(
        row: Int, ox: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, y: UnsafeMutablePointer<Float>
    ) {
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
                        Self.multiplyAdd(
                            out + ic * multiplier, broadcast: src[ic], tap + ic * multiplier, count: multiplier)
                    }
                }
            }
        }
        epilogue.apply(rows: 0 ..< 1, output: out, rowStride: 0, bias: bias)
    }

    /// `out[c] += a[c] · w[c]` for `c < count`.
    @inline(__always)
    static func multiplyAdd(
        _ out: UnsafeMutablePointer<Float>, _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, count: Int
    ) {
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
    static func multiplyAdd(
        _ out: UnsafeMutablePointer<Float>, broadcast a: Float, _ w: UnsafePointer<Float>, count: Int
    ) {
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
/// Every output pixel takes one unrolled path: nine SIMD multiply-adds per 4 channels
/// (`SIMD4`, the baseline x86-64 vector width) from nine tap pointers, no bounds checks,
/// the accumulator kept in registers (``Depthwise3x3Walk``).
/// Border pixels point taps in the padding at a row of zeros, whose `+0·w` leaves the sum
/// unchanged (for finite weights), so the result equals the general kernel's, which skips
/// those taps: both sum the taps in `(ky, kx)` order starting from zero and add the bias
/// last. Before, border pixels took the general kernel, which cost as much as the interior
/// on 14×14 and 7×7 layers.
///
/// Bias and activation are one plain loop over each finished output row (the general
/// kernel's epilogue, so the same operations), which LLVM vectorizes: a
/// `SIMD8<Float>.clamped` per pixel here was far slower than that loop.
///
/// At ``KernelLevel/avx2`` each row is `depthwiseConv3x3F32AVX2` instead: the same walk
/// eight channels wide with fused multiply-adds, bias and clamp applied to each block
/// before it is stored (so results differ from the portable level's in the last bits); at
/// ``KernelLevel/avx512``, `depthwiseConv3x3F32AVX512`, the same sums sixteen channels wide;
/// on aarch64 (every level), `depthwiseConv3x3F32NEON`, four channels wide.
struct DepthwiseConv2D3x3F32: PreparedKernel {
    let general: DepthwiseConv2DF32General
    let walk: Depthwise3x3Walk
    /// `inC` zeros: the input seen by taps in the padding.
    let zeros: AlignedBuffer
    let level: KernelLevel
    /// `walk.rowRuns` for the AVX-512 row kernel. Its blocks are 64 bytes, one cache line
    /// per pixel and row, and the row walk measured faster than pixel pairs unless the
    /// input step (`strideW·inC·4` bytes) is a multiple of 1024 (MobileNet v1's 256- to
    /// 1024-channel layers): 96 channels at stride 2 and 576 channels, which the 256-byte
    /// test sends to pixel pairs, ran 18-25% faster row by row.
    let rowRunsAVX512: Bool

    init(general: DepthwiseConv2DF32General, level: KernelLevel) {
        self.general = general
        walk = Depthwise3x3Walk(geometry: general.geometry)
        rowRunsAVX512 = (general.geometry.strideW * general.geometry.inC * MemoryLayout<Float>.stride) % 1024 != 0
        zeros = AlignedBuffer(zeroedCount: Swift.max(general.geometry.inC, 1) * MemoryLayout<Float>.stride)
        self.level = level
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(general.input, as: Float.self))
        let w = UnsafePointer(context.pointer(general.filter, as: Float.self))
        let y = context.pointer(general.output, as: Float.self)
        let b = context.optionalFloats(general.bias)
        let zero = UnsafePointer(zeros.typed(Float.self))
        let g = general.geometry
        let fused = level.hasVectorKernels
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let oy = row % g.outH
                let image = x + (row / g.outH) * g.inH * g.inW * g.inC
                let iy0 = oy * g.strideH - g.padTop
                let out = y + row * g.outW * g.outC
                let r = (
                    Self.inputRow(image, iy0, g), Self.inputRow(image, iy0 + 1, g), Self.inputRow(image, iy0 + 2, g)
                )
                if fused {
                    rowMicrokernel(r, w: w, zero: zero, bias: b, out: out)
                } else {
                    walk.row(oy, r, w: w, zero: zero, out: out, start: 0)
                    general.epilogue.apply(rows: 0 ..< g.outW, output: out, rowStride: g.outC, bias: b)
                }
            }
        }
    }

    /// One output row, bias and activation included, with the level's microkernel (only
    /// called when the engine's level has one, ``KernelLevel/hasVectorKernels``).
    @inline(__always)
    func rowMicrokernel(
        _ r: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?), w: UnsafePointer<Float>,
        zero: UnsafePointer<Float>, bias: UnsafePointer<Float>?, out: UnsafeMutablePointer<Float>
    ) {
        #if arch(x86_64)
        let range = general.epilogue.range
        if level >= .avx512 {
            depthwiseConv3x3F32AVX512(
                walk.shape, rowRuns: rowRunsAVX512, r.0, r.1, r.2, zero: zero, weights: w, start: 0,
                bias: bias, lower: range.lower, upper: range.upper, out: out)
        } else {
            depthwiseConv3x3F32AVX2(
                walk.shape, rowRuns: walk.rowRuns, r.0, r.1, r.2, zero: zero, weights: w, start: 0,
                bias: bias, lower: range.lower, upper: range.upper, out: out)
        }
        #elseif arch(arm64)
        let range = general.epilogue.range
        depthwiseConv3x3F32NEON(
            walk.shape, rowRuns: walk.rowRuns, r.0, r.1, r.2, zero: zero, weights: w, start: 0,
            bias: bias, lower: range.lower, upper: range.upper, out: out)
        #endif
    }

    /// Input row `iy` of `image`, or nil when it is in the padding.
    @inline(__always)
    static func inputRow(_ image: UnsafePointer<Float>, _ iy: Int, _ g: Conv2DGeometry) -> UnsafePointer<Float>? {
        iy >= 0 && iy < g.inH ? image + iy * g.inW * g.inC : nil
    }
}

/// One output row of a 3×3, multiplier 1, stride 1 or 2 depthwise convolution in Float,
/// before bias and activation: `depthwiseConv3x3F32`'s loops, also run by the exact 8-bit
/// kernel (``DepthwiseConv2D3x3Q8``) on centered codes.
///
/// Pixels whose window lies inside the image (`interiorX` × `interiorY`) point their taps
/// straight into the input rows; border pixels point taps in the padding at a row of zeros.
/// Every path sums the nine taps in `(ky, kx)` order from `start`.
struct Depthwise3x3Walk: Sendable {
    let geometry: Conv2DGeometry
    /// One output row as the microkernels see it.
    let shape: Depthwise3x3Row
    /// Output columns and rows whose window is entirely inside the input.
    var interiorX: Range<Int> { shape.interior }
    let interiorY: Range<Int>
    /// Whether interior pixels go row by row (`interiorRun`) rather than pixel by pixel.
    /// The row walk reads the input `strideW·inC` floats apart; when that is a multiple of
    /// 256 bytes (64, 128, 512, 1024 channels) the walk's loads fall into few cache sets and
    /// is slower than the pixel path, otherwise faster.
    let rowRuns: Bool

    init(geometry g: Conv2DGeometry) {
        geometry = g
        shape = Depthwise3x3Row(
            channels: g.inC, inputWidth: g.inW, outputWidth: g.outW, stride: g.strideW, padLeft: g.padLeft)
        interiorY = Depthwise3x3Row.interior(output: g.outH, input: g.inH, stride: g.strideH, pad: g.padTop)
        rowRuns = (g.strideW * g.inC * MemoryLayout<Float>.stride) % 256 != 0
    }

    /// 3×3 filter, multiplier 1, no dilation, stride 1 or 2.
    static func covers(_ g: Conv2DGeometry) -> Bool {
        g.kh == 3 && g.kw == 3 && g.outC == g.inC && g.dilationH == 1 && g.dilationW == 1
            && (1 ... 2).contains(g.strideH) && (1 ... 2).contains(g.strideW)
    }

    /// Output row `oy`: `out[ox·C + c] = start + Σ_{ky, kx} r_ky[(ox·s - pad + kx)·C + c] ·
    /// w[(3·ky + kx)·C + c]` (`C = inC = outC`), the taps outside `rows` (the window's three
    /// input rows, nil in the padding) reading `zero` (`C` zeros).
    @inline(__always)
    func row(
        _ oy: Int, _ rows: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?),
        w: UnsafePointer<Float>, zero: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, start: Float
    ) {
        let g = geometry
        let channels = g.inC
        let interior = interiorY.contains(oy) ? interiorX : 0 ..< 0
        if !interior.isEmpty, let r0 = rows.0, let r1 = rows.1, let r2 = rows.2 {
            let ix0 = interior.lowerBound * g.strideW - g.padLeft
            let a = r0 + ix0 * channels, d = r1 + ix0 * channels, e = r2 + ix0 * channels
            let step = g.strideW * channels
            if rowRuns {
                Self.interiorRun(
                    a, d, e, w: w, out: out + interior.lowerBound * g.outC, pixels: interior.count,
                    step: step, channels: channels, start: start)
            } else {
                var i = 0
                while i + 2 <= interior.count {
                    Self.pixelPair(
                        a + i * step, d + i * step, e + i * step, step: step, w: w,
                        out: out + (interior.lowerBound + i) * g.outC, channels: channels, start: start)
                    i += 2
                }
                if i < interior.count {
                    let a = a + i * step, d = d + i * step, e = e + i * step
                    Self.pixel(
                        a, a + channels, a + 2 * channels, d, d + channels, d + 2 * channels,
                        e, e + channels, e + 2 * channels, w: w,
                        out: out + (interior.lowerBound + i) * g.outC, channels: channels, start: start)
                }
            }
        }
        for ox in 0 ..< g.outW where !interior.contains(ox) {
            let ix0 = ox * g.strideW - g.padLeft
            func tap(_ r: UnsafePointer<Float>?, _ ix: Int) -> UnsafePointer<Float> {
                guard let r, ix >= 0, ix < g.inW else { return zero }
                return r + ix * channels
            }
            Self.pixel(
                tap(rows.0, ix0), tap(rows.0, ix0 + 1), tap(rows.0, ix0 + 2),
                tap(rows.1, ix0), tap(rows.1, ix0 + 1), tap(rows.1, ix0 + 2),
                tap(rows.2, ix0), tap(rows.2, ix0 + 1), tap(rows.2, ix0 + 2),
                w: w, out: out + ox * g.outC, channels: channels, start: start)
        }
    }

    /// `pixels` consecutive interior pixels of one output row, before bias and activation;
    /// `r0`, `r1`, `r2` point at the first pixel's window in the three input rows, `step`
    /// floats apart from one pixel to the next.
    ///
    /// Channel blocks outside, pixels inside: a block's nine weight vectors stay in
    /// registers along the row, so a pixel costs nine input loads and nine multiply-adds
    /// per 4 channels (before: as many weight loads again, and a 19-pointer setup per
    /// pixel that dominated at 8 to 32 channels). Same operations, same order as `pixel`.
    @inline(__always)
    static func interiorRun(
        _ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, _ r2: UnsafePointer<Float>,
        w: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, pixels: Int, step: Int, channels: Int, start: Float
    ) {
        let c1 = channels, c2 = 2 * channels
        var c = 0
        while c + 4 <= channels {
            let k = w + c
            let w0 = load4(k), w1 = load4(k + c1), w2 = load4(k + c2)
            let w3 = load4(k + 3 * c1), w4 = load4(k + 4 * c1), w5 = load4(k + 5 * c1)
            let w6 = load4(k + 6 * c1), w7 = load4(k + 7 * c1), w8 = load4(k + 8 * c1)
            // Walked pointers and a countdown: see `pixel` on LLVM's loop vectorizer.
            var a = r0 + c, d = r1 + c, e = r2 + c
            var o = out + c
            var n = pixels
            while n > 0 {
                var acc = SIMD4<Float>(repeating: start)
                acc = acc + load4(a) * w0
                acc = acc + load4(a + c1) * w1
                acc = acc + load4(a + c2) * w2
                acc = acc + load4(d) * w3
                acc = acc + load4(d + c1) * w4
                acc = acc + load4(d + c2) * w5
                acc = acc + load4(e) * w6
                acc = acc + load4(e + c1) * w7
                acc = acc + load4(e + c2) * w8
                UnsafeMutableRawPointer(o).storeBytes(of: acc, as: SIMD4<Float>.self)
                a += step; d += step; e += step; o += channels
                n -= 1
            }
            c += 4
        }
        if c < channels {
            var o = out, a = r0, d = r1, e = r2
            for _ in 0 ..< pixels {
                pixelTail(
                    a, a + c1, a + c2, d, d + c1, d + c2, e, e + c1, e + c2, w: w, out: o, from: c, channels: channels,
                    start: start)
                a += step; d += step; e += step; o += channels
            }
        }
    }

    /// Two horizontally adjacent interior pixels (the second `step` floats after the first
    /// in each input row), before bias and activation. Channels innermost, as in `pixel`,
    /// but each block's nine weight vectors are loaded once for both pixels: ~1 instruction
    /// per multiply-add instead of ~1.6. Same operations, same order as `pixel`.
    @inline(__always)
    static func pixelPair(
        _ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, _ r2: UnsafePointer<Float>, step: Int,
        w: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, channels: Int, start: Float
    ) {
        let c1 = channels, c2 = 2 * channels
        // Walked pointers and a countdown: see `pixel` on LLVM's loop vectorizer.
        var a = r0, d = r1, e = r2, k = w, o = out
        var blocks = channels / 4
        while blocks > 0 {
            let w0 = load4(k), w1 = load4(k + c1), w2 = load4(k + c2)
            let w3 = load4(k + 3 * c1), w4 = load4(k + 4 * c1), w5 = load4(k + 5 * c1)
            let w6 = load4(k + 6 * c1), w7 = load4(k + 7 * c1), w8 = load4(k + 8 * c1)
            var p = SIMD4<Float>(repeating: start), q = p
            p = p + load4(a) * w0; q = q + load4(a + step) * w0
            p = p + load4(a + c1) * w1; q = q + load4(a + step + c1) * w1
            p = p + load4(a + c2) * w2; q = q + load4(a + step + c2) * w2
            p = p + load4(d) * w3; q = q + load4(d + step) * w3
            p = p + load4(d + c1) * w4; q = q + load4(d + step + c1) * w4
            p = p + load4(d + c2) * w5; q = q + load4(d + step + c2) * w5
            p = p + load4(e) * w6; q = q + load4(e + step) * w6
            p = p + load4(e + c1) * w7; q = q + load4(e + step + c1) * w7
            p = p + load4(e + c2) * w8; q = q + load4(e + step + c2) * w8
            UnsafeMutableRawPointer(o).storeBytes(of: p, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(o + channels).storeBytes(of: q, as: SIMD4<Float>.self)
            a += 4; d += 4; e += 4; k += 4; o += 4
            blocks -= 1
        }
        let c = channels / 4 * 4
        if c < channels {
            pixelTail(
                r0, r0 + c1, r0 + c2, r1, r1 + c1, r1 + c2, r2, r2 + c1, r2 + c2,
                w: w, out: out, from: c, channels: channels, start: start)
            let s0 = r0 + step, s1 = r1 + step, s2 = r2 + step
            pixelTail(
                s0, s0 + c1, s0 + c2, s1, s1 + c1, s1 + c2, s2, s2 + c1, s2 + c2,
                w: w, out: out + channels, from: c, channels: channels, start: start)
        }
    }

    /// One output pixel before bias and activation: `Σ_t p_t[c] · w[t·channels + c]` over
    /// the taps in order, from `start`.
    ///
    /// The SIMD loop walks its 19 pointers instead of indexing them with a counter: with a
    /// counter, LLVM's loop vectorizer rewrote the `SIMD4` arithmetic into per-lane shuffles
    /// and scalar multiplies.
    @inline(__always)
    static func pixel(
        _ p0: UnsafePointer<Float>, _ p1: UnsafePointer<Float>, _ p2: UnsafePointer<Float>,
        _ p3: UnsafePointer<Float>, _ p4: UnsafePointer<Float>, _ p5: UnsafePointer<Float>,
        _ p6: UnsafePointer<Float>, _ p7: UnsafePointer<Float>, _ p8: UnsafePointer<Float>,
        w: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, channels: Int, start: Float
    ) {
        let w1 = w + channels, w2 = w1 + channels, w3 = w2 + channels, w4 = w3 + channels
        let w5 = w4 + channels, w6 = w5 + channels, w7 = w6 + channels, w8 = w7 + channels
        var q0 = p0, q1 = p1, q2 = p2, q3 = p3, q4 = p4, q5 = p5, q6 = p6, q7 = p7, q8 = p8
        var v0 = w, v1 = w1, v2 = w2, v3 = w3, v4 = w4, v5 = w5, v6 = w6, v7 = w7, v8 = w8
        var o = out
        var blocks = channels / 4
        while blocks > 0 {
            var acc = SIMD4<Float>(repeating: start)
            acc = acc + load4(q0) * load4(v0)
            acc = acc + load4(q1) * load4(v1)
            acc = acc + load4(q2) * load4(v2)
            acc = acc + load4(q3) * load4(v3)
            acc = acc + load4(q4) * load4(v4)
            acc = acc + load4(q5) * load4(v5)
            acc = acc + load4(q6) * load4(v6)
            acc = acc + load4(q7) * load4(v7)
            acc = acc + load4(q8) * load4(v8)
            UnsafeMutableRawPointer(o).storeBytes(of: acc, as: SIMD4<Float>.self)
            q0 += 4; q1 += 4; q2 += 4; q3 += 4; q4 += 4; q5 += 4; q6 += 4; q7 += 4; q8 += 4
            v0 += 4; v1 += 4; v2 += 4; v3 += 4; v4 += 4; v5 += 4; v6 += 4; v7 += 4; v8 += 4
            o += 4
            blocks -= 1
        }
        pixelTail(
            p0, p1, p2, p3, p4, p5, p6, p7, p8, w: w, out: out, from: channels / 4 * 4, channels: channels, start: start
        )
    }

    /// Channels `from ..< channels` of one pixel, scalar (the last `channels % 4`).
    @inline(__always)
    static func pixelTail(
        _ p0: UnsafePointer<Float>, _ p1: UnsafePointer<Float>, _ p2: UnsafePointer<Float>,
        _ p3: UnsafePointer<Float>, _ p4: UnsafePointer<Float>, _ p5: UnsafePointer<Float>,
        _ p6: UnsafePointer<Float>, _ p7: UnsafePointer<Float>, _ p8: UnsafePointer<Float>,
        w: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, from: Int, channels: Int,
        start: Float
    ) {
        let w1 = w + channels, w2 = w1 + channels, w3 = w2 + channels, w4 = w3 + channels
        let w5 = w4 + channels, w6 = w5 + channels, w7 = w6 + channels, w8 = w7 + channels
        for c in from ..< channels {
            var acc = start
            acc = acc + p0[c] * w[c]
            acc = acc + p1[c] * w1[c]
            acc = acc + p2[c] * w2[c]
            acc = acc + p3[c] * w3[c]
            acc = acc + p4[c] * w4[c]
            acc = acc + p5[c] * w5[c]
            acc = acc + p6[c] * w6[c]
            acc = acc + p7[c] * w7[c]
            acc = acc + p8[c] * w8[c]
            out[c] = acc
        }
    }
}
