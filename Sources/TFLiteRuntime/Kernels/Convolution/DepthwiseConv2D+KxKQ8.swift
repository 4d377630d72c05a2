import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// What the exact 8-bit depthwise row kernels (3×3 and K×K, multiplier 1) need from a
/// constant filter, computed at prepare: the centered weights `w - zw` as `Int32`
/// (`[taps, C]`), and per channel `bias - zx·Σ_t (w - zw)` (wrapping), the term that turns
/// the row kernels' all-tap sum of `x·(w - zw)`, taps in the padding reading `zx`, into
/// TFLite's in-image sum of `(x - zx)·(w - zw)` plus the bias. A bias known only at run
/// time is added to the term per invocation, in each worker's scratch after its row of
/// sums.
struct DepthwiseQ8Filter {
    /// The bias tensor when it is known only at run time; a constant bias is in
    /// `channelTerms`.
    let runtimeBias: Int?
    let weights: AlignedBuffer
    let channelTerms: AlignedBuffer
    /// `fillCount` bytes holding `zx`: what taps in the padding read.
    let fill: AlignedBuffer
    let scratch: Int
    let sumsBytes: Int, workerBytes: Int

    init<T: Quantized8>(
        _ context: inout PrepareContext, _: T.Type, taps: Int, bias: Int?, geometry g: Conv2DGeometry,
        weights raw: UnsafeBufferPointer<T>, weightZeroPoint zw: Int32, inputZeroPoint zx: Int32, fillCount: Int
    ) throws(KernelError) {
        let C = g.inC
        let count = try ConvCheck.product([taps, C], "DEPTHWISE_CONV_2D filter")
        guard raw.count >= count, let w = raw.baseAddress else {
            throw .invalid("the filter holds \(raw.count) values; \(count) needed")
        }
        let constantBias = bias.flatMap { context.tensors[$0].constant?.typed(Int32.self) }
        if let constantBias, constantBias.count < C {
            throw .invalid("the bias holds \(constantBias.count) values; \(C) needed")
        }
        runtimeBias = constantBias == nil ? bias : nil
        weights = AlignedBuffer(uninitializedCount: try ConvCheck.product([count, 4], "DEPTHWISE_CONV_2D filter"))
        channelTerms = AlignedBuffer(zeroedCount: try ConvCheck.product([C, 4], "DEPTHWISE_CONV_2D bias"))
        let centered = weights.typed(Int32.self), terms = channelTerms.typed(Int32.self)
        for i in 0 ..< count { centered[i] = Int32(truncatingIfNeeded: w[i]) &- zw }
        for c in 0 ..< C {
            var sum: Int32 = 0
            for t in 0 ..< taps { sum &+= centered[t * C + c] }
            terms[c] = (constantBias?[c] ?? 0) &- zx &* sum
        }
        fill = AlignedBuffer(zeroedCount: fillCount)
        fill.typed(UInt8.self).update(repeating: UInt8(truncatingIfNeeded: zx), count: fillCount)
        let sums = try ConvCheck.product([g.outW, C, 4], "DEPTHWISE_CONV_2D sums")
        sumsBytes = try ConvCheck.cacheLines([sums], "DEPTHWISE_CONV_2D")
        workerBytes = try ConvCheck.cacheLines([sumsBytes, C * 4], "DEPTHWISE_CONV_2D")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "DEPTHWISE_CONV_2D scratch")
        scratch = context.requestThreadScratch(bytesPerThread: workerBytes)
    }

    /// `thread`'s row of sums, and the per-channel terms with a run-time bias `b` added.
    @inline(__always)
    func workspace(_ context: EvalContext, thread: Int, bias b: UnsafePointer<Int32>?, channels C: Int) -> (
        sums: UnsafeMutablePointer<Int32>, terms: UnsafePointer<Int32>
    ) {
        let base = context.threadScratch(scratch, thread: thread, bytes: workerBytes)
        let sums = base.bindMemory(to: Int32.self, capacity: sumsBytes / 4)
        let terms = UnsafePointer(channelTerms.typed(Int32.self))
        guard let b else { return (sums, terms) }
        let sum = (base + sumsBytes).bindMemory(to: Int32.self, capacity: C)
        for c in 0 ..< C { sum[c] = b[c] &+ terms[c] }
        return (sums, UnsafePointer(sum))
    }
}

/// The exact 8-bit DEPTHWISE_CONV_2D for 5×5 filters (``DepthwiseKxKPlan``) at every
/// level: integer sums straight from the input's bytes (`depthwiseConv5x5Q8Portable`:
/// `depthwiseConv5x5Q8AVX2` at ``KernelLevel/avx2`` and above, the portable lanes
/// elsewhere), made TFLite's by ``DepthwiseQ8Filter``'s per-channel terms and requantized
/// like every 8-bit kernel. Each task's row of sums goes to its worker's scratch.
struct DepthwiseConv2DKxKQ8: PreparedKernel {
    let input: Int, output: Int
    let plan: DepthwiseKxKPlan
    let signed: Bool
    let level: KernelLevel
    /// Fill of `inW·C` bytes.
    let filter: DepthwiseQ8Filter
    let requantizer: Requantizer

    init<T: Quantized8>(
        _ context: inout PrepareContext, _: T.Type, input: Int, bias: Int?, output: Int, geometry g: Conv2DGeometry,
        weights: UnsafeBufferPointer<T>, weightZeroPoint zw: Int32, inputZeroPoint zx: Int32,
        requantizer: Requantizer
    ) throws(KernelError) {
        self.input = input
        self.output = output
        plan = DepthwiseKxKPlan(geometry: g, threads: context.threadCount, elementBytes: 1)
        signed = T.isSigned
        level = context.kernelLevel
        filter = try DepthwiseQ8Filter(
            &context, T.self, taps: g.kh * g.kw, bias: bias, geometry: g, weights: weights, weightZeroPoint: zw,
            inputZeroPoint: zx, fillCount: try ConvCheck.product([g.inW, g.inC], "DEPTHWISE_CONV_2D padding"))
        self.requantizer = requantizer
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        if signed { run(context, Int8.self) } else { run(context, UInt8.self) }
    }

    @inline(__always)
    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: UInt8.self))
        let y = context.pointer(output, as: T.self)
        let b = context.optionalInt32s(filter.runtimeBias)
        let w = UnsafePointer(filter.weights.typed(Int32.self))
        let fill = UnsafePointer(filter.fill.typed(UInt8.self))
        let g = plan.geometry, C = g.inC
        #if arch(x86_64)
        let vector = level >= .avx2
        #endif
        context.parallel.forEachChunkOnThread(plan.tasks) { thread, tasks in
            let (sums, terms) = filter.workspace(context, thread: thread, bias: b, channels: C)
            for task in tasks {
                plan.forTask(task, input: x, fillRow: fill) { row, cs, rows in
                    let c0 = cs.lowerBound, shape = plan.shape.slice(channels: cs.count)
                    var kernel = depthwiseConv5x5Q8Portable
                    #if arch(x86_64)
                    if vector { kernel = depthwiseConv5x5Q8AVX2 }
                    #endif
                    kernel(shape, T.isSigned, plan.channelsOutside, rows, fill + c0, w + c0, sums + c0)
                    requantizer.storeRows(
                        sums + c0, rows: g.outW, count: cs.count, accStride: C, firstChannel: c0, bias: terms,
                        into: y + row * g.outW * C + c0, outStride: C)
                }
            }
        }
    }
}
