import TFLiteModel

/// DEPTHWISE_CONV_2D: each input channel `ic` feeds `M` output channels `oc = ic·M + m`:
/// `y[b, oy, ox, oc] = act(bias[oc] + Σ_{ky, kx} x[b, iy, ix, ic] · w[0, ky, kx, oc])`.
///
/// Inputs: 0 input `[N, H, W, inC]`, 1 filter `[1, kh, kw, outC]`, 2 optional bias `[outC]`.
/// As in TFLite, the multiplier is `M = outC / inC` (it must divide evenly); the options'
/// `depth_multiplier` is redundant and ignored.
///
/// float32, quantized uint8 / int8 (``DepthwiseConv2DQ8``), and hybrid float32 with
/// int8 weights (``DepthwiseConv2DHybrid``).
enum DepthwiseConv2D {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2 ... 3, outputs: 1 ... 1)
        guard case .depthwiseConv2D(let options) = context.op.options else {
            throw .invalid("DepthwiseConv2DOptions are missing")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        let bias = context.optionalInput(2)
        let output = try context.output(0)
        let (batch, inH, inW, inC) = try ConvCheck.rank4(input, "input")
        let (one, kh, kw, outC) = try ConvCheck.rank4(filter, "filter")
        guard one == 1 else { throw .invalid("filter shape \(filter.shape) must start with 1") }
        guard inC > 0, outC % inC == 0, outC >= inC else {
            throw .invalid(
                "filter has \(outC) output channels, which is not a positive multiple of the input's \(inC) channels")
        }
        try ConvCheck.bias(bias, channels: outC)
        let range = try ConvCheck.activation(options.activation)
        let geometry = try Conv2DGeometry.make(
            batch: batch, inH: inH, inW: inW, inC: inC, outC: outC, kh: kh, kw: kw,
            strideH: options.strideHeight, strideW: options.strideWidth,
            dilationH: options.dilationHeight, dilationW: options.dilationWidth, padding: options.padding)
        try context.setOutputShape(0, geometry.outputShape)
        context.declareWork([geometry.outputPixels, outC, kh, kw])

        if input.type == .uint8 || input.type == .int8 {
            return try DepthwiseConv2DQ8.make(
                &context, geometry: geometry, input: input, filter: filter,
                bias: bias, output: output, activation: options.activation)
        }
        if input.type == .float32, filter.type == .int8 {
            return try DepthwiseConv2DHybrid.make(
                &context, geometry: geometry, input: input, filter: filter,
                bias: bias, output: output, range: range)
        }
        let floats = [input.type, filter.type, output.type] + (bias.map { [$0.type] } ?? [])
        guard floats.allSatisfy({ $0 == .float32 }) else { throw context.unsupportedTypes() }
        return DepthwiseConv2DF32.make(
            geometry: geometry, input: input.index, filter: filter.index,
            bias: bias?.index, output: output.index, range: range, level: context.kernelLevel,
            threads: context.threadCount)
    }
}
