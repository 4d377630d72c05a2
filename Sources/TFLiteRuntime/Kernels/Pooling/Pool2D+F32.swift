import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// Float pooling with the direct loops (``PoolLoops``): per output pixel, the channels are
/// reduced over the clipped window in row-major order, one plain loop over the channels per
/// window pixel, which each level vectorizes with its own widths (the `SIMD8<Float>` form
/// with `pointwiseMax` and `clamped` was several times slower); work is split over output
/// rows.
struct Pool2DF32: PreparedKernel {
    let kind: Pool2D.Kind
    let input: Int, output: Int
    let geometry: Pool2D.Geometry
    let range: FloatActivationRange
    /// `avx2` and up: the AVX2 module's loops.
    let vector: Bool

    init(
        kind: Pool2D.Kind, input: Int, output: Int, geometry: Pool2D.Geometry, range: FloatActivationRange,
        level: KernelLevel
    ) {
        (self.kind, self.input, self.output, self.geometry, self.range) = (kind, input, output, geometry, range)
        vector = level >= .avx2 && level.hasVectorKernels
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let g = geometry.loops, average = kind == .average, vector = self.vector
        let (lower, upper) = (range.lower, range.upper)
        context.parallel.forEachChunk(geometry.batch * g.outH) { rows in
            #if arch(x86_64)
            if vector { return poolF32AVX2(average: average, x, y, g, rows: rows, lower: lower, upper: upper) }
            #endif
            poolF32Portable(average: average, x, y, g, rows: rows, lower: lower, upper: upper)
        }
    }
}

extension Pool2D.Geometry {
    /// The geometry as the pooling loops take it.
    var loops: PoolGeometry {
        PoolGeometry(
            inH: inH, inW: inW, channels: channels, outH: outH, outW: outW, filterH: filterH, filterW: filterW,
            strideH: strideH, strideW: strideW, padTop: padTop, padLeft: padLeft)
    }
}
