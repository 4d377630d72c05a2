import TFLiteModel

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
        switch input.type {
        case .float32:
            return ResizeBilinearF32(
                input: input.index, output: output, geometry: geometry, options: options, tables: tables)
        case .uint8:
            return ResizeBilinearU8(
                input: input.index, output: output, geometry: geometry, options: options, tables: tables)
        case .int8:
            return ResizeBilinearS8(
                input: input.index, output: output, geometry: geometry, options: options, tables: tables)
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

    func eval(_ context: EvalContext) throws(KernelError) {
        let (rows, columns) = BilinearAxis.tables(context, tables, geometry, options)
        forEachBilinearPixel(
            context, x: context.pointer(input, as: Float.self), y: context.pointer(output, as: Float.self),
            geometry: geometry, rows: rows, columns: columns
        ) { top, bottom, ty, uy, tx, ux, out in
            bilinearBlendF32(
                top.left, bottom.left, top.right, bottom.right, uy, ty, ux, tx, into: out, count: geometry.depth)
        }
    }
}

/// `o[c] = tl[c]·uy·ux + bl[c]·ty·ux + tr[c]·uy·tx + br[c]·ty·tx` for `c < count`, in
/// that order of operations (TFLite's), eight lanes at a time: written per element, the
/// loop stayed scalar (the output could alias the sources as far as LLVM could tell).
@inline(__always)
func bilinearBlendF32(
    _ tl: UnsafePointer<Float>, _ bl: UnsafePointer<Float>, _ tr: UnsafePointer<Float>,
    _ br: UnsafePointer<Float>, _ uy: Float, _ ty: Float, _ ux: Float, _ tx: Float,
    into o: UnsafeMutablePointer<Float>, count: Int
) {
    var c = 0
    while c &+ 8 <= count {
        func lanes(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
            UnsafeRawPointer(p + c).loadUnaligned(as: SIMD8<Float>.self)
        }
        let v = lanes(tl) * uy * ux + lanes(bl) * ty * ux + lanes(tr) * uy * tx + lanes(br) * ty * tx
        UnsafeMutableRawPointer(o + c).storeBytes(of: v, as: SIMD8<Float>.self)
        c &+= 8
    }
    while c < count {
        o[c] = tl[c] * uy * ux + bl[c] * ty * ux + tr[c] * uy * tx + br[c] * ty * tx
        c &+= 1
    }
}

/// The walk shared by the kernels that interpolate with Float weights (float32, and
/// uint8 as TFLite's reference does): for every output pixel, `pixel` gets its four
/// source pixels (`top.left`, `top.right`, `bottom.left`, `bottom.right`, `depth` values
/// each), the row weights `ty, 1-ty`, the column weights `tx, 1-tx`, and the output pixel
/// to fill. The channel loop is the caller's, written per element type so that it is
/// compiled as one loop: a closure per element was not inlined, and cost more than the
/// arithmetic.
///
/// One chunk computes whole output rows, so results do not depend on the thread count.
@inline(__always)
func forEachBilinearPixel<T>(
    _ context: EvalContext, x: UnsafeMutablePointer<T>, y: UnsafeMutablePointer<T>,
    geometry g: ResizeGeometry, rows: AxisTable<Float>, columns: AxisTable<Float>,
    _ pixel: (
        _ top: BilinearPair<T>, _ bottom: BilinearPair<T>, _ ty: Float, _ uy: Float, _ tx: Float, _ ux: Float,
        _ out: UnsafeMutablePointer<T>
    ) -> Void
) {
    let depth = g.depth
    let inRow = g.inputWidth * depth, inImage = g.inputHeight * inRow
    let outRow = g.outputWidth * depth
    let (rowLo, rowHi, rowT) = (rows.lower, rows.upper, rows.fraction)
    let (colLo, colHi, colT) = (columns.lower, columns.upper, columns.fraction)
    context.parallel.forEachChunk(g.batch * g.outputHeight, cost: outRow * 8) { range in
        for r in range {
            let b = r / g.outputHeight, oy = r % g.outputHeight
            let ty = rowT[oy]
            let top = UnsafePointer(x + b * inImage + rowLo[oy] * inRow)
            let bottom = UnsafePointer(x + b * inImage + rowHi[oy] * inRow)
            let out = y + r * outRow
            for ox in 0 ..< g.outputWidth {
                let left = colLo[ox] * depth, right = colHi[ox] * depth
                pixel(
                    BilinearPair(left: top + left, right: top + right),
                    BilinearPair(left: bottom + left, right: bottom + right),
                    ty, 1 - ty, colT[ox], 1 - colT[ox], out + ox * depth)
            }
        }
    }
}

/// The left and right source pixels of one source row.
struct BilinearPair<T> {
    let left: UnsafePointer<T>
    let right: UnsafePointer<T>
}
