import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// Float CONV_2D with constant filter and bias on levels with a float GEMM microkernel
/// (``KernelLevel/avx2``, and ``KernelLevel/avx512`` with two panels per zmm block on the
/// same packed filter; on aarch64 every level, `gemmF32x8x12NEON` on 12-column panels):
/// the filter rows and bias are packed once at prepare (``GemmF32Layout``) and each tile
/// of output pixels is one call of the level's GEMM, with bias and activation applied on
/// the accumulators before they are stored.
///
/// A pointwise convolution (1×1, stride 1, no padding) multiplies the NHWC input in place;
/// any other geometry gathers a tile's receptive fields first (im2col, per-worker scratch).
/// Measured against OpenBLAS's AVX2 kernels on MobileNet's layer shapes, the fused 6×16
/// kernel wins on every one (the table is in BENCHMARKS.md), most where few channels make
/// BLAS's packing and a separate epilogue pass costly. Groups other than 1 keep the
/// portable kernels.
struct Conv2DF32Packed: PreparedKernel {
    let input: Int, output: Int
    let geometry: Conv2DGeometry
    let pointwise: Bool
    /// `kh·kw·inC`: the GEMM's depth.
    let patch: Int
    let tiles: GemmTiles
    let packed: PackedBuffer
    let lower: Float, upper: Float
    /// The level whose GEMM runs (one with ``KernelLevel/hasVectorKernels``).
    let level: KernelLevel
    /// Columns per packed panel (``GemmF32Layout/panelWidth(for:)``).
    let panelWidth: Int
    /// A pointwise convolution of fewer pixels than one row block per thread (MobileNet
    /// v1's classifier, 1 pixel by 1024 → 1000): the threads split the output columns,
    /// whole packed panels each, instead of the pixels. Split by pixels, such a layer ran
    /// on one thread (a single tile), or every thread streamed all the weights for a few
    /// rows; the layer is bound by reading its weights once.
    let splitColumns: Bool

    /// The kernel when the level has a float GEMM and the operator fits it, else nil.
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int, filter: TensorState,
        bias: TensorState?, input: Int, output: Int,
        range: FloatActivationRange
    ) throws(KernelError) -> Conv2DF32Packed? {
        // Fewer than 8 output channels would pad each packed panel to more than twice the
        // weights' own bytes; the portable kernels need no copy at all.
        guard context.kernelLevel.hasVectorKernels, groups == 1, g.outC >= 8, let weights = filter.constant else {
            return nil
        }
        let width = GemmF32Layout.panelWidth(for: context.kernelLevel)
        let biasValues: ConstantBytes?
        if let bias {
            guard let constant = bias.constant else { return nil }
            guard constant.bytes.count >= g.outC * MemoryLayout<Float>.stride else {
                throw .invalid("the bias holds \(constant.bytes.count) bytes; \(g.outC) floats needed")
            }
            biasValues = constant
        } else {
            biasValues = nil
        }
        let patch = try ConvCheck.product([g.kh, g.kw, g.inC], "CONV_2D patch")
        let filterValues = weights.typed(Float.self)
        guard filterValues.count >= (try ConvCheck.product([g.outC, patch], "CONV_2D filter")) else {
            throw .invalid("the filter holds \(filterValues.count) values; \(g.outC) x \(patch) needed")
        }
        guard let count = GemmF32Layout.packedCount(n: g.outC, k: patch, width: width) else {
            throw .invalid("CONV_2D packed filter size overflows")
        }
        let bytes = try ConvCheck.product([count, MemoryLayout<Float>.stride], "CONV_2D packed filter")
        let outC = g.outC
        let packed = try context.pack(bytes: bytes) { pointer in
            guard let w = filterValues.baseAddress else { return 0 }
            GemmF32Layout.pack(
                weights: w, bias: biasValues?.typed(Float.self).baseAddress, n: outC, k: patch, width: width,
                into: pointer.bindMemory(to: Float.self, capacity: count))
            // The kernel reads only the packed copy from now on.
            weights.releasePages()
            return 0
        }
        let pointwise =
            g.kh == 1 && g.kw == 1 && g.strideH == 1 && g.strideW == 1
            && g.padTop == 0 && g.padLeft == 0 && g.outH == g.inH && g.outW == g.inW
        let tiles = try GemmTiles(
            &context, pixels: g.outputPixels, patch: pointwise ? 0 : patch, outChannels: outC,
            results: false, op: "CONV_2D")
        let panels = (outC + width - 1) / width
        let splitColumns =
            pointwise && context.threadCount > 1 && panels >= context.threadCount
            && g.outputPixels < Self.rowBlock * context.threadCount
        return Conv2DF32Packed(
            input: input, output: output, geometry: g, pointwise: pointwise, patch: patch,
            tiles: tiles, packed: packed, lower: range.lower, upper: range.upper,
            level: context.kernelLevel, panelWidth: width, splitColumns: splitColumns)
    }

    /// Rows of the microkernels' largest block.
    static let rowBlock = 8

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let w = UnsafePointer(packed.pointer.assumingMemoryBound(to: Float.self))
        let g = geometry, outC = g.outC
        if splitColumns {
            let width = panelWidth, panelCount = GemmF32Layout.panelCount(k: patch, width: width)
            let panels = (outC + width - 1) / width
            let pixels = g.outputPixels
            context.parallel.forEachChunk(panels, cost: pixels * width * patch) { range in
                let first = range.lowerBound * width
                gemm(
                    m: pixels, n: Swift.min(outC, range.upperBound * width) - first, k: patch, a: x, lda: g.inC,
                    packedB: w + range.lowerBound * panelCount, c: y + first, ldc: outC)
            }
            return
        }
        tiles.forEach(context) { tile in
            let a: UnsafePointer<Float>, lda: Int
            if pointwise {
                (a, lda) = (x + tile.first * g.inC, g.inC)
            } else {
                g.gatherPatches(first: tile.first, count: tile.count, from: x, into: tile.columns)
                (a, lda) = (UnsafePointer(tile.columns), patch)
            }
            gemm(m: tile.count, n: outC, k: patch, a: a, lda: lda, packedB: w, c: y + tile.first * outC, ldc: outC)
        }
    }

    /// The level's GEMM (only levels with one build this kernel).
    @inline(__always)
    func gemm(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, packedB: UnsafePointer<Float>,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        Self.gemm(
            level: level, m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: lower, upper: upper, c: c,
            ldc: ldc)
    }

    /// `level`'s float GEMM with the fused epilogue (``GemmF32Layout`` operands); `level`
    /// must have vector kernels.
    @inline(__always)
    static func gemm(
        level: KernelLevel, m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
        packedB: UnsafePointer<Float>, lower: Float, upper: Float, c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        #if arch(x86_64)
        if level >= .avx512 {
            gemmF32x8x32AVX512(
                m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: lower, upper: upper, c: c, ldc: ldc)
        } else {
            gemmF32x6x16AVX2(
                m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: lower, upper: upper, c: c, ldc: ldc)
        }
        #elseif arch(arm64)
        gemmF32x8x12NEON(
            m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: lower, upper: upper, c: c, ldc: ldc)
        #endif
    }
}
