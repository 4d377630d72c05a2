import TFLiteModel

/// CONV_2D: `y[b, oy, ox, oc] = act(bias[oc] + Σ_{ky, kx, i} x[b, iy, ix, g·Cg + i] · w[oc, ky, kx, i])`
/// with `g = oc / (outC / groups)`, `Cg = inC / groups`, NHWC activations and OHWI filters.
///
/// Inputs: 0 input `[N, H, W, inC]`, 1 filter `[outC, kh, kw, Cg]`, 2 optional bias `[outC]`.
/// The group count is `inC / Cg` (TFLite's grouped convolution); both `inC` and `outC`
/// must divide evenly into it.
///
/// float32, quantized uint8 / int8 (``Conv2DQ8``), and hybrid float32 with int8
/// weights (``Conv2DHybrid``).
enum Conv2D {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2 ... 3, outputs: 1 ... 1)
        guard case .conv2D(let options) = context.op.options else {
            throw .invalid("Conv2DOptions are missing")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        let bias = context.optionalInput(2)
        let output = try context.output(0)
        let (batch, inH, inW, inC) = try ConvCheck.rank4(input, "input")
        let (outC, kh, kw, groupInC) = try ConvCheck.rank4(filter, "filter")
        // inC = 0 would make zero groups (and `outC % groups` a division by zero).
        guard inC > 0 else { throw .invalid("input shape \(input.shape) has no channels") }
        guard groupInC > 0, inC % groupInC == 0 else {
            throw .invalid(
                "input has \(inC) channels, which is not a multiple of the filter's \(groupInC) input channels")
        }
        let groups = inC / groupInC
        guard outC > 0, outC % groups == 0 else {
            throw .invalid("\(outC) output channels cannot be split into \(groups) groups")
        }
        try ConvCheck.bias(bias, channels: outC)
        let range = try ConvCheck.activation(options.activation)
        let geometry = try Conv2DGeometry.make(
            batch: batch, inH: inH, inW: inW, inC: inC, outC: outC, kh: kh, kw: kw,
            strideH: options.strideHeight, strideW: options.strideWidth,
            dilationH: options.dilationHeight, dilationW: options.dilationWidth, padding: options.padding)
        try context.setOutputShape(0, geometry.outputShape)
        context.declareWork([geometry.outputPixels, outC, kh, kw, groupInC])

        if input.type == .uint8 || input.type == .int8 {
            return try Conv2DQ8.make(
                &context, geometry: geometry, groups: groups, input: input, filter: filter,
                bias: bias, output: output, activation: options.activation)
        }
        if input.type == .float32, filter.type == .int8 {
            return try Conv2DHybrid.make(
                &context, geometry: geometry, groups: groups, input: input, filter: filter,
                bias: bias, output: output, range: range)
        }
        let floats = [input.type, filter.type, output.type] + (bias.map { [$0.type] } ?? [])
        guard floats.allSatisfy({ $0 == .float32 }) else { throw context.unsupportedTypes() }
        if let packed = try Conv2DF32Packed.make(
            &context, geometry: geometry, groups: groups, filter: filter, bias: bias,
            input: input.index, output: output.index, range: range)
        {
            return packed
        }
        return try Conv2DF32.make(
            &context, geometry: geometry, groups: groups,
            input: input.index, filter: filter.index, bias: bias?.index,
            output: output.index, range: range)
    }
}
