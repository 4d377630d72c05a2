import TFLiteModel

/// Float CONV_2D: chooses between a direct GEMM (pointwise filters) and im2col + GEMM.
enum Conv2DF32 {
    /// Upper bound of the im2col scratch buffer; larger images are processed in tiles
    /// of output pixels (at least one pixel per tile, whatever its patch size).
    static let im2colBudgetBytes = 4 << 20

    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: Int, filter: Int, bias: Int?, output: Int,
        range: FloatActivationRange
    ) throws(KernelError) -> any PreparedKernel {
        let groupInC = g.inC / groups
        let groupOutC = g.outC / groups
        let epilogue = FloatBiasActivation(channels: g.outC, range: range)
        let pointwise =
            g.kh == 1 && g.kw == 1 && g.strideH == 1 && g.strideW == 1
            && g.padTop == 0 && g.padLeft == 0 && g.outH == g.inH && g.outW == g.inW
        if pointwise {
            try ConvCheck.blasSizes([g.outputPixels, groupOutC, groupInC, g.inC, g.outC], "CONV_2D")
            return Conv2DF32Pointwise(
                input: input, filter: filter, bias: bias, output: output,
                pixels: g.outputPixels, inC: g.inC, outC: g.outC,
                groups: groups, groupInC: groupInC, groupOutC: groupOutC, epilogue: epilogue)
        }
        let patch = try ConvCheck.product([g.kh, g.kw, groupInC], "CONV_2D patch")
        let patchBytes = try ConvCheck.product([patch, MemoryLayout<Float>.stride], "CONV_2D patch")
        let tilePixels = Swift.min(g.outputPixels, Swift.max(1, im2colBudgetBytes / Swift.max(patchBytes, 1)))
        try ConvCheck.blasSizes([tilePixels, groupOutC, patch, g.outC], "CONV_2D")
        let scratchBytes = try ConvCheck.product([tilePixels, patchBytes], "CONV_2D im2col")
        let slot = context.requestScratch(bytes: scratchBytes)
        return Conv2DF32Im2col(
            input: input, filter: filter, bias: bias, output: output, geometry: g,
            groups: groups, groupInC: groupInC, groupOutC: groupOutC, patch: patch,
            tilePixels: tilePixels, scratch: slot, epilogue: epilogue)
    }
}

/// 1×1 filter, stride 1, no padding: the NHWC input viewed as `[N·H·W, inC]` is already
/// the GEMM's left operand, so each group is one GEMM with no copy:
/// `y[:, g·Og ..< (g+1)·Og] = x[:, g·Cg ..< (g+1)·Cg] · w[g·Og ..< (g+1)·Og, :]ᵀ`.
struct Conv2DF32Pointwise: PreparedKernel {
    let input: Int, filter: Int, bias: Int?, output: Int
    let pixels: Int, inC: Int, outC: Int
    let groups: Int, groupInC: Int, groupOutC: Int
    let epilogue: FloatBiasActivation

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(input, as: Float.self)
        let w = context.pointer(filter, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        guard pixels > 0 else { return }
        let finish =
            epilogue.isIdentity(hasBias: b != nil)
            ? nil
            : { (rows: Range<Int>) in
                epilogue.apply(rows: rows, output: y, rowStride: outC, bias: b)
            }
        if groups == 1 {
            TiledGEMM.run(
                context.parallel, m: pixels, n: outC, k: inC, a: x, lda: inC,
                b: w, ldb: inC, transposeB: true, c: y, ldc: outC, finishRows: finish)
            return
        }
        for g in 0 ..< groups {
            TiledGEMM.run(
                context.parallel, m: pixels, n: groupOutC, k: groupInC,
                a: x + g * groupInC, lda: inC,
                b: w + g * groupOutC * groupInC, ldb: groupInC, transposeB: true,
                c: y + g * groupOutC, ldc: outC)
        }
        if let finish {
            context.parallel.forEachChunk(pixels, cost: outC) { rows in finish(rows) }
        }
    }
}

/// General convolution: for a tile of output pixels, gather each pixel's receptive field
/// (`kh·kw·Cg` values in filter order, zeros for taps in the padding) into a row of the
/// scratch matrix, then one GEMM per group against the OHWI filter rows, whose layout
/// `[outC, kh·kw·Cg]` is the transposed right operand. Bias and activation follow per tile.
struct Conv2DF32Im2col: PreparedKernel {
    let input: Int, filter: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let groups: Int, groupInC: Int, groupOutC: Int
    /// `kh · kw · groupInC`: the GEMM's inner dimension.
    let patch: Int
    let tilePixels: Int
    let scratch: Int
    let epilogue: FloatBiasActivation

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let w = context.pointer(filter, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let columns = context.scratch(scratch, as: Float.self)
        let pixels = geometry.outputPixels
        let outC = geometry.outC
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
            for g in 0 ..< groups {
                // Gathering copies `patch` values a pixel: small tiles stay on one thread.
                context.parallel.forEachChunk(count, cost: patch) { range in
                    if groups == 1 {
                        geometry.gatherPatches(
                            first: start + range.lowerBound, count: range.count, from: x,
                            into: columns + range.lowerBound * patch)
                    } else {
                        for p in range { gatherPatch(pixel: start + p, group: g, from: x, into: columns + p * patch) }
                    }
                }
                TiledGEMM.run(
                    context.parallel, m: count, n: groupOutC, k: patch,
                    a: columns, lda: patch,
                    b: w + g * groupOutC * patch, ldb: patch, transposeB: true,
                    c: tileOutput + g * groupOutC, ldc: outC,
                    finishRows: groups == 1 ? finish : nil)
            }
            if groups > 1, let finish {
                context.parallel.forEachChunk(count, cost: outC) { rows in finish(rows) }
            }
            start += count
        }
    }

    /// Writes the receptive field of output pixel `pixel` (flattened `(b, oy, ox)`) for
    /// group `group` as `patch` floats ordered `(ky, kx, channel)`.
    @inline(__always)
    func gatherPatch(pixel: Int, group: Int, from x: UnsafePointer<Float>, into col: UnsafeMutablePointer<Float>) {
        geometry.gatherPatch(pixel: pixel, group: group, groups: groups, groupInC: groupInC, from: x, into: col)
    }
}
