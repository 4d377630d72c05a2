import Microkernels
import TFLiteModel

#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#endif

/// Float CONV_3D_TRANSPOSE as GEMM + col2im, one image at a time:
/// 1. `col[D·H·W, taps·outC] = x_b[D·H·W, inC] · F[taps·outC, inC]ᵀ`, where the filter
///    `[kd, kh, kw, outC, inC]` already is `F` row by row. Portable: BLAS (``TiledGEMM``);
///    AVX2 and above with a constant filter: the level's packed GEMM microkernel on a
///    copy of `F` packed at prepare (``GemmF32Layout``).
/// 2. each output voxel sums, channels contiguous, the columns of the input voxels that
///    reach it (`iz·strideD - padFront + fd·dilationD = oz`, likewise y and x), taps in
///    `(fd, fy, fx)` order, then bias and activation. The gather is split over output
///    rows, so each output element has one writer whatever the thread count.
///
/// `geometry` is the forward CONV_3D from this operator's output to its input: its
/// "input" is this output and its "output" this input.
struct Conv3DTransposeF32: PreparedKernel {
    let input: Int, filter: Int, bias: Int?, output: Int
    let geometry: Conv3DGeometry
    let columns: Int
    let packed: PackedBuffer?
    let level: KernelLevel
    let epilogue: FloatBiasActivation

    /// `kd·kh·kw·outC`: one input voxel's column row.
    var taps: Int { geometry.kd * geometry.kh * geometry.kw * geometry.inC }

    static func make(
        _ context: inout PrepareContext, geometry g: Conv3DGeometry, filter: TensorState, input: Int, bias: Int?,
        output: Int, range: FloatActivationRange
    ) throws(KernelError) -> Conv3DTransposeF32 {
        // In the forward geometry, `inC` is this operator's output channels and `outC` its input's.
        let taps = try ConvCheck.product([g.kd, g.kh, g.kw, g.inC], "CONV_3D_TRANSPOSE")
        let pixels = try ConvCheck.product([g.outD, g.outH, g.outW], "CONV_3D_TRANSPOSE")
        try ConvCheck.blasSizes([pixels, taps, g.outC], "CONV_3D_TRANSPOSE")
        let columnBytes = try ConvCheck.product(
            [pixels, taps, MemoryLayout<Float>.stride], "CONV_3D_TRANSPOSE columns")
        let columns = context.requestScratch(bytes: columnBytes)
        var packed: PackedBuffer?
        if context.kernelLevel >= .avx2, let weights = filter.constant {
            let values = weights.typed(Float.self)
            guard values.count >= taps * g.outC, let count = GemmF32Layout.packedCount(n: taps, k: g.outC) else {
                throw .invalid("the filter holds \(values.count) values; \(taps) x \(g.outC) needed")
            }
            let bytes = try ConvCheck.product([count, MemoryLayout<Float>.stride], "CONV_3D_TRANSPOSE packed filter")
            let k = g.outC
            packed = try context.pack(bytes: bytes) { pointer in
                guard let w = values.baseAddress else { return 0 }
                GemmF32Layout.pack(
                    weights: w, bias: nil, n: taps, k: k, into: pointer.bindMemory(to: Float.self, capacity: count))
                return 0
            }
        }
        return Conv3DTransposeF32(
            input: input, filter: filter.index, bias: bias, output: output, geometry: g, columns: columns,
            packed: packed, level: context.kernelLevel, epilogue: FloatBiasActivation(channels: g.inC, range: range))
    }

    /// The same kernel for another output size of the same input (a run-time output shape):
    /// the scratch and packed filter depend only on the input and the filter.
    func with(geometry g: Conv3DGeometry) -> Conv3DTransposeF32 {
        Conv3DTransposeF32(
            input: input, filter: filter, bias: bias, output: output, geometry: g, columns: columns, packed: packed,
            level: level, epilogue: epilogue)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let w = UnsafePointer(context.pointer(filter, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let col = context.scratch(columns, as: Float.self)
        let pixels = g.outD * g.outH * g.outW
        let taps = self.taps, inC = g.outC
        for n in 0 ..< g.batch {
            let image = x + n * pixels * inC
            if let packed {
                let p = UnsafePointer(packed.pointer.assumingMemoryBound(to: Float.self))
                context.parallel.forEachChunk(pixels, cost: taps * inC) { rows in
                    gemm(
                        m: rows.count, n: taps, k: inC, a: image + rows.lowerBound * inC, lda: inC, packedB: p,
                        c: col + rows.lowerBound * taps, ldc: taps)
                }
            } else {
                TiledGEMM.run(
                    context.parallel, m: pixels, n: taps, k: inC, a: image, lda: inC, b: w, ldb: inC,
                    transposeB: true, c: col, ldc: taps)
            }
            let volume = y + n * g.inD * g.inH * g.inW * g.inC
            context.parallel.forEachChunk(g.inD * g.inH, cost: g.inW * taps) { rows in
                for row in rows { gatherRow(row, columns: UnsafePointer(col), volume: volume, bias: b) }
            }
        }
    }

    /// Output row `row` (`oz·outH + oy`) of one image from the column matrix.
    @inline(__always)
    func gatherRow(
        _ row: Int, columns: UnsafePointer<Float>, volume: UnsafeMutablePointer<Float>, bias: UnsafePointer<Float>?
    ) {
        let g = geometry
        // Forward names: this operator's output is g's input (inD, inH, inW, inC channels).
        let oz = row / g.inH, oy = row % g.inH
        let outC = g.inC, taps = self.taps
        for ox in 0 ..< g.inW {
            let out = volume + ((oz * g.inH + oy) * g.inW + ox) * outC
            out.update(repeating: 0, count: outC)
            for fd in 0 ..< g.kd {
                let tz = oz + g.padFront - fd * g.dilationD
                guard tz >= 0, tz % g.strideD == 0, tz / g.strideD < g.outD else { continue }
                for fy in 0 ..< g.kh {
                    let ty = oy + g.padTop - fy * g.dilationH
                    guard ty >= 0, ty % g.strideH == 0, ty / g.strideH < g.outH else { continue }
                    for fx in 0 ..< g.kw {
                        let tx = ox + g.padLeft - fx * g.dilationW
                        guard tx >= 0, tx % g.strideW == 0, tx / g.strideW < g.outW else { continue }
                        let voxel = ((tz / g.strideD) * g.outH + ty / g.strideH) * g.outW + tx / g.strideW
                        let src = columns + voxel * taps + ((fd * g.kh + fy) * g.kw + fx) * outC
                        for c in 0 ..< outC { out[c] = out[c] + src[c] }
                    }
                }
            }
            epilogue.apply(rows: 0 ..< 1, output: out, rowStride: 0, bias: bias)
        }
    }

    /// The level's GEMM (only levels with one pack the filter).
    @inline(__always)
    func gemm(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, packedB: UnsafePointer<Float>,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        #if arch(x86_64)
        if level >= .avx512 {
            gemmF32x8x32AVX512(
                m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: -.infinity, upper: .infinity, c: c,
                ldc: ldc)
        } else {
            gemmF32x6x16AVX2(
                m: m, n: n, k: k, a: a, lda: lda, packedB: packedB, lower: -.infinity, upper: .infinity, c: c,
                ldc: ldc)
        }
        #endif
    }
}
