#if arch(x86_64) || arch(arm64)
import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#else
import MicrokernelsNEON
#endif

/// The exact 8-bit DEPTHWISE_CONV_2D for 3×3 filters, multiplier 1, no dilation, stride 1
/// or 2, at ``KernelLevel/avx2`` and above and at every aarch64 level: integer sums
/// straight from the input's bytes (`depthwiseConv3x3Q8AVX2`, `depthwiseConv3x3Q8AVX512` at
/// ``KernelLevel/avx512``, `depthwiseConv3x3Q8NEON` on aarch64), requantized like every
/// 8-bit kernel.
///
/// The sums are TFLite's, exactly: `bias + Σ (x - zx)·(w - zw)` over the in-image taps
/// equals `Σ x·(w - zw)` over all nine taps, with taps in the padding reading `zx`, plus
/// `bias - zx·Σ_t (w - zw)` per channel (computed at prepare; a bias known only at run
/// time is added per invocation). The arithmetic wraps in `Int32` like the
/// reference's. The portable level's ``DepthwiseConv2D3x3Q8`` centers every input row
/// into Float first; here that copy, a third of its time on MobileNet's stride-2 layers,
/// is gone. Work is split over output rows; each worker's scratch holds one output row of
/// sums and, for a run-time bias, the adjusted bias.
struct DepthwiseConv2D3x3Q8AVX2: PreparedKernel {
    let input: Int, output: Int
    let walk: Depthwise3x3Walk
    let signed: Bool
    /// Whether the AVX-512 row kernel runs (else the AVX2 one).
    let wide: Bool
    /// `w - zw` as `Int32`, `[9, C]`, the per-channel terms, and a fill of `C` bytes.
    let filter: DepthwiseQ8Filter
    /// The same weights in `Depthwise3x3Q8PairLayout`, for the AVX-512 kernel (empty
    /// otherwise, and on aarch64).
    let pairs: AlignedBuffer
    let requantizer: Requantizer

    init<T: Quantized8>(
        _ context: inout PrepareContext, _: T.Type, input: Int, bias: Int?, output: Int, geometry g: Conv2DGeometry,
        weights raw: UnsafeBufferPointer<T>, weightZeroPoint zw: Int32, inputZeroPoint zx: Int32,
        requantizer: Requantizer
    ) throws(KernelError) {
        let C = g.inC
        self.input = input
        self.output = output
        walk = Depthwise3x3Walk(geometry: g)
        signed = T.isSigned
        wide = context.kernelLevel >= .avx512
        filter = try DepthwiseQ8Filter(
            &context, T.self, taps: 9, bias: bias, geometry: g, weights: raw, weightZeroPoint: zw,
            inputZeroPoint: zx, fillCount: C)
        #if arch(x86_64)
        guard let pairWords = Depthwise3x3Q8PairLayout.count(channels: C) else {
            throw .invalid("DEPTHWISE_CONV_2D filter size overflows")
        }
        pairs = AlignedBuffer(
            zeroedCount: wide ? try ConvCheck.product([pairWords, 4], "DEPTHWISE_CONV_2D filter") : 0)
        if wide {
            Depthwise3x3Q8PairLayout.pack(filter.weights.typed(Int32.self), channels: C, into: pairs.typed(Int32.self))
        }
        #else
        pairs = AlignedBuffer(zeroedCount: 0)
        #endif
        self.requantizer = requantizer
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: UInt8.self))
        let y = context.pointer(output, as: UInt8.self)
        let b = context.optionalInt32s(filter.runtimeBias)
        let w = UnsafePointer(filter.weights.typed(Int32.self)), pairWeights = UnsafePointer(pairs.typed(Int32.self))
        let pad = UnsafePointer(filter.fill.typed(UInt8.self))
        let g = walk.geometry, C = g.inC
        let rowBytes = g.inW * C, outCount = g.outW * C
        context.parallel.forEachChunkOnThread(g.batch * g.outH) { thread, rows in
            let (sums, adjusted) = filter.workspace(context, thread: thread, bias: b, channels: C)
            for row in rows {
                let n = row / g.outH, oy = row % g.outH
                let iy0 = oy * g.strideH - g.padTop
                @inline(__always) func inputRow(_ k: Int) -> UnsafePointer<UInt8>? {
                    let iy = iy0 + k
                    return iy >= 0 && iy < g.inH ? x + (n * g.inH + iy) * rowBytes : nil
                }
                #if arch(x86_64)
                if wide {
                    depthwiseConv3x3Q8AVX512(
                        walk.shape, signed: signed, inputRow(0), inputRow(1), inputRow(2), padding: pad, weights: w,
                        pairs: pairWeights, out: sums)
                } else {
                    depthwiseConv3x3Q8AVX2(
                        walk.shape, signed: signed, inputRow(0), inputRow(1), inputRow(2), padding: pad, weights: w,
                        out: sums)
                }
                #else
                depthwiseConv3x3Q8NEON(
                    walk.shape, signed: signed, inputRow(0), inputRow(1), inputRow(2), padding: pad, weights: w,
                    out: sums)
                #endif
                requantizer.storeRows(
                    sums, rows: g.outW, count: C, accStride: C, firstChannel: 0, bias: adjusted,
                    into: y + row * outCount, outStride: C)
            }
        }
    }
}
#endif
