import Microkernels
import TFLiteModel

#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#endif

/// Float CONV_3D with constant filter and bias on levels with a float GEMM microkernel
/// (``KernelLevel/avx2`` and above), as ``Conv2DF32Packed`` does for CONV_2D: the filter,
/// transposed to one row of `patch` values per output channel, and the bias are packed
/// once (``GemmF32Layout``); each tile of output voxels gathers its patches into the
/// worker's scratch (or, pointwise, reads the input in place) and is one call of the
/// level's GEMM, with bias and activation applied on the accumulators.
struct Conv3DF32Packed: PreparedKernel {
    let input: Int, output: Int
    let geometry: Conv3DGeometry
    let tiles: GemmTiles
    let packed: PackedBuffer
    let lower: Float, upper: Float
    let level: KernelLevel

    static func make(
        _ context: inout PrepareContext, geometry g: Conv3DGeometry, filter: TensorState, bias: TensorState?,
        input: Int, output: Int, range: FloatActivationRange
    ) throws(KernelError) -> Conv3DF32Packed? {
        guard context.kernelLevel >= .avx2, g.outC >= 8, let weights = filter.constant else { return nil }
        var biasValues: ConstantBytes?
        if let bias {
            guard let constant = bias.constant else { return nil }
            guard constant.bytes.count >= g.outC * MemoryLayout<Float>.stride else {
                throw .invalid("the bias holds \(constant.bytes.count) bytes; \(g.outC) floats needed")
            }
            biasValues = constant
        }
        let patch = g.patch, outC = g.outC
        let filterValues = weights.typed(Float.self)
        guard filterValues.count >= (try ConvCheck.product([outC, patch], "CONV_3D filter")) else {
            throw .invalid("the filter holds \(filterValues.count) values; \(patch) x \(outC) needed")
        }
        guard let count = GemmF32Layout.packedCount(n: outC, k: patch) else {
            throw .invalid("CONV_3D packed filter size overflows")
        }
        let bytes = try ConvCheck.product([count, MemoryLayout<Float>.stride], "CONV_3D packed filter")
        let packed = try context.pack(bytes: bytes) { pointer in
            guard let w = filterValues.baseAddress else { return 0 }
            // DHWIO `[patch, outC]` → one row per output channel, as the packing expects.
            let rows = UnsafeMutablePointer<Float>.allocate(capacity: outC * patch)
            defer { rows.deallocate() }
            for k in 0 ..< patch {
                for j in 0 ..< outC { rows[j * patch + k] = w[k * outC + j] }
            }
            GemmF32Layout.pack(
                weights: rows, bias: biasValues?.typed(Float.self).baseAddress, n: outC, k: patch,
                into: pointer.bindMemory(to: Float.self, capacity: count))
            weights.releasePages()
            return 0
        }
        let tiles = try GemmTiles(
            &context, pixels: g.outputPixels, patch: g.isPointwise ? 0 : patch, outChannels: outC, results: false,
            op: "CONV_3D")
        return Conv3DF32Packed(
            input: input, output: output, geometry: g, tiles: tiles, packed: packed, lower: range.lower,
            upper: range.upper, level: context.kernelLevel)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let w = UnsafePointer(packed.pointer.assumingMemoryBound(to: Float.self))
        let g = geometry
        tiles.forEach(context) { tile in
            let a: UnsafePointer<Float>, lda: Int
            if g.isPointwise {
                (a, lda) = (x + tile.first * g.inC, g.inC)
            } else {
                g.gatherPatches(first: tile.first, count: tile.count, from: x, into: tile.columns)
                (a, lda) = (UnsafePointer(tile.columns), g.patch)
            }
            gemm(m: tile.count, k: g.patch, a: a, lda: lda, packedB: w, c: y + tile.first * g.outC)
        }
    }

    /// The level's GEMM (only levels with one build this kernel).
    @inline(__always)
    func gemm(
        m: Int, k: Int, a: UnsafePointer<Float>, lda: Int, packedB: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>
    ) {
        #if arch(x86_64)
        let n = geometry.outC
        if level >= .avx512 {
            gemmF32x8x32AVX512(
                m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: lower, upper: upper, c: c, ldc: n)
        } else {
            gemmF32x6x16AVX2(
                m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: lower, upper: upper, c: c, ldc: n)
        }
        #endif
    }
}
