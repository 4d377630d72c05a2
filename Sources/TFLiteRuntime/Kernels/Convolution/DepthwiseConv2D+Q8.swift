import TFLiteModel

/// Quantized (uint8 / int8) DEPTHWISE_CONV_2D, TFLite's reference semantics: output
/// channel `oc = ic·M + m` accumulates `(w[oc] - zw)·(x[ic] - zx)` over the in-image taps
/// in `Int32` (wrapping), adds `bias[oc]` and requantizes with ``Requantizer``. LiteRT's
/// reference resolver rounds uint8 with `MultiplyByQuantizedMultiplier` too (its
/// "away from zero" variant), so both types share one requantizer.
///
/// Weights are per channel along dimension 3 (int8) or per tensor. Constant 5×5 filters
/// (multiplier 1, stride 1 or 2) take ``DepthwiseConv2DKxKQ8`` at every level. Other
/// constant filters take ``DepthwiseConv2D3x3Q8AVX2`` (integer sums) at the levels with vector microkernels
/// (`avx2` and up, every aarch64 level) or
/// ``DepthwiseConv2D3x3Q8`` (exact sums in Float) when it covers the geometry, else
/// ``DepthwiseConv2DQ8Direct``; filters known only at run time take the reference loops.
enum DepthwiseConv2DQ8 {
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, input: TensorState,
        filter: TensorState, bias: TensorState?, output: TensorState,
        activation: FusedActivation
    ) throws(KernelError) -> any PreparedKernel {
        let params = try QuantizedConvParams.make(
            context, input: input, weights: filter, bias: bias, output: output,
            activation: activation, channels: g.outC, channelAxis: 3, kind: .fixedPoint)
        if input.type == .uint8 {
            return try build(UInt8.self, &context, g, input.index, filter, bias?.index, output.index, params)
        }
        return try build(Int8.self, &context, g, input.index, filter, bias?.index, output.index, params)
    }

    private static func build<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, _ g: Conv2DGeometry,
        _ input: Int, _ filter: TensorState, _ bias: Int?, _ output: Int,
        _ params: QuantizedConvParams
    ) throws(KernelError) -> any PreparedKernel {
        guard let constant = filter.constant else {
            return DepthwiseConv2DQ8Reference(
                signed: T.isSigned, input: input, filter: filter.index, bias: bias, output: output,
                geometry: g, params: params)
        }
        let weights = constant.typed(T.self)
        if DepthwiseKxKPlan.covers(g) {
            return try DepthwiseConv2DKxKQ8(
                &context, T.self, input: input, bias: bias, output: output, geometry: g, weights: weights,
                weightZeroPoint: params.weightZeroPoint, inputZeroPoint: params.inputZeroPoint,
                requantizer: params.requantizer)
        }
        #if arch(x86_64) || arch(arm64)
        if context.kernelLevel.hasVectorKernels, DepthwiseConv2D3x3Q8.covers(g) {
            return try DepthwiseConv2D3x3Q8AVX2(
                &context, T.self, input: input, bias: bias, output: output, geometry: g, weights: weights,
                weightZeroPoint: params.weightZeroPoint, inputZeroPoint: params.inputZeroPoint,
                requantizer: params.requantizer)
        }
        #endif
        if DepthwiseConv2D3x3Q8.covers(g) {
            let maxW = centeredMagnitude(weights, zeroPoint: params.weightZeroPoint)
            let maxX = QuantizedConvParams.maxCentered(T.self, zeroPoint: params.inputZeroPoint)
            if DepthwiseConv2D3x3Q8.sumsAreExact(g, maxAbsInput: maxX, maxAbsWeight: maxW) {
                let centered = AlignedBuffer(uninitializedCount: weights.count * MemoryLayout<Float>.stride)
                centerWeights(weights, zeroPoint: params.weightZeroPoint, into: centered.typed(Float.self))
                return try DepthwiseConv2D3x3Q8(
                    &context, signed: T.isSigned, input: input, bias: bias, output: output,
                    geometry: g, weights: centered, inputZeroPoint: params.inputZeroPoint,
                    requantizer: params.requantizer)
            }
        }
        // |w - zw| ≤ 255: centered weights fit Int16.
        let packed = weights.map { Int16(Int32($0) - params.weightZeroPoint) }
        let accBytes = try ConvCheck.product([g.outC, MemoryLayout<Int32>.stride], "DEPTHWISE_CONV_2D")
        let tapBytes = try ConvCheck.product([g.kh, g.kw, 2 * MemoryLayout<Int>.stride], "DEPTHWISE_CONV_2D")
        let accLines = try ConvCheck.cacheLines([accBytes], "DEPTHWISE_CONV_2D")
        let workerBytes = try ConvCheck.cacheLines([accLines, tapBytes], "DEPTHWISE_CONV_2D")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "DEPTHWISE_CONV_2D")
        let scratch = context.requestThreadScratch(bytesPerThread: workerBytes)
        return DepthwiseConv2DQ8Direct(
            signed: T.isSigned, input: input, bias: bias, output: output, geometry: g,
            multiplier: g.outC / g.inC, weights: packed,
            inputZeroPoint: params.inputZeroPoint,
            requantizer: params.requantizer, scratch: scratch, workerBytes: workerBytes,
            accBytes: accLines)
    }
}

