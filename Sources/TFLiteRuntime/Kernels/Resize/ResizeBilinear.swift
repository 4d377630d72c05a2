import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// RESIZE_BILINEAR, float32 (uint8 and int8 in `+Q8`).
///
/// Per axis, output position `o` maps to the source coordinate
/// `v = halfPixelCenters ? (o + 0.5) * scale - 0.5 : o * scale` (Float), whose neighbours are
/// `lo = max(floor(v), 0)` and `hi = min(ceil(v), in - 1)`, with weight `t = v - lo` on `hi`
/// (`t` may fall outside [0, 1] near the border with half-pixel centers, as in TFLite).
/// `out = a·(1-ty)·(1-tx) + b·ty·(1-tx) + c·(1-ty)·tx + d·ty·tx` summed in that order, where
/// a = (lo_y, lo_x), b = (hi_y, lo_x), c = (lo_y, hi_x), d = (hi_y, hi_x) — TFLite's
/// reference kernel's order, so results match it to the last bit barring FMA contraction.
/// `alignCorners` together with `halfPixelCenters` is rejected, as TFLite does.
enum ResizeBilinear {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .resizeBilinear(let options) = context.op.options else {
            throw .invalid("missing ResizeBilinearOptions")
        }
        guard !(options.alignCorners && options.halfPixelCenters) else {
            throw .invalid("half_pixel_centers requires align_corners to be false")
        }
        let geometry = try ResizeGeometry.prepare(&context)
        let input = try context.input(0)
        let output = try context.outputIndex(0)
        let entryBytes = input.type == .int8 ? AxisTable<Int64>.entryBytes : AxisTable<Float>.entryBytes
        let tables = try ResizeAxisTables.request(
            &context, rows: geometry.outputHeight, columns: geometry.outputWidth,
            entryBytes: entryBytes)
        let vector = context.kernelLevel >= .avx2 && context.kernelLevel.hasVectorKernels
        switch input.type {
        case .float32:
            return ResizeBilinearF32(
                input: input.index, output: output, geometry: geometry, options: options, tables: tables,
                vector: vector)
        case .uint8:
            return ResizeBilinearU8(
                input: input.index, output: output, geometry: geometry, options: options, tables: tables,
                vector: vector)
        case .int8:
            return ResizeBilinearS8(
                input: input.index, output: output, geometry: geometry, options: options, tables: tables,
                vector: vector)
        default:
            throw context.unsupportedTypes()
        }
    }
}

/// Source neighbours and weights for every output position along one axis.
enum BilinearAxis {
    static func fill(_ table: AxisTable<Float>, input: Int, output: Int, options: ResizeOptions) {
        let scale = ResizeGeometry.scale(input: input, output: output, alignCorners: options.alignCorners)
        for o in 0 ..< output {
            let v = options.halfPixelCenters ? (Float(o) + 0.5) * scale - 0.5 : Float(o) * scale
            // `min(…, input - 1)` on the lower neighbour only guards against rounding that
            // TFLite leaves unchecked; for valid sizes `floor(v) <= input - 1` already.
            let lo = Swift.min(Swift.max(Int(v.rounded(.down)), 0), input - 1)
            let hi = Swift.max(Swift.min(Int(v.rounded(.up)), input - 1), 0)
            table.lower[o] = lo
            table.upper[o] = hi
            table.fraction[o] = v - Float(lo)
        }
    }

    /// Both axes' tables of `geometry`, filled in this invoke's scratch.
    static func tables(
        _ context: EvalContext, _ tables: ResizeAxisTables, _ g: ResizeGeometry,
        _ options: ResizeOptions
    ) -> (rows: AxisTable<Float>, columns: AxisTable<Float>) {
        let (rows, columns) = tables.axes(context, g, weight: Float.self)
        fill(rows, input: g.inputHeight, output: g.outputHeight, options: options)
        fill(columns, input: g.inputWidth, output: g.outputWidth, options: options)
        return (rows, columns)
    }
}

struct ResizeBilinearF32: PreparedKernel {
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
            context, x: context.pointer(input, as: Float.self), y: context.pointer(output, as: Float.self),
            geometry: geometry, rows: rows
        ) { top, bottom, oy, out in
            let g = geometry
            #if arch(x86_64)
            if vector {
                return bilinearRowF32AVX2(
                    top, bottom, ty: rows.fraction[oy], lower: columns.lower, upper: columns.upper,
                    weights: columns.fraction, width: g.outputWidth, depth: g.depth, out)
            }
            #endif
            bilinearRowF32Portable(
                top, bottom, ty: rows.fraction[oy], lower: columns.lower, upper: columns.upper,
                weights: columns.fraction, width: g.outputWidth, depth: g.depth, out)
        }
    }
}
