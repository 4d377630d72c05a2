import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// How the K×K depthwise kernels (5×5 filters, multiplier 1, no dilation, stride 1 or 2)
/// walk a convolution: one output row of one slice of the channels per task, through the
/// row kernels of ``DepthwiseKxKRow``.
///
/// Rows in the vertical padding are replaced by a row of the fill value (zeros, or the
/// input zero point for 8-bit codes), so every output row, the top and bottom ones too,
/// costs the same: a split over rows is a split of the work. When the output has too few
/// rows to give each thread the same number (MobileNet v3's 7×7 layers on two threads), the
/// channels are cut into slices of whole 8-channel blocks too, so that the tasks divide
/// evenly.
struct DepthwiseKxKPlan: Sendable {
    let geometry: Conv2DGeometry
    /// One output row of all the channels.
    let shape: DepthwiseKxKRow
    /// Channel slices per output row.
    let slices: Int
    /// Whether the row kernels walk channel blocks outside output pixels: unless the step
    /// from one output pixel to the next (`strideW·C` elements of `elementBytes`) is a
    /// multiple of 256 bytes, where the channel-outside walk's loads fall into few cache
    /// sets (the 3×3 walks' rule, ``Depthwise3x3Walk/rowRuns``).
    let channelsOutside: Bool

    /// 5×5 filter, multiplier 1, no dilation, stride 1 or 2.
    static func covers(_ g: Conv2DGeometry) -> Bool {
        g.kh == 5 && g.kw == 5 && g.outC == g.inC && g.dilationH == 1 && g.dilationW == 1
            && (1 ... 2).contains(g.strideH) && (1 ... 2).contains(g.strideW)
    }

    init(geometry g: Conv2DGeometry, threads: Int, elementBytes: Int) {
        geometry = g
        shape = DepthwiseKxKRow(
            size: g.kh, channels: g.inC, pixelStride: g.inC, inputWidth: g.inW, outputWidth: g.outW,
            stride: g.strideW, padLeft: g.padLeft)
        let rows = g.batch * g.outH, blocks = g.inC / 8
        var slices = 1
        while threads > 1, (rows * slices) % threads != 0, rows * slices < 8 * threads, slices * 2 <= blocks {
            slices *= 2
        }
        self.slices = slices
        channelsOutside = (g.strideW * g.inC * elementBytes) % 256 != 0
    }

    var tasks: Int { geometry.batch * geometry.outH * slices }

    /// Channels of slice `i`: whole 8-channel blocks, the last slice taking the rest.
    func channels(ofSlice i: Int) -> Range<Int> {
        let blocks = geometry.inC / 8
        let lo = blocks * i / slices * 8
        return lo ..< (i == slices - 1 ? geometry.inC : blocks * (i + 1) / slices * 8)
    }

    /// Task `task`'s output row (over the batch), its channel slice, and the window's `K`
    /// input rows (at the slice's first channel; `fillRow` for rows in the padding).
    @inline(__always)
    func forTask<T>(
        _ task: Int, input x: UnsafePointer<T>, fillRow: UnsafePointer<T>,
        _ body: (_ row: Int, _ channels: Range<Int>, _ rows: UnsafePointer<UnsafePointer<T>>) -> Void
    ) {
        let g = geometry
        let row = task / slices, cs = channels(ofSlice: task % slices)
        let n = row / g.outH, iy0 = (row % g.outH) * g.strideH - g.padTop
        let rowLength = g.inW * g.inC
        withUnsafeTemporaryAllocation(of: UnsafePointer<T>.self, capacity: g.kh) { rows in
            for k in 0 ..< g.kh {
                let iy = iy0 + k
                let r = iy >= 0 && iy < g.inH ? x + (n * g.inH + iy) * rowLength : fillRow
                rows.initializeElement(at: k, to: r + cs.lowerBound)
            }
            if let base = rows.baseAddress { body(row, cs, UnsafePointer(base)) }
        }
    }
}

/// Float DEPTHWISE_CONV_2D for 5×5 filters (``DepthwiseKxKPlan``): each output is the sum
/// of its 25 taps from zero in `(ky, kx)` order (taps in the padding reading zeros, whose
/// `+0·w` leaves the sum unchanged for finite weights), then the bias, then the clamp of
/// the fused activation. At ``KernelLevel/avx2`` and above each row is
/// `depthwiseConv5x5F32AVX2` (fused multiply-adds, eight channels a step); at the portable
/// level and on aarch64, ``DepthwiseKxKWalk`` with four-lane vectors and separate
/// multiplies and adds.
struct DepthwiseConv2DKxKF32: PreparedKernel {
    let input: Int, filter: Int, bias: Int?, output: Int
    let plan: DepthwiseKxKPlan
    let range: FloatActivationRange
    let level: KernelLevel
    /// `inW·C` zeros: rows in the padding, and taps left or right of a row.
    let zeros: AlignedBuffer

    init(
        level: KernelLevel, threads: Int, geometry g: Conv2DGeometry, input: Int, filter: Int, bias: Int?,
        output: Int, range: FloatActivationRange
    ) throws(KernelError) {
        self.input = input
        self.filter = filter
        self.bias = bias
        self.output = output
        plan = DepthwiseKxKPlan(geometry: g, threads: threads, elementBytes: 4)
        self.range = range
        self.level = level
        zeros = AlignedBuffer(zeroedCount: try ConvCheck.product([g.inW, g.inC, 4], "DEPTHWISE_CONV_2D padding"))
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let w = UnsafePointer(context.pointer(filter, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let fill = UnsafePointer(zeros.typed(Float.self))
        let g = plan.geometry, lower = range.lower, upper = range.upper
        #if arch(x86_64)
        let vector = level >= .avx2
        #endif
        context.parallel.forEachChunk(plan.tasks) { tasks in
            for task in tasks {
                plan.forTask(task, input: x, fillRow: fill) { row, cs, rows in
                    let c0 = cs.lowerBound
                    let shape = plan.shape.slice(channels: cs.count)
                    let out = y + row * g.outW * g.inC + c0, bias = b.map { $0 + c0 }
                    var kernel = depthwiseConv5x5F32Portable
                    #if arch(x86_64)
                    if vector { kernel = depthwiseConv5x5F32AVX2 }
                    #endif
                    kernel(shape, plan.channelsOutside, rows, fill + c0, w + c0, bias, lower, upper, out)
                }
            }
        }
    }
}