/// Constant filter, any geometry, centered at prepare (`w - zw` as `Int16`, `[kh·kw, outC]`). For each
/// output pixel the in-image taps are listed once; then, with multiplier 1, each block of
/// eight channels is accumulated over all taps in registers (16-bit operands, 32-bit
/// products and sums, wrapping like TFLite's `int32`), stored to a per-worker `Int32`
/// row and requantized. Work is split over output rows.
struct DepthwiseConv2DQ8Direct: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let multiplier: Int
    let weights: [Int16]
    let inputZeroPoint: Int32
    let requantizer: Requantizer
    let scratch: Int
    let workerBytes: Int
    /// Bytes of the accumulator row at the start of each worker's scratch; the tap list follows.
    let accBytes: Int

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let b = context.optionalInt32s(bias)
        let g = geometry
        weights.withUnsafeBufferPointer { wb in
            guard let w = wb.baseAddress else { return }
            context.parallel.forEachChunkOnThread(g.batch * g.outH) { thread, rows in
                let base = context.threadScratch(scratch, thread: thread, bytes: workerBytes)
                let acc = base.assumingMemoryBound(to: Int32.self)
                let taps = (base + accBytes).assumingMemoryBound(to: Int.self)
                for row in rows {
                    for ox in 0 ..< g.outW {
                        pixel(row: row, ox: ox, x: x, w: w, taps: taps, acc: acc)
                        requantizer.store(
                            acc, count: g.outC, firstChannel: 0, bias: b, into: y + (row * g.outW + ox) * g.outC)
                    }
                }
            }
        }
    }

    /// Accumulates output pixel `(row / outH, row % outH, ox)` into `acc[0 ..< outC]`:
    /// `acc[ic·M + m] = Σ (x[ic] - zx)·w[tap, ic·M + m]` over the in-image taps.
    /// `taps` receives pairs (input offset, weight offset), at most `kh·kw` of them.
    @inline(__always)
    func pixel<T: Quantized8>(
        row: Int, ox: Int, x: UnsafePointer<T>, w: UnsafePointer<Int16>,
        taps: UnsafeMutablePointer<Int>, acc: UnsafeMutablePointer<Int32>
    ) {
        let g = geometry
        let b = row / g.outH, oy = row % g.outH
        var count = 0
        for ky in 0 ..< g.kh {
            let iy = oy * g.strideH - g.padTop + ky * g.dilationH
            guard iy >= 0, iy < g.inH else { continue }
            for kx in 0 ..< g.kw {
                let ix = ox * g.strideW - g.padLeft + kx * g.dilationW
                guard ix >= 0, ix < g.inW else { continue }
                taps[2 * count] = ((b * g.inH + iy) * g.inW + ix) * g.inC
                taps[2 * count + 1] = (ky * g.kw + kx) * g.outC
                count += 1
            }
        }
        let zx = inputZeroPoint
        if multiplier == 1 {
            // x - zx and w - zw lie in [-255, 255]: Int16 lanes, products widened to Int32
            // (SSE2's 16-bit multiplies instead of an emulated 32-bit one).
            let zx16 = SIMD8<Int16>(repeating: Int16(truncatingIfNeeded: zx))
            var c = 0
            while c + 8 <= g.outC {
                var a = SIMD8<Int32>(repeating: 0)
                for t in 0 ..< count {
                    let xv = SIMD8<Int16>(truncatingIfNeeded: T.widen8(x + taps[2 * t] + c)) &- zx16
                    let wv = UnsafeRawPointer(w + taps[2 * t + 1] + c).loadUnaligned(as: SIMD8<Int16>.self)
                    a = a &+ SIMD8<Int32>(truncatingIfNeeded: xv) &* SIMD8<Int32>(truncatingIfNeeded: wv)
                }
                UnsafeMutableRawPointer(acc + c).storeBytes(of: a, as: SIMD8<Int32>.self)
                c += 8
            }
            while c < g.outC {
                var a: Int32 = 0
                for t in 0 ..< count {
                    a = a &+ (Int32(x[taps[2 * t] + c]) &- zx) &* Int32(w[taps[2 * t + 1] + c])
                }
                acc[c] = a
                c += 1
            }
        } else {
            acc.update(repeating: 0, count: g.outC)
            for t in 0 ..< count {
                let src = x + taps[2 * t], tap = w + taps[2 * t + 1]
                for ic in 0 ..< g.inC {
                    let xv = Int32(src[ic]) &- zx
                    let o = ic * multiplier
                    for m in 0 ..< multiplier { acc[o + m] = acc[o + m] &+ xv &* Int32(tap[o + m]) }
                }
            }
        }
    }
}

