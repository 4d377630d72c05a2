import TFLiteModel

/// MediaPipe's `MaxUnpooling2D`: the inverse of ``MaxPoolingWithArgmax2D``. Every input
/// value is written to the output position its index names within its window; the rest of
/// the output is 0 (spec/mediapipe-ops.md).
///
/// Inputs: 0 values `[N, H, W, C]`, 1 indices (float32, same shape). Options: the raw C
/// struct `TfLitePoolParams` (``MediaPipePoolOptions``); the activation is not applied.
/// Output `[N, H·filterH, W·filterW, C]`; value `(iy, ix)` with index `k` goes to
/// `(iy·strideH − padTop + k / filterW, ix·strideW − padLeft + k % filterW)`, with the
/// padding of a pooling from the output size to the input size. An index that is not in
/// the window, or a position outside the output (MediaPipe writes there anyway), fails
/// the invoke.
struct MaxUnpooling2D: PreparedKernel {
    static let customName = "MaxUnpooling2D"

    let input: Int, indices: Int, output: Int
    let geometry: MediaPipePoolGeometry
    let options: MediaPipePoolOptions

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let indices = try context.input(1)
        let output = try context.output(0)
        guard [input.type, indices.type, output.type].allSatisfy({ $0 == .float32 }) else {
            throw context.unsupportedTypes()
        }
        let (batch, inH, inW, channels) = try ConvCheck.rank4(input, "input")
        guard indices.shape == input.shape else {
            throw .invalid("indices have shape \(indices.shape), the values \(input.shape)")
        }
        let options = try MediaPipePoolOptions.parse(context.op)
        let (outH, o1) = inH.multipliedReportingOverflow(by: options.filterH)
        let (outW, o2) = inW.multipliedReportingOverflow(by: options.filterW)
        guard !o1, !o2 else { throw .invalid("output size overflows") }
        try context.setOutputShape(0, [batch, outH, outW, channels])
        let geometry = MediaPipePoolGeometry(
            batch: batch, inH: inH, inW: inW, channels: channels, outH: outH, outW: outW,
            padTop: padding(input: outH, filter: options.filterH, stride: options.strideH, output: inH),
            padLeft: padding(input: outW, filter: options.filterW, stride: options.strideW, output: inW))
        return MaxUnpooling2D(
            input: input.index, indices: indices.index, output: output.index, geometry: geometry, options: options)
    }

    /// TFLite's `ComputePadding`: `max(0, ((output − 1)·stride + filter − input) / 2)`,
    /// with overflow clamped (such a padding puts every position outside the output).
    static func padding(input: Int, filter: Int, stride: Int, output: Int) -> Int {
        let (scaled, o1) = Swift.max(output - 1, 0).multipliedReportingOverflow(by: stride)
        let (sum, o2) = scaled.addingReportingOverflow(filter - input)
        if o1 || o2 { return Int.max / 4 }
        return Swift.max(0, sum / 2)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let x = context.pointer(input, as: Float.self)
        let k = context.pointer(indices, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let o = options
        y.update(repeating: 0, count: g.batch * g.outH * g.outW * g.channels)
        let window = Float(o.filterH * o.filterW)
        for b in 0 ..< g.batch {
            for iy in 0 ..< g.inH {
                for ix in 0 ..< g.inW {
                    let at = ((b * g.inH + iy) * g.inW + ix) * g.channels
                    for c in 0 ..< g.channels {
                        let index = k[at + c]
                        // C's float-to-int conversion truncates toward zero: (−1, window) is what fits.
                        guard index > -1, index < window else {
                            throw .invalid(
                                "index \(index) at input (\(b), \(iy), \(ix), \(c)) is outside the \(o.filterH)x\(o.filterW) window"
                            )
                        }
                        let (dy, dx) = Int(index).quotientAndRemainder(dividingBy: o.filterW)
                        let oy = iy * o.strideH - g.padTop + dy, ox = ix * o.strideW - g.padLeft + dx
                        guard oy >= 0, oy < g.outH, ox >= 0, ox < g.outW else {
                            throw .invalid(
                                "index \(index) at input (\(b), \(iy), \(ix), \(c)) points outside the output, to (\(oy), \(ox))"
                            )
                        }
                        y[((b * g.outH + oy) * g.outW + ox) * g.channels + c] = x[at + c]
                    }
                }
            }
        }
    }
}
