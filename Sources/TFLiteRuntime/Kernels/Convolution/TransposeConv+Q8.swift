import TFLiteModel

/// Quantized (uint8 / int8) TRANSPOSE_CONV, TFLite's reference semantics: every input
/// pixel scatters `(x - zx)·(w[oc, fy, fx, :] - zw)` into the `Int32` accumulator of output
/// `(iy·strideH - padTop + fy, ix·strideW - padLeft + fx, oc)`; then `bias[oc]` and
/// ``Requantizer`` (uint8: one multiplier; int8: per channel along dimension 0).
/// Integer sums do not depend on their order, so the GEMM + gather kernel below and the
/// scatter loops agree exactly.
enum TransposeConvQ8 {
    /// Most input pixels per GEMM tile.
    static let maxTilePixels = 64

    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, weights: TensorState, input: TensorState,
        bias: TensorState?, output: TensorState, activation: FusedActivation
    ) throws(KernelError) -> any PreparedKernel {
        let params = try QuantizedConvParams.make(
            context, input: input, weights: weights, bias: bias, output: output,
            activation: activation, channels: g.outC, channelAxis: 0, kind: .fixedPoint)
        if input.type == .uint8 {
            return try build(UInt8.self, &context, g, weights, input.index, bias?.index, output.index, params)
        }
        return try build(Int8.self, &context, g, weights, input.index, bias?.index, output.index, params)
    }

    private static func build<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, _ g: Conv2DGeometry,
        _ weights: TensorState, _ input: Int, _ bias: Int?, _ output: Int,
        _ params: QuantizedConvParams
    ) throws(KernelError) -> any PreparedKernel {
        guard let constant = weights.constant else {
            let bytes = try ConvCheck.product(
                [g.batch, g.outH, g.outW, g.outC, MemoryLayout<Int32>.stride], "TRANSPOSE_CONV")
            return TransposeConvQ8Reference(
                signed: T.isSigned, input: input, weights: weights.index, bias: bias, output: output,
                geometry: g, params: params, scratch: context.requestScratch(bytes: bytes))
        }
        let taps = try ConvCheck.product([g.kh, g.kw, g.outC], "TRANSPOSE_CONV")
        let pixels = try ConvCheck.product([g.inH, g.inW], "TRANSPOSE_CONV")
        let perThread = (pixels + context.threadCount - 1) / context.threadCount
        let tileRows = Swift.max(1, Swift.min(maxTilePixels, perThread))
        try ConvCheck.blasSizes([tileRows, taps, g.inC], "TRANSPOSE_CONV")
        let columns = context.requestScratch(bytes: try ConvCheck.product([pixels, taps, 4], "TRANSPOSE_CONV columns"))
        let inputBytes = try ConvCheck.product([tileRows, g.inC, 4], "TRANSPOSE_CONV")
        let tempBytes = try ConvCheck.product([tileRows, taps, 4], "TRANSPOSE_CONV")
        let workerBytes = try ConvCheck.cacheLines(
            [inputBytes, tempBytes, try ConvCheck.product([g.outC, 4], "TRANSPOSE_CONV")],
            "TRANSPOSE_CONV")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "TRANSPOSE_CONV")
        let scratch = context.requestThreadScratch(bytesPerThread: workerBytes)
        // P[(tap·outC + oc)·inC + i] = w[oc, tap, i] - zw: the GEMM's transposed operand.
        let source = constant.typed(T.self)
        let packed = AlignedBuffer(zeroedCount: taps * g.inC * MemoryLayout<Float>.stride)
        let p = packed.typed(Float.self)
        var maxW: Int32 = 0
        for oc in 0 ..< g.outC {
            for tap in 0 ..< g.kh * g.kw {
                for i in 0 ..< g.inC {
                    let v = Int32(source[(oc * g.kh * g.kw + tap) * g.inC + i]) - params.weightZeroPoint
                    p[(tap * g.outC + oc) * g.inC + i] = Float(v)
                    maxW = Swift.max(maxW, abs(v))
                }
            }
        }
        return TransposeConvQ8Gemm(
            signed: T.isSigned, input: input, bias: bias, output: output, geometry: g, packed: packed, columns: columns,
            scratch: scratch, workerBytes: workerBytes, inputBytes: inputBytes, tempBytes: tempBytes,
            tileRows: tileRows,
            inputZeroPoint: params.inputZeroPoint,
            gemm: ExactGEMM(
                maxAbsA: QuantizedConvParams.maxCentered(T.self, zeroPoint: params.inputZeroPoint), maxAbsB: Int(maxW)),
            requantizer: params.requantizer)
    }
}

