import TFLiteModel

/// TRANSPOSE_CONV (the gradient of CONV_2D with respect to its input): every input pixel
/// scatters `x[b, iy, ix, :] · w[oc, fy, fx, :]` into output `(iy·strideH - padTop + fy,
/// ix·strideW - padLeft + fx, oc)`, dropping what falls outside; then bias and activation.
///
/// Inputs: 0 output shape (int32 `[4]`, constant or folded), 1 weights `[outC, kh, kw, inC]`,
/// 2 input `[N, H, W, inC]`, 3 optional bias `[outC]`. The padding is TFLite's: the
/// convolution padding rule applied with the *output* size in the role of the input size
/// (``transposePadding(output:filter:stride:padding:)``).
///
/// float32, quantized uint8 / int8 (``TransposeConvQ8``), and hybrid float32 with
/// int8 weights (``TransposeConvHybrid``).
enum TransposeConv {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3 ... 4, outputs: 1 ... 1)
        guard case .transposeConv(let options) = context.op.options else {
            throw .invalid("TransposeConvOptions are missing")
        }
        let shapeTensor = try context.input(0)
        let weights = try context.input(1)
        let input = try context.input(2)
        let bias = context.optionalInput(3)
        let output = try context.output(0)
        guard shapeTensor.type == .int32, shapeTensor.rank == 1, shapeTensor.elementCount == 4 else {
            throw .invalid(
                "output shape (input 0) must be an int32 vector of 4 values, found \(shapeTensor.type) \(shapeTensor.shape)"
            )
        }
        guard let shapeValues = shapeTensor.constant?.array(Int32.self) else {
            throw .valueNeeded(tensor: shapeTensor.index, "the output shape (input 0) is needed at prepare")
        }
        guard shapeValues.count == 4 else { throw .invalid("output shape (input 0) must hold 4 values") }
        let outShape = shapeValues.map { Int($0) }
        let (batch, inH, inW, inC) = try ConvCheck.rank4(input, "input")
        let (outC, kh, kw, weightsInC) = try ConvCheck.rank4(weights, "weights")
        guard weightsInC == inC else {
            throw .invalid("weights have \(weightsInC) input channels but the input has \(inC)")
        }
        guard outShape[0] == batch, outShape[3] == outC, outShape[1] > 0, outShape[2] > 0 else {
            throw .invalid("output shape \(outShape) must be [\(batch), height > 0, width > 0, \(outC)]")
        }
        guard kh > 0, kw > 0, outC > 0 else { throw .invalid("weights shape \(weights.shape) is empty") }
        guard options.strideHeight > 0, options.strideWidth > 0 else {
            throw .invalid("strides (\(options.strideHeight), \(options.strideWidth)) must be positive")
        }
        try ConvCheck.bias(bias, channels: outC)
        let range = try ConvCheck.activation(options.activation)
        let padTop = try transposePadding(
            output: outShape[1], filter: kh, stride: options.strideHeight, padding: options.padding)
        let padLeft = try transposePadding(
            output: outShape[2], filter: kw, stride: options.strideWidth, padding: options.padding)
        try context.setOutputShape(0, outShape)
        context.declareWork([batch, inH, inW, inC, outC, kh, kw])
        let geometry = Conv2DGeometry(
            batch: batch, inH: inH, inW: inW, inC: inC, outH: outShape[1], outW: outShape[2], outC: outC,
            kh: kh, kw: kw, strideH: options.strideHeight, strideW: options.strideWidth,
            dilationH: 1, dilationW: 1, padTop: padTop, padLeft: padLeft)

        if input.type == .uint8 || input.type == .int8 {
            return try TransposeConvQ8.make(
                &context, geometry: geometry, weights: weights, input: input,
                bias: bias, output: output, activation: options.activation)
        }
        if input.type == .float32, weights.type == .int8 {
            return try TransposeConvHybrid.make(
                &context, geometry: geometry, weights: weights, input: input,
                bias: bias, output: output, range: range)
        }
        let floats = [input.type, weights.type, output.type] + (bias.map { [$0.type] } ?? [])
        guard floats.allSatisfy({ $0 == .float32 }) else { throw context.unsupportedTypes() }
        return try TransposeConvF32.make(
            &context, geometry: geometry, weights: weights, input: input.index,
            bias: bias?.index, output: output.index, range: range)
    }

    /// Leading padding of one axis, as TFLite computes it for TRANSPOSE_CONV: the
    /// convolution rule with the output size as the "input" size,
    /// `n = SAME ? ceil(out / s) : (out + s - k) / s` (C division),
    /// `total = max(0, (n - 1)·s + k - out)`, padding `total / 2`.
    static func transposePadding(output: Int, filter: Int, stride: Int, padding: Padding) throws(KernelError) -> Int {
        let n: Int
        switch padding {
        case .same: n = (output + stride - 1) / stride
        case .valid: n = (output + stride - filter) / stride
        case .unknown(let v): throw .invalid("unknown padding value \(v)")
        }
        return Swift.max(0, (n - 1) * stride + filter - output) / 2
    }
}
