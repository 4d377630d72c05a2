import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// uint8 RESIZE_BILINEAR as TFLite's reference kernel: the float weights and order of
/// ``ResizeBilinearF32`` on the codes, plus 0.5, truncated. Codes are interpolated as
/// they are (TFLite does not requantize; the output is meant to share the input's
/// quantization).
struct ResizeBilinearU8: PreparedKernel {
    let input: Int
    let output: Int
    let geometry: ResizeGeometry
    let options: ResizeOptions
    let tables: ResizeAxisTables
    /// `avx2` and up: the AVX2 module's row loop.
    let vector: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        let (rows, columns) = BilinearAxis.tables(context, tables, geometry, options)
        let vector = self.vector
        forEachBilinearRow(
            context, x: context.pointer(input, as: UInt8.self), y: context.pointer(output, as: UInt8.self),
            geometry: geometry, rows: rows
        ) { top, bottom, oy, out in
            let g = geometry
            #if arch(x86_64)
            if vector {
                return bilinearRowU8AVX2(
                    top, bottom, ty: rows.fraction[oy], lower: columns.lower, upper: columns.upper,
                    weights: columns.fraction, width: g.outputWidth, depth: g.depth, out)
            }
            #endif
            bilinearRowU8Portable(
                top, bottom, ty: rows.fraction[oy], lower: columns.lower, upper: columns.upper,
                weights: columns.fraction, width: g.outputWidth, depth: g.depth, out)
        }
    }
}

/// The rows of a bilinear resize: for every output row `oy` of every image, `row` gets its
/// two source rows (`lower`, `upper` of the row table), `oy` and the output row to fill.
/// One chunk computes whole output rows, so results do not depend on the thread count.
@inline(__always)
func forEachBilinearRow<T, W>(
    _ context: EvalContext, x: UnsafeMutablePointer<T>, y: UnsafeMutablePointer<T>,
    geometry g: ResizeGeometry, rows: AxisTable<W>,
    _ row: (_ top: UnsafePointer<T>, _ bottom: UnsafePointer<T>, _ oy: Int, _ out: UnsafeMutablePointer<T>) -> Void
) {
    let inRow = g.inputWidth * g.depth, inImage = g.inputHeight * inRow
    let outRow = g.outputWidth * g.depth
    context.parallel.forEachChunk(g.batch * g.outputHeight, cost: outRow * 8) { range in
        for r in range {
            let b = r / g.outputHeight, oy = r % g.outputHeight
            row(
                UnsafePointer(x + b * inImage + rows.lower[oy] * inRow),
                UnsafePointer(x + b * inImage + rows.upper[oy] * inRow), oy, y + r * outRow)
        }
    }
}

/// Neighbours and 10-bit fixed-point positions of TFLite's integer bilinear resize
/// along one axis: `scale = round(2^10·in/out)` (or `(in−1)/(out−1)` with align
/// corners), `v = o·scale` (with half-pixel centers `+ scale/2 − 2^9`),
/// `lo = max(v / 2^10, 0)`, `hi = min(⌈v / 2^10⌉, in − 1)` (C division, truncating).
enum IntegerBilinearAxis {
    static func fill(_ table: AxisTable<Int64>, input: Int, output: Int, options: ResizeOptions) {
        // Sizes come from validated tensors (positive, and well inside Int32 after the
        // engine's byte-size checks), so these products fit in Int.
        var scale = ((1 << 10) * input + output / 2) / output
        if options.alignCorners && output > 1 {
            scale = ((1 << 10) * (input - 1) + (output - 1) / 2) / (output - 1)
        }
        for o in 0 ..< output {
            let v = options.halfPixelCenters ? o * scale + scale / 2 - (1 << 9) : o * scale
            let lo = Swift.min(Swift.max(v / (1 << 10), 0), input - 1)
            let hi = Swift.max(Swift.min((v + (1 << 10) - 1) / (1 << 10), input - 1), 0)
            table.lower[o] = lo
            table.upper[o] = hi
            table.fraction[o] = Int64(v - (1 << 10) * lo)
        }
    }
}

/// int8 RESIZE_BILINEAR as TFLite's reference kernel: integer weights in units of
/// 2^-10 per axis, the four products summed in Int64 (scale 2^20) and divided by 2^20
/// rounding half away from zero.
struct ResizeBilinearS8: PreparedKernel {
    let input: Int
    let output: Int
    let geometry: ResizeGeometry
    let options: ResizeOptions
    let tables: ResizeAxisTables
    /// `avx2` and up: the AVX2 module's row loop.
    let vector: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        let (rows, columns) = tables.axes(context, geometry, weight: Int64.self)
        IntegerBilinearAxis.fill(rows, input: geometry.inputHeight, output: geometry.outputHeight, options: options)
        IntegerBilinearAxis.fill(columns, input: geometry.inputWidth, output: geometry.outputWidth, options: options)
        let vector = self.vector
        forEachBilinearRow(
            context, x: context.pointer(input, as: Int8.self), y: context.pointer(output, as: Int8.self),
            geometry: geometry, rows: rows
        ) { top, bottom, oy, out in
            let g = geometry, ty = Int32(truncatingIfNeeded: rows.fraction[oy])
            #if arch(x86_64)
            if vector {
                return bilinearRowS8AVX2(
                    top, bottom, ty: ty, lower: columns.lower, upper: columns.upper, weights: columns.fraction,
                    width: g.outputWidth, depth: g.depth, out)
            }
            #endif
            bilinearRowS8Portable(
                top, bottom, ty: ty, lower: columns.lower, upper: columns.upper, weights: columns.fraction,
                width: g.outputWidth, depth: g.depth, out)
        }
    }
}
