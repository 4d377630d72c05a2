import TFLiteModel

/// Float CONV_3D through BLAS (``TiledGEMM``): for each tile of output voxels, gather
/// their receptive fields (``Conv3DGeometry/gatherPatches(first:count:from:into:)``) and
/// multiply by the DHWIO filter read as `[patch, outC]`; bias and activation follow per
/// finished rows. A pointwise convolution multiplies the input in place.
struct Conv3DF32: PreparedKernel {
    let input: Int, filter: Int, bias: Int?, output: Int
    let geometry: Conv3DGeometry
    let tilePixels: Int
    /// im2col scratch (nil for pointwise).
    let scratch: Int?
    let epilogue: FloatBiasActivation

    static func make(
        _ context: inout PrepareContext, geometry g: Conv3DGeometry, input: Int, filter: Int, bias: Int?,
        output: Int, range: FloatActivationRange
    ) throws(KernelError) -> Conv3DF32 {
        let epilogue = FloatBiasActivation(channels: g.outC, range: range)
        if g.isPointwise {
            try ConvCheck.blasSizes([g.outputPixels, g.outC, g.inC], "CONV_3D")
            return Conv3DF32(
                input: input, filter: filter, bias: bias, output: output, geometry: g, tilePixels: g.outputPixels,
                scratch: nil, epilogue: epilogue)
        }
        let patchBytes = try ConvCheck.product([g.patch, MemoryLayout<Float>.stride], "CONV_3D patch")
        let tilePixels = Swift.min(
            g.outputPixels, Swift.max(1, Conv2DF32.im2colBudgetBytes / Swift.max(patchBytes, 1)))
        try ConvCheck.blasSizes([tilePixels, g.outC, g.patch], "CONV_3D")
        let slot = context.requestScratch(bytes: try ConvCheck.product([tilePixels, patchBytes], "CONV_3D im2col"))
        return Conv3DF32(
            input: input, filter: filter, bias: bias, output: output, geometry: g, tilePixels: tilePixels,
            scratch: slot, epilogue: epilogue)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let w = UnsafePointer(context.pointer(filter, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let g = geometry, outC = g.outC, patch = g.patch
        let pixels = g.outputPixels
        var start = 0
        while start < pixels {
            let count = Swift.min(tilePixels, pixels - start)
            let tileOutput = y + start * outC
            let finish =
                epilogue.isIdentity(hasBias: b != nil)
                ? nil
                : { (rows: Range<Int>) in
                    epilogue.apply(rows: rows, output: tileOutput, rowStride: outC, bias: b)
                }
            let a: UnsafePointer<Float>, lda: Int
            if let scratch {
                let columns = context.scratch(scratch, as: Float.self)
                let first = start
                context.parallel.forEachChunk(count, cost: patch) { range in
                    g.gatherPatches(
                        first: first + range.lowerBound, count: range.count, from: x,
                        into: columns + range.lowerBound * patch)
                }
                (a, lda) = (UnsafePointer(columns), patch)
            } else {
                (a, lda) = (x + start * g.inC, g.inC)
            }
            TiledGEMM.run(
                context.parallel, m: count, n: outC, k: patch, a: a, lda: lda, b: w, ldb: outC, transposeB: false,
                c: tileOutput, ldc: outC, finishRows: finish)
            start += count
        }
    }
}
