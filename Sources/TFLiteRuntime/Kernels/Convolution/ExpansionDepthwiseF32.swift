/// A float GEMM CONV_2D (``Conv2DF32Packed``) and the 3×3 DEPTHWISE_CONV_2D
/// (``DepthwiseConv2D3x3F32``) that alone reads its output, run as one step: MobileNet v2's
/// expansion layers and the depthwise layer after each, 6x wider than the block's input,
/// and a stem convolution and the depthwise layer after it.
///
/// Each thread takes a band of depthwise output rows. For each output row it makes sure the
/// three expanded rows the 3×3 window covers are in its ring of three rows (expanded row
/// `iy` lives in slot `iy mod 3`, so any three consecutive rows have slots of their own),
/// computing a missing one with the convolution's GEMM on that image row (a stem
/// convolution first gathers the row's receptive fields, as its tiles do), then runs the
/// depthwise row kernel on the ring. The expanded tensor, 4.8 MB for MobileNet v2's first
/// expansion (112×112×96), is never written to the arena: it used to be written to memory
/// that was last touched an invocation ago (each line read from DRAM before being written)
/// and read back from the shared cache, where now a row is read from the thread's own L2
/// moments after it is computed.
///
/// Outputs are the same bits as the two kernels run one after the other: every expanded
/// pixel is the same GEMM row (the GEMM's results do not depend on how rows are grouped
/// into calls) and every depthwise row the same call on the same values. A band's first
/// rows are also computed by the band before it (at most two rows per band boundary).
struct ExpansionDepthwiseF32: PreparedKernel {
    let expansion: Conv2DF32Packed
    let depthwise: DepthwiseConv2D3x3F32
    /// Floats of one expanded row (`inW·channels` of the depthwise input, rounded up to a
    /// cache line).
    let rowFloats: Int
    /// Each thread's ring of three expanded rows, followed (for a convolution that is not
    /// pointwise) by one image row's receptive fields, `outW·patch` floats (im2col).
    let rings: [AlignedBuffer]

    /// Expanded tensors smaller than this stay in the arena: they stay in the cache between
    /// the two operators anyway, and a small layer's GEMM is faster over whole tiles than
    /// one image row at a time. Measured at 1 thread on Zen 4 (1 MiB of L2 per core), the
    /// pair's time fused against apart: SSD MobileNet v2's 160×160×96 expansion (9.8 MB)
    /// 1.12-1.18 against 1.73 ms, its 160×160×32 stem 0.89 against 1.14 ms, MobileNet v2's
    /// 112×112×96 expansion 0.53 against 0.63 ms, its 56×56×144 (1.8 MB) 0.34-0.36
    /// against 0.42-0.44 ms and its 112×112×32 stem (1.6 MB) 0.46 against 0.50-0.52 ms.
    /// With the floor at 512 KiB (MobileNet v2's 28×28×192 pairs too) the models were no
    /// faster.
    static let minimumExpandedBytes = 1 << 20

    /// The fused kernel when `first` and `second` fit it, else nil: a GEMM convolution (not
    /// split by columns) whose output is the depthwise layer's input, on a level with the
    /// depthwise row microkernel.
    init?(_ first: any PreparedKernel, _ second: any PreparedKernel, threadCount: Int) {
        guard let conv = first as? Conv2DF32Packed, let dw = second as? DepthwiseConv2D3x3F32,
            !conv.splitColumns, dw.level.hasVectorKernels, conv.output == dw.general.input
        else { return nil }
        let c = conv.geometry, d = dw.general.geometry
        guard c.batch == d.batch, c.outH == d.inH, c.outW == d.inW, c.outC == d.inC else { return nil }
        let (rowElements, o1) = d.inW.multipliedReportingOverflow(by: d.inC)
        let (imageElements, o2) = rowElements.multipliedReportingOverflow(by: d.inH * d.batch)
        let (columnFloats, o3) = conv.pointwise ? (0, false) : c.outW.multipliedReportingOverflow(by: conv.patch)
        guard !o1, !o2, !o3, imageElements >= Self.minimumExpandedBytes / MemoryLayout<Float>.stride else {
            return nil
        }
        expansion = conv
        depthwise = dw
        let rowFloats = (rowElements + 15) / 16 * 16
        self.rowFloats = rowFloats
        let bytes = (3 * rowFloats + columnFloats) * MemoryLayout<Float>.stride
        rings = (0 ..< Swift.max(threadCount, 1)).map { _ in AlignedBuffer(zeroedCount: bytes) }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(expansion.input, as: Float.self))
        let weights = UnsafePointer(context.pointer(depthwise.general.filter, as: Float.self))
        let y = context.pointer(depthwise.general.output, as: Float.self)
        let bias = context.optionalFloats(depthwise.general.bias)
        let packed = UnsafePointer(expansion.packed.pointer.assumingMemoryBound(to: Float.self))
        let zero = UnsafePointer(depthwise.zeros.typed(Float.self))
        let c = expansion.geometry, d = depthwise.general.geometry
        let rowFloats = self.rowFloats, patch = expansion.patch
        context.parallel.forEachChunkOnThread(d.batch * d.outH) { thread, rows in
            let ring = rings[Swift.min(thread, rings.count - 1)].typed(Float.self)
            let columns = ring + 3 * rowFloats
            // The expanded row (image · inH + iy) each slot holds, -1 for none.
            var held = SIMD3<Int>(repeating: -1)
            @inline(__always) func expandedRow(_ image: Int, _ iy: Int) -> UnsafePointer<Float>? {
                guard iy >= 0, iy < d.inH else { return nil }
                let global = image * d.inH + iy
                let slot = iy % 3
                let row = ring + slot * rowFloats
                if held[slot] != global {
                    if expansion.pointwise {
                        expansion.gemm(
                            m: c.outW, n: c.outC, k: c.inC, a: x + global * c.inW * c.inC, lda: c.inC,
                            packedB: packed, c: row, ldc: c.outC)
                    } else {
                        c.gatherPatches(first: global * c.outW, count: c.outW, from: x, into: columns)
                        expansion.gemm(
                            m: c.outW, n: c.outC, k: patch, a: columns, lda: patch, packedB: packed, c: row,
                            ldc: c.outC)
                    }
                    held[slot] = global
                }
                return UnsafePointer(row)
            }
            for row in rows {
                let image = row / d.outH, oy = row % d.outH
                let iy0 = oy * d.strideH - d.padTop
                let r = (expandedRow(image, iy0), expandedRow(image, iy0 + 1), expandedRow(image, iy0 + 2))
                depthwise.rowMicrokernel(r, w: weights, zero: zero, bias: bias, out: y + row * d.outW * d.outC)
            }
        }
    }
}
