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
    /// The bias tensor when it is known only at run time; a constant bias is in
    /// `channelTerms`.
    let input: Int, runtimeBias: Int?, output: Int
    let walk: Depthwise3x3Walk
    let signed: Bool
    /// Whether the AVX-512 row kernel runs (else the AVX2 one).
    let wide: Bool
    /// `w - zw` as `Int32`, `[9, C]`.
    let weights: AlignedBuffer
    /// The same in `Depthwise3x3Q8PairLayout`, for the AVX-512 kernel (empty otherwise, and
    /// on aarch64).
    let pairs: AlignedBuffer
    /// `-zx·Σ_t (w - zw)` per channel, plus the bias when it is constant, wrapping.
    let channelTerms: AlignedBuffer
    /// `C` bytes holding `zx`: what taps in the padding read.
    let padding: AlignedBuffer
    let requantizer: Requantizer
    let scratch: Int
    let sumsBytes: Int, workerBytes: Int

    init<T: Quantized8>(
        _ context: inout PrepareContext, _: T.Type, input: Int, bias: Int?, output: Int, geometry g: Conv2DGeometry,
        weights raw: UnsafeBufferPointer<T>, weightZeroPoint zw: Int32, inputZeroPoint zx: Int32,
        requantizer: Requantizer
    ) throws(KernelError) {
        let C = g.inC
        let count = try ConvCheck.product([9, C], "DEPTHWISE_CONV_2D filter")
        guard raw.count >= count, let w = raw.baseAddress else {
            throw .invalid("the filter holds \(raw.count) values; \(count) needed")
        }
        self.input = input
        let constantBias = bias.flatMap { context.tensors[$0].constant?.typed(Int32.self) }
        if let constantBias, constantBias.count < C {
            throw .invalid("the bias holds \(constantBias.count) values; \(C) needed")
        }
        runtimeBias = constantBias == nil ? bias : nil
        self.output = output
        walk = Depthwise3x3Walk(geometry: g)
        signed = T.isSigned
        wide = context.kernelLevel >= .avx512
        weights = AlignedBuffer(uninitializedCount: try ConvCheck.product([count, 4], "DEPTHWISE_CONV_2D filter"))
        channelTerms = AlignedBuffer(zeroedCount: try ConvCheck.product([C, 4], "DEPTHWISE_CONV_2D bias"))
        padding = AlignedBuffer(zeroedCount: C)
        let centered = weights.typed(Int32.self), terms = channelTerms.typed(Int32.self)
        for i in 0 ..< count { centered[i] = Int32(truncatingIfNeeded: w[i]) &- zw }
        #if arch(x86_64)
        guard let pairWords = Depthwise3x3Q8PairLayout.count(channels: C) else {
            throw .invalid("DEPTHWISE_CONV_2D filter size overflows")
        }
        pairs = AlignedBuffer(
            zeroedCount: wide ? try ConvCheck.product([pairWords, 4], "DEPTHWISE_CONV_2D filter") : 0)
        if wide { Depthwise3x3Q8PairLayout.pack(centered, channels: C, into: pairs.typed(Int32.self)) }
        #else
        pairs = AlignedBuffer(zeroedCount: 0)
        #endif
        for c in 0 ..< C {
            var sum: Int32 = 0
            for t in 0 ..< 9 { sum &+= centered[t * C + c] }
            terms[c] = (constantBias?[c] ?? 0) &- zx &* sum
        }
        padding.typed(UInt8.self).update(repeating: UInt8(truncatingIfNeeded: zx), count: C)
        self.requantizer = requantizer
        let sums = try ConvCheck.product([g.outW, C, 4], "DEPTHWISE_CONV_2D sums")
        sumsBytes = try ConvCheck.cacheLines([sums], "DEPTHWISE_CONV_2D")
        workerBytes = try ConvCheck.cacheLines([sumsBytes, C * 4], "DEPTHWISE_CONV_2D")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "DEPTHWISE_CONV_2D scratch")
        scratch = context.requestThreadScratch(bytesPerThread: workerBytes)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: UInt8.self))
        let y = context.pointer(output, as: UInt8.self)
        let b = context.optionalInt32s(runtimeBias)
        let w = UnsafePointer(weights.typed(Int32.self)), pairWeights = UnsafePointer(pairs.typed(Int32.self))
        let terms = UnsafePointer(channelTerms.typed(Int32.self))
        let pad = UnsafePointer(padding.typed(UInt8.self))
        let g = walk.geometry, C = g.inC
        let rowBytes = g.inW * C, outCount = g.outW * C
        context.parallel.forEachChunkOnThread(g.batch * g.outH) { thread, rows in
            let base = context.threadScratch(scratch, thread: thread, bytes: workerBytes)
            let sums = base.bindMemory(to: Int32.self, capacity: outCount)
            var adjusted = terms
            if let b {
                let sum = (base + sumsBytes).bindMemory(to: Int32.self, capacity: C)
                for c in 0 ..< C { sum[c] = b[c] &+ terms[c] }
                adjusted = UnsafePointer(sum)
            }
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
