import TFLiteModel

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

    func eval(_ context: EvalContext) throws(KernelError) {
        let (rows, columns) = BilinearAxis.tables(context, tables, geometry, options)
        let depth = geometry.depth
        forEachBilinearPixel(
            context, x: context.pointer(input, as: UInt8.self), y: context.pointer(output, as: UInt8.self),
            geometry: geometry, rows: rows, columns: columns
        ) { top, bottom, ty, uy, tx, ux, out in
            for c in 0 ..< depth {
                let v =
                    Float(top.left[c]) * uy * ux + Float(bottom.left[c]) * ty * ux + Float(top.right[c]) * uy * tx
                    + Float(bottom.right[c]) * ty * tx + 0.5
                out[c] = UInt8(Swift.min(Swift.max(v, 0), 255))
            }
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

    func eval(_ context: EvalContext) throws(KernelError) {
        let (rows, columns) = tables.axes(context, geometry, weight: Int64.self)
        IntegerBilinearAxis.fill(rows, input: geometry.inputHeight, output: geometry.outputHeight, options: options)
        IntegerBilinearAxis.fill(columns, input: geometry.inputWidth, output: geometry.outputWidth, options: options)
        let x = context.pointer(input, as: Int8.self)
        let y = context.pointer(output, as: Int8.self)
        let g = geometry
        let depth = g.depth
        let inRow = g.inputWidth * depth, inImage = g.inputHeight * inRow
        let outRow = g.outputWidth * depth
        let one: Int64 = 1 << 10
        let (rowLo, rowHi, rowT) = (rows.lower, rows.upper, rows.fraction)
        let (colLo, colHi, colT) = (columns.lower, columns.upper, columns.fraction)
        context.parallel.forEachChunk(g.batch * g.outputHeight, minimumChunk: 4) { range in
            for r in range {
                let b = r / g.outputHeight, oy = r % g.outputHeight
                let ty = rowT[oy], uy = one - ty
                let top = x + b * inImage + rowLo[oy] * inRow
                let bottom = x + b * inImage + rowHi[oy] * inRow
                var out = y + r * outRow
                for ox in 0 ..< g.outputWidth {
                    let tx = colT[ox], ux = one - tx
                    let left = colLo[ox] * depth, right = colHi[ox] * depth
                    for c in 0 ..< depth {
                        let sum =
                            Int64(top[left + c]) * uy * ux + Int64(bottom[left + c]) * ty * ux
                            + Int64(top[right + c]) * uy * tx + Int64(bottom[right + c]) * ty * tx
                        let rounded = (sum + (sum > 0 ? 1 << 19 : -(1 << 19))) / (1 << 20)
                        // As the C++ narrowing cast (weights outside [0, 1] only occur
                        // where both neighbours are the same pixel, so it never wraps).
                        out[c] = Int8(truncatingIfNeeded: rounded)
                    }
                    out += depth
                }
            }
        }
    }
}