extension Conv2DGeometry {
    /// Depthwise accumulation of output pixel `(row / outH, row % outH, ox)`:
    /// `acc[ic·M + m] = Σ (x[ic] - zeroPoint)·w[tap, ic·M + m]` over the in-image taps, with
    /// `w` the centered filter `[kh·kw, outC]` as `Int32` (wrapping arithmetic).
    @inline(__always)
    func depthwiseAccumulate<T: Quantized8>(
        row: Int, ox: Int, multiplier: Int, x: UnsafePointer<T>, zeroPoint zx: Int32,
        w: UnsafePointer<Int32>, acc: UnsafeMutablePointer<Int32>
    ) {
        let g = self
        let b = row / g.outH, oy = row % g.outH
        acc.update(repeating: 0, count: g.outC)
        let zx8 = SIMD8<Int32>(repeating: zx)
        for ky in 0 ..< g.kh {
            let iy = oy * g.strideH - g.padTop + ky * g.dilationH
            guard iy >= 0, iy < g.inH else { continue }
            for kx in 0 ..< g.kw {
                let ix = ox * g.strideW - g.padLeft + kx * g.dilationW
                guard ix >= 0, ix < g.inW else { continue }
                let src = x + ((b * g.inH + iy) * g.inW + ix) * g.inC
                let tap = w + (ky * g.kw + kx) * g.outC
                if multiplier == 1 {
                    var c = 0
                    while c + 8 <= g.outC {
                        let xv = T.widen8(src + c) &- zx8
                        let wv = UnsafeRawPointer(tap + c).loadUnaligned(as: SIMD8<Int32>.self)
                        let av = UnsafeRawPointer(acc + c).loadUnaligned(as: SIMD8<Int32>.self)
                        UnsafeMutableRawPointer(acc + c).storeBytes(of: av &+ xv &* wv, as: SIMD8<Int32>.self)
                        c += 8
                    }
                    while c < g.outC {
                        acc[c] = acc[c] &+ (Int32(src[c]) &- zx) &* tap[c]
                        c += 1
                    }
                } else {
                    for ic in 0 ..< g.inC {
                        let xv = Int32(src[ic]) &- zx
                        let o = ic * multiplier
                        for m in 0 ..< multiplier { acc[o + m] = acc[o + m] &+ xv &* tap[o + m] }
                    }
                }
            }
        }
    }
}

/// TFLite's reference loops, used when the filter is only known at run time (and as the
/// oracle the direct kernel is tested against). Work is split over output rows.
struct DepthwiseConv2DQ8Reference: Quantized8Kernel {
    let signed: Bool
    let input: Int, filter: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let params: QuantizedConvParams

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let w = UnsafePointer(context.pointer(filter, as: T.self))
        let y = context.pointer(output, as: T.self)
        let bias = context.optionalInt32s(self.bias)
        let g = geometry
        let multiplier = g.outC / g.inC
        let zx = params.inputZeroPoint, zw = params.weightZeroPoint
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let b = row / g.outH, oy = row % g.outH
                for ox in 0 ..< g.outW {
                    for ic in 0 ..< g.inC {
                        for m in 0 ..< multiplier {
                            let oc = ic * multiplier + m
                            var acc: Int32 = 0
                            for ky in 0 ..< g.kh {
                                for kx in 0 ..< g.kw {
                                    let iy = oy * g.strideH - g.padTop + ky * g.dilationH
                                    let ix = ox * g.strideW - g.padLeft + kx * g.dilationW
                                    guard iy >= 0, iy < g.inH, ix >= 0, ix < g.inW else { continue }
                                    let xv = Int32(x[((b * g.inH + iy) * g.inW + ix) * g.inC + ic])
                                    let wv = Int32(w[(ky * g.kw + kx) * g.outC + oc])
                                    acc = acc &+ (wv &- zw) &* (xv &- zx)
                                }
                            }
                            if let bias { acc = acc &+ bias[oc] }
                            y[(row * g.outW + ox) * g.outC + oc] = T(
                                truncatingIfNeeded: params.requantizer.apply(acc, channel: oc))
                        }
                    }
                }
            }
        }
    }
}
