import TFLiteModel

/// MediaPipe's `Convolution2DTransposeBias`: TRANSPOSE_CONV whose output size comes from
/// the options instead of an input, plus a bias (spec/mediapipe-ops.md).
///
/// Inputs: 0 input `[N, H, W, inC]`, 1 weights `[outC, kh, kw, inC]` (OHWI), 2 bias
/// `[outC]`; all float32. Options: the raw C struct `TfLiteTransposeConvParams`,
/// `{padding, stride_width, stride_height}`. Per axis, SAME pads
/// `total = max(0, k - (in - 1) % s - 1)` and VALID (or unknown) nothing; the output is
/// `s·(in - 1) + k - total` and the leading padding `total / 2`. Every input pixel then
/// scatters `x · w` into the output exactly as TRANSPOSE_CONV does, so the arithmetic is
/// ``TransposeConvF32``'s.
enum Convolution2DTransposeBias {
    static let customName = "Convolution2DTransposeBias"
    static let layout = "TfLiteTransposeConvParams {padding, stride_w, stride_h} (int32 each)"

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let input = try context.input(0)
        let weights = try context.input(1)
        let bias = try context.input(2)
        let output = try context.output(0)
        guard [input.type, weights.type, bias.type, output.type].allSatisfy({ $0 == .float32 }) else {
            throw context.unsupportedTypes()
        }
        let fields = try MediaPipeOptions.int32Fields(context.op, count: 3, layout: layout)
        let padding = try MediaPipeOptions.padding(fields[0])
        let (strideW, strideH) = (fields[1], fields[2])
        guard strideW > 0, strideH > 0 else { throw .invalid("strides (\(strideH), \(strideW)) must be positive") }
        let (batch, inH, inW, inC) = try ConvCheck.rank4(input, "input")
        let (outC, kh, kw, weightsInC) = try ConvCheck.rank4(weights, "weights")
        guard weightsInC == inC else {
            throw .invalid("weights have \(weightsInC) input channels but the input has \(inC)")
        }
        guard bias.rank == 1, bias.shape[0] == outC else {
            throw .invalid("bias has shape \(bias.shape), expected [\(outC)] (one value per output channel)")
        }
        guard batch > 0, inH > 0, inW > 0, inC > 0, outC > 0, kh > 0, kw > 0 else {
            throw .invalid("input \(input.shape) and weights \(weights.shape) must not be empty")
        }
        let y = try axis(input: inH, filter: kh, stride: strideH, same: padding == .same)
        let x = try axis(input: inW, filter: kw, stride: strideW, same: padding == .same)
        guard y.output > 0, x.output > 0 else {
            throw .invalid("the output would be empty (\(y.output)x\(x.output))")
        }
        try context.setOutputShape(0, [batch, y.output, x.output, outC])
        context.declareWork([batch, inH, inW, inC, outC, kh, kw])
        let geometry = Conv2DGeometry(
            batch: batch, inH: inH, inW: inW, inC: inC, outH: y.output, outW: x.output, outC: outC,
            kh: kh, kw: kw, strideH: strideH, strideW: strideW,
            dilationH: 1, dilationW: 1, padTop: y.padBefore, padLeft: x.padBefore)
        return try TransposeConvF32.make(
            &context, geometry: geometry, weights: weights, input: input.index,
            bias: bias.index, output: output.index,
            range: FloatActivationRange(lower: -.infinity, upper: .infinity))
    }

    /// Output size and leading padding of one axis (MediaPipe's rule, see the type's doc).
    static func axis(input: Int, filter: Int, stride: Int, same: Bool) throws(KernelError) -> (
        output: Int, padBefore: Int
    ) {
        let total = same ? Swift.max(0, filter - (input - 1) % stride - 1) : 0
        let (scaled, o1) = stride.multipliedReportingOverflow(by: input - 1)
        let (sum, o2) = scaled.addingReportingOverflow(filter - total)
        guard !o1, !o2 else {
            throw .invalid("output size overflows (input \(input), filter \(filter), stride \(stride))")
        }
        return (sum, total / 2)
    }
}
