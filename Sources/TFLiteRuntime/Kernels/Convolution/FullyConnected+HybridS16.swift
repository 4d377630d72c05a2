import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// Hybrid FULLY_CONNECTED over many rows on levels with a 16-bit integer GEMM (`avx2`,
/// `avx512`, the aarch64 levels): the numbers of ``FullyConnectedHybridGemm``, with the
/// exact sums taken from the integer GEMM instead of chunked float BLAS calls.
///
/// Each row is quantized as LiteRT does (``HybridInput``) and stored centered,
/// `a[b, i] = q[b, i] - offset[b]` as `Int16` (`|a| ≤ 255`); the int8 weights are packed
/// once into ``GemmS16Layout`` panels. The GEMM gives `acc[b, o] = Σ_i w[o, i]·a[b, i]` in
/// wrapping `Int32`, the integer LiteRT computes, so `y = act(bias[o] + Float(acc) ·
/// (scale[b] · s_w[o]))` is bit-identical to the float path's.
struct FullyConnectedHybridS16: PreparedKernel {
    /// Rows per output tile: a tile's rows stream past one 16-column weight panel.
    static let tileRows = 64

    let input: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int, paddedDepth: Int
    let asymmetric: Bool
    let rows: Int, columns: Int
    /// The centered codes (`batch × paddedDepth` `Int16`) and each row's scale.
    let codes: Int, rowScales: Int
    /// Each worker's `rows × columns` sums.
    let sums: Int, sumsBytes: Int
    let packed: PackedBuffer
    let weightScales: [Float]
    let range: FloatActivationRange

    /// The kernel when `context`'s level has the integer GEMM and the layer is wide enough
    /// for 16-column panels, else nil.
    static func make(
        _ context: inout PrepareContext, input: Int, bias: Int?, output: Int, weights: HybridWeights,
        batch: Int, units: Int, depth: Int, asymmetric: Bool, range: FloatActivationRange
    ) throws(KernelError) -> FullyConnectedHybridS16? {
        let what = "FULLY_CONNECTED"
        guard context.kernelLevel.hasVectorKernels, units >= 8 else { return nil }
        guard weights.codes.count >= (try ConvCheck.product([units, depth], what)) else {
            throw .invalid("\(what): weights hold \(weights.codes.count) values; \(units) x \(depth) needed")
        }
        let kp = GemmS16Layout.paddedDepth(depth)
        guard let count = GemmS16Layout.packedCount(n: units, k: depth) else {
            throw .invalid("\(what): packed weight size overflows")
        }
        let bytes = try ConvCheck.product([count, MemoryLayout<Int16>.stride], what)
        let group = GemmS16Layout.depthsPerGroup(for: context.kernelLevel)
        let codes = weights.codes
        let packed = try context.pack(bytes: bytes) { pointer in
            let out = pointer.bindMemory(to: Int16.self, capacity: count)
            GemmS16Layout.pack(n: units, k: depth, group: group, into: out) { j, d in Int16(codes[j * depth + d]) }
            return 0
        }
        let rows = Swift.min(tileRows, batch)
        // Column tiles are whole panels; a layer of a few hundred units goes in one tile per
        // thread, and the tiles still spread the units over the threads.
        let panels = (units + GemmS16Layout.panelWidth - 1) / GemmS16Layout.panelWidth
        let perThread = (panels + context.threadCount - 1) / Swift.max(1, context.threadCount)
        let columns = GemmS16Layout.panelWidth * Swift.max(1, Swift.min(perThread, 32))
        let sumsBytes = try ConvCheck.cacheLines([try ConvCheck.product([rows, columns, 4], what)], what)
        _ = try ConvCheck.product([sumsBytes, context.threadCount], what)
        let codeBytes = try ConvCheck.product([batch, kp, MemoryLayout<Int16>.stride], what)
        return FullyConnectedHybridS16(
            input: input, bias: bias, output: output, batch: batch, units: units, depth: depth, paddedDepth: kp,
            asymmetric: asymmetric, rows: rows, columns: columns,
            codes: context.requestScratch(bytes: codeBytes),
            rowScales: context.requestScratch(bytes: try ConvCheck.product([batch, 4], what)),
            sums: context.requestThreadScratch(bytesPerThread: sumsBytes), sumsBytes: sumsBytes,
            packed: packed, weightScales: weights.scales, range: range)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let a = context.scratch(codes, as: Int16.self)
        let scales = context.scratch(rowScales, as: Float.self)
        let (depth, kp, units, asymmetric, range) = (depth, paddedDepth, units, asymmetric, range)
        context.parallel.forEachChunk(batch) { chunk in
            for r in chunk {
                let row = a + r * kp
                scales[r] = HybridInput.centeredRow(x + r * depth, count: depth, asymmetric: asymmetric, into: row)
                for i in depth ..< kp { row[i] = 0 }
            }
        }
        let w = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int16.self))
        let (rows, columns) = (rows, columns)
        let rowTiles = (batch + rows - 1) / rows, columnTiles = (units + columns - 1) / columns
        weightScales.withUnsafeBufferPointer { ws in
            guard let unitScalesBase = ws.baseAddress else { return }
            context.parallel.forEachChunkOnThread(rowTiles * columnTiles) { thread, tiles in
                let acc = context.threadScratch(sums, thread: thread, bytes: sumsBytes).assumingMemoryBound(
                    to: Int32.self)
                for t in tiles {
                    let r0 = (t / columnTiles) * rows, m = Swift.min(rows, batch - r0)
                    let c0 = (t % columnTiles) * columns, n = Swift.min(columns, units - c0)
                    Conv2DQ8GemmS16.gemmS16(
                        m: m, n: n, kp: kp, a: a + r0 * kp, lda: kp, packedB: w + c0 * kp, c: acc, ldc: n)
                    for i in 0 ..< m {
                        FullyConnectedHybrid.finishRow(
                            acc + i * n, count: n, scale: scales[r0 + i], unitScales: unitScalesBase + c0,
                            bias: b.map { $0 + c0 }, range: range, into: y + (r0 + i) * units + c0)
                    }
                }
            }
        }
    }
}

extension Int16: HybridCode {
    @inline(__always) init(code: Int32) { self.init(truncatingIfNeeded: code) }
}

extension HybridInput {
    /// Quantizes a contiguous row (``quantize(_:count:stride:asymmetric:into:)``) into
    /// centered codes `q - offset`, and returns its scale: on x86-64 with the AVX2 row
    /// kernels (every level this file's GEMM runs at has them), elsewhere with the
    /// portable loops.
    @inline(__always)
    static func centeredRow(
        _ x: UnsafePointer<Float>, count: Int, asymmetric: Bool, into row: UnsafeMutablePointer<Int16>
    ) -> Float {
        #if arch(x86_64)
        let (lo, hi) = minMaxF32AVX2(x, count: count)
        let rule = RowRule(lo: lo, hi: hi, asymmetric: asymmetric)
        if rule.zero {
            row.update(repeating: 0, count: count)
        } else {
            quantizeCenteredS16AVX2(
                x, count: count, inverse: rule.inverse, base: rule.base, lowest: rule.lowest, highest: rule.highest,
                offset: rule.offset, into: row)
        }
        return rule.scale
        #else
        let (scale, offset) = quantize(x, count: count, stride: 1, asymmetric: asymmetric, into: row)
        if offset != 0 {
            let o = Int16(truncatingIfNeeded: offset)
            for i in 0 ..< count { row[i] &-= o }
        }
        return scale
        #endif
    }
}