/// Per image: exact GEMM `col[H·W, kh·kw·outC] = (x - zx) · Pᵀ` in `Int32`
/// (``ExactGEMM``, input pixels tiled over threads), then each output pixel sums the
/// columns of the input pixels that reach it (split over output rows) and is requantized.
struct TransposeConvQ8Gemm: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let packed: AlignedBuffer
    let columns: Int
    let scratch: Int
    let workerBytes: Int, inputBytes: Int, tempBytes: Int
    let tileRows: Int
    /// `zx`: the GEMM rows hold `Float(x - zx)`.
    let inputZeroPoint: Int32
    let gemm: ExactGEMM
    let requantizer: Requantizer

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let b = context.optionalInt32s(bias)
        let p = UnsafePointer(packed.typed(Float.self))
        let col = context.scratch(columns, as: Int32.self)
        let pixels = g.inH * g.inW
        let taps = g.kh * g.kw * g.outC
        let tiles = (pixels + tileRows - 1) / tileRows
        for n in 0 ..< g.batch {
            let image = x + n * pixels * g.inC
            context.parallel.forEachChunkOnThread(tiles) { thread, range in
                let base = context.threadScratch(scratch, thread: thread, bytes: workerBytes)
                let a = base.assumingMemoryBound(to: Float.self)
                let temp = (base + inputBytes).assumingMemoryBound(to: Float.self)
                for t in range {
                    let p0 = t * tileRows, rows = Swift.min(tileRows, pixels - p0)
                    let src = image + p0 * g.inC
                    centerCodes(src, count: rows * g.inC, zeroPoint: inputZeroPoint, into: a)
                    gemm.run(
                        m: rows, n: taps, k: g.inC, a: a, lda: g.inC, b: p, ldb: g.inC,
                        temp: temp, acc: col + p0 * taps, ldacc: taps)
                }
            }
            let out = y + n * g.outH * g.outW * g.outC
            context.parallel.forEachChunkOnThread(g.outH) { thread, rows in
                let acc = (context.threadScratch(scratch, thread: thread, bytes: workerBytes) + inputBytes + tempBytes)
                    .assumingMemoryBound(to: Int32.self)
                for oy in rows {
                    for ox in 0 ..< g.outW {
                        gather(oy: oy, ox: ox, columns: UnsafePointer(col), acc: acc)
                        requantizer.store(
                            acc, count: g.outC, firstChannel: 0, bias: b, into: out + (oy * g.outW + ox) * g.outC)
                    }
                }
            }
        }
    }

    /// Sums into `acc[0 ..< outC]` the column entries of every (input pixel, tap) that
    /// lands on output `(oy, ox)`.
    @inline(__always)
    func gather(oy: Int, ox: Int, columns: UnsafePointer<Int32>, acc: UnsafeMutablePointer<Int32>) {
        let g = geometry
        let taps = g.kh * g.kw * g.outC
        acc.update(repeating: 0, count: g.outC)
        for fy in 0 ..< g.kh {
            let ty = oy + g.padTop - fy
            guard ty >= 0, ty % g.strideH == 0 else { continue }
            let iy = ty / g.strideH
            guard iy < g.inH else { continue }
            for fx in 0 ..< g.kw {
                let tx = ox + g.padLeft - fx
                guard tx >= 0, tx % g.strideW == 0 else { continue }
                let ix = tx / g.strideW
                guard ix < g.inW else { continue }
                let src = columns + (iy * g.inW + ix) * taps + (fy * g.kw + fx) * g.outC
                for c in 0 ..< g.outC { acc[c] = acc[c] &+ src[c] }
            }
        }
    }
}

/// TFLite's reference scatter loops into an `Int32` image, used when the weights are only
/// known at run time (and as the oracle the GEMM kernel is tested against).
struct TransposeConvQ8Reference: Quantized8Kernel {
    let signed: Bool
    let input: Int, weights: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let params: QuantizedConvParams
    let scratch: Int

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let w = UnsafePointer(context.pointer(weights, as: T.self))
        let y = context.pointer(output, as: T.self)
        let bias = context.optionalInt32s(self.bias)
        let acc = context.scratch(scratch, as: Int32.self)
        let count = g.batch * g.outH * g.outW * g.outC
        acc.update(repeating: 0, count: count)
        let zx = params.inputZeroPoint, zw = params.weightZeroPoint
        for b in 0 ..< g.batch {
            for iy in 0 ..< g.inH {
                for ix in 0 ..< g.inW {
                    for ic in 0 ..< g.inC {
                        let xv = Int32(x[((b * g.inH + iy) * g.inW + ix) * g.inC + ic]) &- zx
                        for fy in 0 ..< g.kh {
                            for fx in 0 ..< g.kw {
                                let oy = iy * g.strideH - g.padTop + fy
                                let ox = ix * g.strideW - g.padLeft + fx
                                guard oy >= 0, oy < g.outH, ox >= 0, ox < g.outW else { continue }
                                for oc in 0 ..< g.outC {
                                    let wv = Int32(w[((oc * g.kh + fy) * g.kw + fx) * g.inC + ic]) &- zw
                                    let o = ((b * g.outH + oy) * g.outW + ox) * g.outC + oc
                                    acc[o] = acc[o] &+ xv &* wv
                                }
                            }
                        }
                    }
                }
            }
        }
        for o in 0 ..< count {
            let oc = o % g.outC
            let a = bias.map { acc[o] &+ $0[oc] } ?? acc[o]
            y[o] = T(truncatingIfNeeded: params.requantizer.apply(a, channel: oc))
        }
    }
}
