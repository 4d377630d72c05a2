import TFLiteModel

/// CONV_3D_TRANSPOSE (the gradient of CONV_3D with respect to its input): every input
/// voxel scatters `x[b, iz, iy, ix, :] · w[fd, fy, fx, oc, :]` into output
/// `(iz·strideD - padFront + fd·dilationD, iy·strideH - padTop + fy·dilationH,
/// ix·strideW - padLeft + fx·dilationW, oc)`, dropping what falls outside; then bias and
/// activation.
///
/// Inputs: 0 output shape (int32 `[5]`, constant or computed from constants), 1 filter
/// `[kd, kh, kw, outC, inC]`, 2 input `[N, D, H, W, inC]`, 3 optional bias `[outC]`.
/// float32 only, as in TFLite. The output shape (known at prepare, or read at invoke when
/// computed at run time) must be one CONV_3D maps back onto the
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
        guard input.rank == 5 else { throw .invalid("input must have rank 5, found shape \(input.shape)") }
        guard filter.rank == 5 else { throw .invalid("filter must have rank 5, found shape \(filter.shape)") }
        guard filter.shape.allSatisfy({ $0 > 0 }), input.shape[1 ... 4].allSatisfy({ $0 > 0 }) else {
            throw .invalid(
                "input \(input.shape) and filter \(filter.shape) must have no empty dimension past the batch")
        }
        guard filter.shape[4] == input.shape[4] else {
            throw .invalid("the filter has \(filter.shape[4]) input channels but the input has \(input.shape[4])")
        }
        try ConvCheck.bias(bias, channels: filter.shape[3])
        let range = try ConvCheck.activation(options.activation)
        let shape = Conv3DTransposeShape(input: input.shape, filter: filter.shape, options: options)
        guard let shapeValues = shapeTensor.constant?.array(Int32.self), shapeValues.count == 5 else {
            // The output shape is computed at run time: geometry at invoke, from a geometry
            // whose sizes the output may change (its spatial sizes) but not its scratch.
            let placeholder = try shape.forward(output: shape.smallestOutput())
            context.declareWork([
                input.elementCount, filter.shape[3], filter.shape[0], filter.shape[1], filter.shape[2],
            ])
            let kernel = try Conv3DTransposeF32.make(
                &context, geometry: placeholder, filter: filter, input: input.index, bias: bias?.index,
                output: output.index, range: range)
            return Conv3DTransposeDynamic(kernel: kernel, shape: shape, shapeTensor: shapeTensor.index)
        }
        let outShape = shapeValues.map { Int($0) }
        let forward = try shape.forward(output: outShape)
        try context.setOutputShape(0, outShape)
        context.declareWork([input.elementCount, filter.shape[3], filter.shape[0], filter.shape[1], filter.shape[2]])
        return try Conv3DTransposeF32.make(
            &context, geometry: forward, filter: filter, input: input.index, bias: bias?.index,
            output: output.index, range: range)
    }
}

/// The shape rules of a CONV_3D_TRANSPOSE: which output shapes fit the input.
struct Conv3DTransposeShape: Sendable {
    let input: [Int], filter: [Int]
    let options: Conv3DOptions

    /// The forward CONV_3D from `output` to the input, validated: batch and channels must
    /// match and its output sizes must be the input's spatial sizes.
    func forward(output outShape: [Int]) throws(KernelError) -> Conv3DGeometry {
        let outC = filter[3]
        guard outShape.count == 5, outShape.allSatisfy({ $0 >= 0 }), outShape[0] == input[0], outShape[4] == outC
        else {
            throw .invalid("output shape \(outShape) must be [\(input[0]), depth, height, width, \(outC)]")
        }
        let g = try Conv3DGeometry.make(
            input: outShape, outC: input[4], kernel: (filter[0], filter[1], filter[2]),
            strides: (options.strideDepth, options.strideHeight, options.strideWidth),
            dilations: (options.dilationDepth, options.dilationHeight, options.dilationWidth), padding: options.padding)
        guard [g.outD, g.outH, g.outW] == Array(input[1 ... 3]) else {
            throw .invalid(
                "output shape \(outShape) does not match the input \(input): a CONV_3D of it gives \(g.outD)x\(g.outH)x\(g.outW)"
            )
        }
        guard Shape.byteCount(outShape, elementSize: 4) != nil else {
            throw .invalid("output shape \(outShape) is too large")
        }
        return g
    }

    /// An output shape that fits the input (per axis the smallest size CONV_3D maps onto the
    /// input's), to validate the rest of the operator at prepare.
    func smallestOutput() -> [Int] {
        let k = [filter[0], filter[1], filter[2]]
        let s = [options.strideDepth, options.strideHeight, options.strideWidth]
        let d = [options.dilationDepth, options.dilationHeight, options.dilationWidth]
        var out = [input[0]]
        for a in 0 ..< 3 {
            let eff = (k[a] - 1) * Swift.max(d[a], 1) + 1
            let st = Swift.max(s[a], 1)
            out.append(options.padding == .valid ? (input[a + 1] - 1) * st + eff : (input[a + 1] - 1) * st + 1)
        }
        return out + [filter[3]]
    }
}

/// CONV_3D_TRANSPOSE whose output shape is computed at run time.
struct Conv3DTransposeDynamic: DynamicShapeKernel {
    let kernel: Conv3DTransposeF32
    let shape: Conv3DTransposeShape
    let shapeTensor: Int

    func outputShape(_ context: EvalContext) -> [Int] {
        let raw = UnsafeRawPointer(context.raw(shapeTensor))
        return (0 ..< 5).map { Int(raw.load(fromByteOffset: 4 * $0, as: Int32.self)) }
    }

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let out = outputShape(context)
        _ = try shape.forward(output: out)
        return [out]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try kernel.with(geometry: try shape.forward(output: outputShape(context))).eval(context)
    }
}
