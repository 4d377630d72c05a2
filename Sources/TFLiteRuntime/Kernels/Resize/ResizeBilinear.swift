import TFLiteModel

/// RESIZE_BILINEAR, float32 (uint8 and int8 in `+Quantized`).
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
        guard case let .resizeBilinear(options) = context.op.options else {
            throw .invalid("missing ResizeBilinearOptions")
        }
        guard !(options.alignCorners && options.halfPixelCenters) else {
            throw .invalid("half_pixel_centers requires align_corners to be false")
        }
        let geometry = try ResizeGeometry.prepare(&context)
        let input = try context.input(0)
        let rows = BilinearAxis(input: geometry.inputHeight, output: geometry.outputHeight, options: options)
        let columns = BilinearAxis(input: geometry.inputWidth, output: geometry.outputWidth, options: options)
        switch input.type {
        case .float32:
            return ResizeBilinearF32(input: input.index, output: try context.outputIndex(0),
                                     geometry: geometry, rows: rows, columns: columns)
        case .uint8:
            return ResizeBilinearU8(input: input.index, output: try context.outputIndex(0),
                                    geometry: geometry, rows: rows, columns: columns)
        case .int8:
            return ResizeBilinearI8(input: input.index, output: try context.outputIndex(0), geometry: geometry,
                                    rows: IntegerBilinearAxis(input: geometry.inputHeight, output: geometry.outputHeight, options: options),
                                    columns: IntegerBilinearAxis(input: geometry.inputWidth, output: geometry.outputWidth, options: options))
        default:
            throw context.unsupportedTypes()
        }
    }
}

/// Source neighbours and weights for every output position along one axis.
struct BilinearAxis {
    var lower: [Int]
    var upper: [Int]
    /// `v - lower`: the weight of `upper`.
    var fraction: [Float]

    init(input: Int, output: Int, options: ResizeOptions) {
        let scale = ResizeGeometry.scale(input: input, output: output, alignCorners: options.alignCorners)
        lower = []; upper = []; fraction = []
        lower.reserveCapacity(output); upper.reserveCapacity(output); fraction.reserveCapacity(output)
        for o in 0 ..< output {
            let v = options.halfPixelCenters ? (Float(o) + 0.5) * scale - 0.5 : Float(o) * scale
            // `min(…, input - 1)` on the lower neighbour only guards against rounding that
            // TFLite leaves unchecked; for valid sizes `floor(v) <= input - 1` already.
            let lo = Swift.min(Swift.max(Int(v.rounded(.down)), 0), input - 1)
            let hi = Swift.max(Swift.min(Int(v.rounded(.up)), input - 1), 0)
            lower.append(lo)
            upper.append(hi)
            fraction.append(v - Float(lo))
        }
    }
}

struct ResizeBilinearF32: PreparedKernel {
    let input: Int
    let output: Int
    let geometry: ResizeGeometry
    let rows: BilinearAxis
    let columns: BilinearAxis

    func eval(_ context: EvalContext) throws(KernelError) {
        forEachBilinearSample(context, x: context.pointer(input, as: Float.self), y: context.pointer(output, as: Float.self),
                              geometry: geometry, rows: rows, columns: columns) { topLeft, bottomLeft, topRight, bottomRight, ty, uy, tx, ux in
            topLeft * uy * ux + bottomLeft * ty * ux + topRight * uy * tx + bottomRight * ty * tx
        }
    }
}

/// The walk shared by the kernels that interpolate with Float weights (float32, and
/// uint8 as TFLite's reference does): for every output element, `combine` gets the four
/// source samples (top-left, bottom-left, top-right, bottom-right) and the row and column
/// weights `ty, 1-ty, tx, 1-tx`, and returns the output value.
///
/// One chunk computes whole output rows, so results do not depend on the thread count.
@inline(__always)
func forEachBilinearSample<T>(_ context: EvalContext, x: UnsafeMutablePointer<T>, y: UnsafeMutablePointer<T>,
                              geometry g: ResizeGeometry, rows: BilinearAxis, columns: BilinearAxis,
                              _ combine: (T, T, T, T, Float, Float, Float, Float) -> T) {
    let depth = g.depth
    let inRow = g.inputWidth * depth, inImage = g.inputHeight * inRow
    let outRow = g.outputWidth * depth
    rows.lower.withUnsafeBufferPointer { rowLo in
    rows.upper.withUnsafeBufferPointer { rowHi in
    rows.fraction.withUnsafeBufferPointer { rowT in
    columns.lower.withUnsafeBufferPointer { colLo in
    columns.upper.withUnsafeBufferPointer { colHi in
    columns.fraction.withUnsafeBufferPointer { colT in
        context.parallel.forEachChunk(g.batch * g.outputHeight, minimumChunk: 4) { range in
            for r in range {
                let b = r / g.outputHeight, oy = r % g.outputHeight
                let ty = rowT[oy], uy = 1 - ty
                let top = x + b * inImage + rowLo[oy] * inRow
                let bottom = x + b * inImage + rowHi[oy] * inRow
                var out = y + r * outRow
                for ox in 0 ..< g.outputWidth {
                    let tx = colT[ox], ux = 1 - tx
                    let left = colLo[ox] * depth, right = colHi[ox] * depth
                    for c in 0 ..< depth {
                        out[c] = combine(top[left + c], bottom[left + c], top[right + c], bottom[right + c], ty, uy, tx, ux)
                    }
                    out += depth
                }
            }
        }
    }}}}}}
}
