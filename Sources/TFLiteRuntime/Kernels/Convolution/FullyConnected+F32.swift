import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// Float FULLY_CONNECTED: one GEMM `y[batch×out] = x[batch×in] · w[out×in]ᵀ` (the weights'
/// row-major layout is the transposed operand), bias and activation fused per row tile.
struct FullyConnectedF32: PreparedKernel {
    let input: Int, weights: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let epilogue: FloatBiasActivation
    /// Few rows on a level with a matrix-vector microkernel: each row is one product
    /// against the weights, the outputs split over the threads.
    let rowByRow: Bool
    /// Constant weights for ``rowByRow``, copied in blocks of four rows
    /// (`GemvF32Layout`), after which the model's pages are released: the same memory,
    /// read as one stream from the packed region's 2 MiB pages. MobileNet v2's
    /// 1280 → 1000 classifier (5 MB, read from memory every invocation) went from
    /// 0.30-0.36 to 0.16-0.20 ms at 1 thread in the model (Zen 4): four row streams in
    /// the file's 4 KiB pages had cost a TLB miss and a restarted prefetch stream every
    /// kilobyte. Nil when the weights are computed: they are read as stored.
    let packed: PackedBuffer?
    /// Rows up to which ``rowByRow`` is chosen: past it the GEMM reuses each weight
    /// across rows, which a matrix-vector product cannot.
    static let maxRowByRow = 4

    init(
        _ context: PrepareContext, input: Int, weights: TensorState, bias: Int?, output: Int, batch: Int,
        units: Int, depth: Int, epilogue: FloatBiasActivation
    ) throws(KernelError) {
        (self.input, self.weights, self.bias, self.output) = (input, weights.index, bias, output)
        (self.batch, self.units, self.depth, self.epilogue) = (batch, units, depth, epilogue)
        rowByRow = context.kernelLevel.hasVectorKernels && batch <= Self.maxRowByRow
        guard rowByRow, let constant = weights.constant else {
            packed = nil
            return
        }
        let values = constant.typed(Float.self)
        let needed = try ConvCheck.product([units, depth], "FULLY_CONNECTED weights")
        guard values.count >= needed else {
            throw .invalid("the weights hold \(values.count) values; \(units) x \(depth) needed")
        }
        guard let count = GemvF32Layout.packedCount(n: units, k: depth) else {
            throw .invalid("FULLY_CONNECTED packed weights size overflows")
        }
        let bytes = try ConvCheck.product([count, MemoryLayout<Float>.stride], "FULLY_CONNECTED packed weights")
        packed = try context.pack(bytes: bytes) { pointer in
            guard let w = values.baseAddress else { return 0 }
            GemvF32Layout.pack(
                weights: w, n: units, k: depth, into: pointer.bindMemory(to: Float.self, capacity: count))
            // The kernel reads only the packed copy from now on.
            constant.releasePages()
            return 0
        }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        #if arch(x86_64) || arch(arm64)
        if rowByRow {
            let x = UnsafePointer(context.pointer(input, as: Float.self))
            let w = UnsafePointer(context.pointer(weights, as: Float.self))
            let p = packed.map { UnsafePointer($0.pointer.assumingMemoryBound(to: Float.self)) }
            let y = context.pointer(output, as: Float.self)
            let b = context.optionalFloats(bias)
            let (units, depth, lower, upper) = (self.units, self.depth, epilogue.range.lower, epilogue.range.upper)
            // Blocks of 64 outputs (whole packed blocks of four rows); a block is worth a
            // thread only with enough depth.
            let blocks = (units + 63) / 64
            context.parallel.forEachChunk(blocks, minimumChunk: Swift.max(1, 32768 / Swift.max(64 * depth, 1))) {
                range in
                let o0 = range.lowerBound * 64, o1 = Swift.min(units, range.upperBound * 64)
                for r in 0 ..< batch {
                    #if arch(x86_64)
                    if let p {
                        gemvF32x4PackedAVX2(
                            n: o1 - o0, k: depth, x: x + r * depth, packed: p + o0 * depth,
                            bias: b.map { $0 + o0 }, lower: lower, upper: upper, y: y + r * units + o0)
                    } else {
                        gemvF32AVX2(
                            n: o1 - o0, k: depth, x: x + r * depth, w: w + o0 * depth, ldw: depth,
                            bias: b.map { $0 + o0 }, lower: lower, upper: upper, y: y + r * units + o0)
                    }
                    #else
                    if let p {
                        gemvF32x4PackedNEON(
                            n: o1 - o0, k: depth, x: x + r * depth, packed: p + o0 * depth,
                            bias: b.map { $0 + o0 }, lower: lower, upper: upper, y: y + r * units + o0)
                    } else {
                        gemvF32NEON(
                            n: o1 - o0, k: depth, x: x + r * depth, w: w + o0 * depth, ldw: depth,
                            bias: b.map { $0 + o0 }, lower: lower, upper: upper, y: y + r * units + o0)
                    }
                    #endif
                }
            }
            return
        }
        #endif
        let x = context.pointer(input, as: Float.self)
        let w = context.pointer(weights, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let epilogue = self.epilogue, units = self.units
        let finish =
            epilogue.isIdentity(hasBias: b != nil)
            ? nil
            : { (rows: Range<Int>) in
                epilogue.apply(rows: rows, output: y, rowStride: units, bias: b)
            }
        TiledGEMM.run(
            context.parallel, m: batch, n: units, k: depth, a: x, lda: depth,
            b: w, ldb: depth, transposeB: true, c: y, ldc: units, finishRows: finish)
    }
}
