import TFLiteModel

/// MediaPipe's `MaxPoolingWithArgmax2D`: MAX_POOL_2D that also outputs, per output
/// element, where in its window the maximum was (spec/mediapipe-ops.md).
///
/// Input `[N, H, W, C]`; outputs 0 pooled values and 1 indices, both float32 of the
/// pooled shape. Options: the raw C struct `TfLitePoolParams` (``MediaPipePoolOptions``);
/// sizes and padding are TFLite's pooling rule. The index is `fy·filterW + fx + 0.1`, the
/// window-relative position of the first strict maximum in row-major window order, as a
/// float (the 0.1 makes truncation exact); a window with no value above the lowest float
/// gives that lowest float and index 0.1.
struct MaxPoolingWithArgmax2D: PreparedKernel {
    static let customName = "MaxPoolingWithArgmax2D"

    let input: Int, output: Int, indices: Int
    let geometry: MediaPipePoolGeometry
    let options: MediaPipePoolOptions

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 2)
        let input = try context.input(0)
        let output = try context.output(0)
        let indices = try context.output(1)
        guard [input.type, output.type, indices.type].allSatisfy({ $0 == .float32 }) else {
            throw context.unsupportedTypes()
        }
        let (batch, inH, inW, channels) = try ConvCheck.rank4(input, "input")
        let options = try MediaPipePoolOptions.parse(context.op)
        guard options.padding != .unknown else { throw .invalid("padding 0 (unknown) gives an empty output") }
        let same = options.padding == .same
        let y = size(input: inH, filter: options.filterH, stride: options.strideH, same: same)
        let x = size(input: inW, filter: options.filterW, stride: options.strideW, same: same)
        guard y.output > 0, x.output > 0 else {
            throw .invalid(
                "the output would be empty: input \(inH)x\(inW), filter \(options.filterH)x\(options.filterW)")
        }
        let shape = [batch, y.output, x.output, channels]
        try context.setOutputShape(0, shape)
        try context.setOutputShape(1, shape)
        context.declareWork([batch, y.output, x.output, channels, options.filterH, options.filterW])
        let geometry = MediaPipePoolGeometry(
            batch: batch, inH: inH, inW: inW, channels: channels, outH: y.output, outW: x.output,
            padTop: y.padBefore, padLeft: x.padBefore)
        return MaxPoolingWithArgmax2D(
            input: input.index, output: output.index, indices: indices.index,
            geometry: geometry, options: options)
    }

    /// TFLite's pooling size rule: SAME `ceil(in / s)`, VALID `(in − k + s) / s`, padding
    /// `max(0, ((out − 1)·s + k − in) / 2)`. Inputs are non-negative dimensions and
    /// positive option values that fit `Int32`, so nothing overflows `Int`.
    static func size(input: Int, filter: Int, stride: Int, same: Bool) -> (output: Int, padBefore: Int) {
        let output = same ? (input + stride - 1) / stride : (input - filter + stride) / stride
        return (output, Swift.max(0, ((output - 1) * stride + filter - input) / 2))
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let idx = context.pointer(indices, as: Float.self)
        let o = options
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let (b, oy) = row.quotientAndRemainder(dividingBy: g.outH)
                let iy0 = oy * o.strideH - g.padTop
                let fy0 = Swift.max(0, -iy0), fy1 = Swift.min(o.filterH, g.inH - iy0)
                for ox in 0 ..< g.outW {
                    let ix0 = ox * o.strideW - g.padLeft
                    let fx0 = Swift.max(0, -ix0), fx1 = Swift.min(o.filterW, g.inW - ix0)
                    let out = ((b * g.outH + oy) * g.outW + ox) * g.channels
                    for c in 0 ..< g.channels {
                        var best = -Float.greatestFiniteMagnitude
                        var bestY = 0, bestX = 0
                        var fy = fy0
                        while fy < fy1 {
                            var fx = fx0
                            while fx < fx1 {
                                let v = x[((b * g.inH + iy0 + fy) * g.inW + ix0 + fx) * g.channels + c]
                                if v > best { (best, bestY, bestX) = (v, fy, fx) }
                                fx += 1
                            }
                            fy += 1
                        }
                        y[out + c] = Swift.min(Swift.max(best, o.range.lower), o.range.upper)
                        idx[out + c] = Float(bestY * o.filterW + bestX) + 0.1
                    }
                }
            }
        }
    }
}
