import TFLiteModel

/// Float TRANSPOSE_CONV as GEMM + col2im, one image at a time:
/// 1. `col[H·W, kh·kw·outC] = x_b[H·W, inC] · P[kh·kw·outC, inC]ᵀ`, where `P` holds the
///    weights reordered so that `P[(fy·kw + fx)·outC + oc] = w[oc, fy, fx]` (packed at
///    prepare when the weights are constant, else into scratch at each run);
/// 2. each output pixel gathers, channels contiguous, the columns of the input pixels
///    that reach it (`iy·strideH - padTop + fy = oy`), taps in `(fy, fx)` order, then bias
///    and activation. The gather is split over output rows, so each output element has one
///    writer and results do not depend on the thread count.
struct TransposeConvF32: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    /// Weights to pack at each run (nil when packed at prepare).
    let weights: Int?
    let packed: AlignedBuffer?
    let packedScratch: Int?
    let columnsScratch: Int
    let geometry: Conv2DGeometry
    let epilogue: FloatBiasActivation

    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, weights: TensorState,
        input: Int, bias: Int?, output: Int, range: FloatActivationRange
    ) throws(KernelError) -> TransposeConvF32 {
        let taps = try ConvCheck.product([g.kh, g.kw, g.outC], "TRANSPOSE_CONV")
        let pixels = try ConvCheck.product([g.inH, g.inW], "TRANSPOSE_CONV")
        try ConvCheck.blasSizes([pixels, taps, g.inC], "TRANSPOSE_CONV")
        let columnBytes = try ConvCheck.product([pixels, taps, MemoryLayout<Float>.stride], "TRANSPOSE_CONV columns")
        let columns = context.requestScratch(bytes: columnBytes)
        let epilogue = FloatBiasActivation(channels: g.outC, range: range)
        let weightCount = taps * g.inC // = weights' element count, validated at load
        if let constant = weights.constant {
            let buffer = AlignedBuffer(zeroedCount: weightCount * MemoryLayout<Float>.stride)
            if let base = constant.typed(Float.self).baseAddress {
                pack(base, into: buffer.typed(Float.self), geometry: g)
            }
            return TransposeConvF32(
                input: input, bias: bias, output: output, weights: nil, packed: buffer, packedScratch: nil,
                columnsScratch: columns, geometry: g, epilogue: epilogue)
        }
        let slot = context.requestScratch(bytes: weightCount * MemoryLayout<Float>.stride)
        return TransposeConvF32(
            input: input, bias: bias, output: output, weights: weights.index, packed: nil, packedScratch: slot,
            columnsScratch: columns, geometry: g, epilogue: epilogue)
    }

    /// OHWI `[outC, kh, kw, inC]` → `[kh, kw, outC, inC]`.
    static func pack(_ w: UnsafePointer<Float>, into p: UnsafeMutablePointer<Float>, geometry g: Conv2DGeometry) {
        for oc in 0 ..< g.outC {
            for tap in 0 ..< g.kh * g.kw {
                (p + (tap * g.outC + oc) * g.inC).update(from: w + (oc * g.kh * g.kw + tap) * g.inC, count: g.inC)
            }
        }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = context.pointer(input, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let col = context.scratch(columnsScratch, as: Float.self)
        let p: UnsafePointer<Float>
        if let packed {
            p = UnsafePointer(packed.typed(Float.self))
        } else if let weights, let packedScratch {
            let buffer = context.scratch(packedScratch, as: Float.self)
            Self.pack(context.pointer(weights, as: Float.self), into: buffer, geometry: g)
            p = UnsafePointer(buffer)
        } else {
            return // unreachable: make() sets one of the two
        }
        let pixels = g.inH * g.inW
        let taps = g.kh * g.kw * g.outC
        for n in 0 ..< g.batch {
            TiledGEMM.run(
                context.parallel, m: pixels, n: taps, k: g.inC,
                a: x + n * pixels * g.inC, lda: g.inC,
                b: p, ldb: g.inC, transposeB: true, c: col, ldc: taps)
            let image = y + n * g.outH * g.outW * g.outC
            context.parallel.forEachChunk(g.outH) { rows in
                for oy in rows { gatherRow(oy, columns: UnsafePointer(col), image: image, bias: b) }
            }
        }
    }

    /// Output row `oy` of one image from the column matrix.
    @inline(__always)
    func gatherRow(
        _ oy: Int, columns: UnsafePointer<Float>, image: UnsafeMutablePointer<Float>, bias: UnsafePointer<Float>?
    ) {
        let g = geometry
        let taps = g.kh * g.kw * g.outC
        for ox in 0 ..< g.outW {
            let out = image + (oy * g.outW + ox) * g.outC
            out.update(repeating: 0, count: g.outC)
            for fy in 0 ..< g.kh {
                let ty = oy + g.padTop - fy
                guard ty >= 0, ty % g.strideH == 0 else { continue }
                let iy = ty / g.strideH
                guard iy < g.inH else { continue }
                for fx in 0 ..< g.kw {
                    let tx = ox + g.padLeft - fx
                    guard tx >= 0, tx % g.strideW == 0 else { continue }
                    let ix = tx / g.strideW
                    guard ix < g.inW else { continue }
                    let src = columns + (iy * g.inW + ix) * taps + (fy * g.kw + fx) * g.outC
                    var c = 0
                    while c + 8 <= g.outC {
                        UnsafeMutableRawPointer(out + c).storeBytes(
                            of: load8(out + c) + load8(src + c), as: SIMD8<Float>.self)
                        c += 8
                    }
                    while c < g.outC {
                        out[c] = out[c] + src[c]
                        c += 1
                    }
                }
            }
            epilogue.apply(rows: 0 ..< 1, output: out, rowStride: 0, bias: bias)
        }
    }
}
