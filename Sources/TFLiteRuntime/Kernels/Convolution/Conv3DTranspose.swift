import TFLiteModel

/// CONV_3D_TRANSPOSE (the gradient of CONV_3D with respect to its input): every input
/// voxel scatters `x[b, iz, iy, ix, :] · w[fd, fy, fx, oc, :]` into output
/// `(iz·strideD - padFront + fd·dilationD, iy·strideH - padTop + fy·dilationH,
/// ix·strideW - padLeft + fx·dilationW, oc)`, dropping what falls outside; then bias and
/// activation.
///
/// Inputs: 0 output shape (int32 `[5]`, constant or computed from constants), 1 filter
/// `[kd, kh, kw, outC, inC]`, 2 input `[N, D, H, W, inC]`, 3 optional bias `[outC]`.
/// float32 only, as in TFLite. The output shape must be one CONV_3D maps back onto the
/// input: per axis, CONV_3D's output size rule (``AxisGeometry``) applied to the output
/// size gives the input size, and the padding is CONV_3D's for that geometry
/// (spec/convolution.md, "CONV_3D_TRANSPOSE").
enum Conv3DTranspose {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3 ... 4, outputs: 1 ... 1)
        guard case .conv3D(let options) = context.op.options else {
            throw .invalid("Conv3DOptions are missing")
        }
        let shapeTensor = try context.input(0)
        let filter = try context.input(1)
        let input = try context.input(2)
        let bias = context.optionalInput(3)
        let output = try context.output(0)
        let floats = [input.type, filter.type, output.type] + (bias.map { [$0.type] } ?? [])
        guard floats.allSatisfy({ $0 == .float32 }), shapeTensor.type == .int32 else {
            throw context.unsupportedTypes()
        }
        guard shapeTensor.shape == [5] else {
            throw .invalid(
                "the output shape (input 0) must be an int32 vector of 5 values, found shape \(shapeTensor.shape)")
        }
        guard let shapeValues = shapeTensor.constant?.array(Int32.self), shapeValues.count == 5 else {
            throw .invalid("the output shape (input 0) must be constant (or computed from constants)")
        }
        let outShape = shapeValues.map { Int($0) }
        guard input.rank == 5 else { throw .invalid("input must have rank 5, found shape \(input.shape)") }
        guard filter.rank == 5 else { throw .invalid("filter must have rank 5, found shape \(filter.shape)") }
        guard filter.shape.allSatisfy({ $0 > 0 }), input.shape[1 ... 4].allSatisfy({ $0 > 0 }) else {
            throw .invalid(
                "input \(input.shape) and filter \(filter.shape) must have no empty dimension past the batch")
        }
        let outC = filter.shape[3]
        guard filter.shape[4] == input.shape[4] else {
            throw .invalid("the filter has \(filter.shape[4]) input channels but the input has \(input.shape[4])")
        }
        guard outShape.allSatisfy({ $0 >= 0 }), outShape[0] == input.shape[0], outShape[4] == outC else {
            throw .invalid("output shape \(outShape) must be [\(input.shape[0]), depth, height, width, \(outC)]")
        }
        try ConvCheck.bias(bias, channels: outC)
        let range = try ConvCheck.activation(options.activation)
        // CONV_3D from the output back to the input: its sizes must be the input's.
        let forward = try Conv3DGeometry.make(
            input: [outShape[0], outShape[1], outShape[2], outShape[3], outC], outC: input.shape[4],
            kernel: (filter.shape[0], filter.shape[1], filter.shape[2]),
            strides: (options.strideDepth, options.strideHeight, options.strideWidth),
            dilations: (options.dilationDepth, options.dilationHeight, options.dilationWidth), padding: options.padding)
        guard [forward.outD, forward.outH, forward.outW] == Array(input.shape[1 ... 3]) else {
            throw .invalid(
                "output shape \(outShape) does not match the input \(input.shape): a CONV_3D of it gives \(forward.outD)x\(forward.outH)x\(forward.outW)"
            )
        }
        try context.setOutputShape(0, outShape)
        context.declareWork([input.elementCount, outC, filter.shape[0], filter.shape[1], filter.shape[2]])
        return try Conv3DTransposeF32.make(
            &context, geometry: forward, filter: filter, input: input.index, bias: bias?.index,
            output: output.index, range: range)
    }
}
