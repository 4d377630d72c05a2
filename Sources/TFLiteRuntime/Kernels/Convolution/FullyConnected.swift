import TFLiteModel

/// FULLY_CONNECTED: `y[b, o] = act(bias[o] + Σ_i x[b, i] · w[o, i])`.
///
/// Inputs: 0 input (any rank ≥ 1, flattened to `[batch, in]` with `batch = elements / in`),
/// 1 weights `[out, in]` (constant or computed), 2 optional bias `[out]`. The output is
/// `[batch, out]`, or with `keep_num_dims` the input's shape with its last dimension
/// (which must then equal `in`) replaced by `out`. Absent options mean TFLite's defaults.
///
/// float32, quantized uint8 / int8 (``FullyConnectedQ8``), and hybrid float32 with
/// int8 weights (``FullyConnectedHybrid``).
enum FullyConnected {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2 ... 3, outputs: 1 ... 1)
        let options: FullyConnectedOptions
        switch context.op.options {
        case .fullyConnected(let o): options = o
        case .none: options = FullyConnectedOptions(activation: .none)
        default: throw .invalid("expected FullyConnectedOptions, found \(context.op.options)")
        }
        guard options.weightsFormat == 0 else {
            throw .invalid("weights format \(options.weightsFormat) is not supported (only DEFAULT)")
        }
        let input = try context.input(0)
        let weights = try context.input(1)
        let bias = context.optionalInput(2)
        let output = try context.output(0)
        guard weights.rank == 2 else { throw .invalid("weights must have rank 2, found shape \(weights.shape)") }
        let (units, depth) = (weights.shape[0], weights.shape[1])
        guard depth > 0 else { throw .invalid("weights shape \(weights.shape) has no input dimension") }
        guard input.rank >= 1 else { throw .invalid("input must have rank at least 1") }
        let elements = input.elementCount
        guard elements % depth == 0 else {
            throw .invalid("input shape \(input.shape) (\(elements) values) is not a whole number of rows of \(depth)")
        }
        let batch = elements / depth
        try ConvCheck.bias(bias, channels: units)
        let range = try ConvCheck.activation(options.activation)
        if options.keepNumDims {
            guard input.shape[input.rank - 1] == depth else {
                throw .invalid(
                    "with keep_num_dims the input's last dimension (\(input.shape)) must equal the weights' \(depth)")
            }
            try context.setOutputShape(0, Array(input.shape.dropLast()) + [units])
        } else {
            try context.setOutputShape(0, [batch, units])
        }
        context.declareWork([batch, units, depth])

        if input.type == .uint8 || input.type == .int8 {
            return try FullyConnectedQ8.make(
                &context, input: input, weights: weights, bias: bias, output: output,
                activation: options.activation, batch: batch, units: units, depth: depth)
        }
        if input.type == .float32, weights.type == .int8 {
            return try FullyConnectedHybrid.make(
                &context, input: input, weights: weights, bias: bias, output: output,
                options: options, range: range, batch: batch, units: units, depth: depth)
        }
        let floats = [input.type, weights.type, output.type] + (bias.map { [$0.type] } ?? [])
        guard floats.allSatisfy({ $0 == .float32 }) else { throw context.unsupportedTypes() }
        // Many rows against constant weights: a 1x1 convolution over `batch` pixels (the
        // `[units, depth]` weights are its filter), on the level's packed GEMM with the
        // bias and activation fused, instead of BLAS's packing and a separate epilogue.
        if batch > FullyConnectedF32.maxRowByRow,
            let packed = try Conv2DF32Packed.make(
                &context,
                geometry: Conv2DGeometry(
                    batch: 1, inH: 1, inW: batch, inC: depth, outH: 1, outW: batch, outC: units, kh: 1, kw: 1,
                    strideH: 1, strideW: 1, dilationH: 1, dilationW: 1, padTop: 0, padLeft: 0),
                groups: 1, filter: weights, bias: bias, input: input.index, output: output.index, range: range)
        {
            return packed
        }
        try ConvCheck.blasSizes([batch, units, depth], "FULLY_CONNECTED")
        return try FullyConnectedF32(
            context, input: input.index, weights: weights, bias: bias?.index, output: output.index,
            batch: batch, units: units, depth: depth,
            epilogue: FloatBiasActivation(channels: units, range: range))
    }
}
