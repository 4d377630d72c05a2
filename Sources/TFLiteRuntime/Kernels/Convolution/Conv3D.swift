import TFLiteModel

/// CONV_3D: `y[b, od, oy, ox, oc] = act(bias[oc] + Σ_{kd, ky, kx, i} x[b, iz, iy, ix, i] · w[kd, ky, kx, i, oc])`
/// over NDHWC activations and DHWIO filters, with `iz = od·strideD - padFront + kd·dilationD`
/// (likewise for y and x); taps outside the volume read zeros. Output size and padding per
/// axis are CONV_2D's (``AxisGeometry``).
///
/// Inputs: 0 input `[N, D, H, W, C]`, 1 filter `[kd, kh, kw, C, outC]`, 2 optional bias
/// `[outC]`. float32 only, as in TFLite. Computed as im2col + GEMM: the patch of an output
/// voxel is a row of `kd·kh·kw·C` values and the filter, read as `[kd·kh·kw·C, outC]`,
/// is the right operand (``Conv3DF32``).
enum Conv3D {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2 ... 3, outputs: 1 ... 1)
        guard case .conv3D(let options) = context.op.options else {
            throw .invalid("Conv3DOptions are missing")
        }
        let input = try context.input(0)
        let filter = try context.input(1)
        let bias = context.optionalInput(2)
        let output = try context.output(0)
        let floats = [input.type, filter.type, output.type] + (bias.map { [$0.type] } ?? [])
        guard floats.allSatisfy({ $0 == .float32 }) else { throw context.unsupportedTypes() }
        guard input.rank == 5 else { throw .invalid("input must have rank 5, found shape \(input.shape)") }
        guard filter.rank == 5 else { throw .invalid("filter must have rank 5, found shape \(filter.shape)") }
        let (kd, kh, kw, filterC, outC) = (
            filter.shape[0], filter.shape[1], filter.shape[2], filter.shape[3], filter.shape[4]
        )
        guard input.shape[1 ... 4].allSatisfy({ $0 > 0 }), filter.shape.allSatisfy({ $0 > 0 }) else {
            throw .invalid(
                "input \(input.shape) and filter \(filter.shape) must have no empty dimension past the batch")
        }
        guard filterC == input.shape[4] else {
            throw .invalid("the filter has \(filterC) input channels but the input has \(input.shape[4])")
        }
        try ConvCheck.bias(bias, channels: outC)
        let range = try ConvCheck.activation(options.activation)
        let g = try Conv3DGeometry.make(
            input: input.shape, outC: outC, kernel: (kd, kh, kw),
            strides: (options.strideDepth, options.strideHeight, options.strideWidth),
            dilations: (options.dilationDepth, options.dilationHeight, options.dilationWidth), padding: options.padding)
        try context.setOutputShape(0, g.outputShape)
        context.declareWork([g.outputPixels, outC, g.patch])
        if let packed = try Conv3DF32Packed.make(
            &context, geometry: g, filter: filter, bias: bias, input: input.index, output: output.index, range: range)
        {
            return packed
        }
        return try Conv3DF32.make(
            &context, geometry: g, input: input.index, filter: filter.index, bias: bias?.index, output: output.index,
            range: range)
    }
}

/// Geometry of a 3-D convolution over NDHWC tensors, validated at prepare.
struct Conv3DGeometry: Hashable, Sendable {
    var batch: Int
    var inD: Int, inH: Int, inW: Int, inC: Int
    var outD: Int, outH: Int, outW: Int, outC: Int
    var kd: Int, kh: Int, kw: Int
    var strideD: Int, strideH: Int, strideW: Int
    var dilationD: Int, dilationH: Int, dilationW: Int
    var padFront: Int, padTop: Int, padLeft: Int
    /// `kd·kh·kw·inC`: one output voxel's receptive field (the GEMM's depth).
    var patch: Int

    static func make(
        input: [Int], outC: Int, kernel: (Int, Int, Int), strides: (Int, Int, Int), dilations: (Int, Int, Int),
        padding: Padding
    ) throws(KernelError) -> Conv3DGeometry {
        let z = try AxisGeometry.compute(
            input: input[1], filter: kernel.0, stride: strides.0, dilation: dilations.0, padding: padding)
        let y = try AxisGeometry.compute(
            input: input[2], filter: kernel.1, stride: strides.1, dilation: dilations.1, padding: padding)
        let x = try AxisGeometry.compute(
            input: input[3], filter: kernel.2, stride: strides.2, dilation: dilations.2, padding: padding)
        guard z.output > 0, y.output > 0, x.output > 0 else {
            throw .invalid(
                "the output would be empty: input \(input[1 ... 3]), filter \(kernel), dilation \(dilations), padding \(padding)"
            )
        }
        let patch = try ConvCheck.product([kernel.0, kernel.1, kernel.2, input[4]], "CONV_3D patch")
        return Conv3DGeometry(
            batch: input[0], inD: input[1], inH: input[2], inW: input[3], inC: input[4],
            outD: z.output, outH: y.output, outW: x.output, outC: outC, kd: kernel.0, kh: kernel.1, kw: kernel.2,
            strideD: strides.0, strideH: strides.1, strideW: strides.2,
            dilationD: dilations.0, dilationH: dilations.1, dilationW: dilations.2,
            padFront: z.padBefore, padTop: y.padBefore, padLeft: x.padBefore, patch: patch)
    }

    var outputShape: [Int] { [batch, outD, outH, outW, outC] }
    /// Output voxels (`batch·outD·outH·outW`), bounded by the output's element count.
    var outputPixels: Int { batch * outD * outH * outW }

    /// 1×1×1 filter, stride 1, no padding: the input is already the GEMM's left operand.
    var isPointwise: Bool {
        kd == 1 && kh == 1 && kw == 1 && strideD == 1 && strideH == 1 && strideW == 1 && outD == inD
            && outH == inH && outW == inW
    }

    /// Writes the receptive fields of output voxels `first ..< first + count` as rows of
    /// `patch` floats ordered `(kd, ky, kx, channel)`, zeros for taps outside the volume.
    func gatherPatches(first: Int, count: Int, from x: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>)
    {
        for p in 0 ..< count {
            var rest = first + p
            let ox = rest % outW
            rest /= outW
            let oy = rest % outH
            rest /= outH
            let od = rest % outD
            let b = rest / outD
            var row = columns + p * patch
            let image = x + b * inD * inH * inW * inC
            for fd in 0 ..< kd {
                let iz = od * strideD - padFront + fd * dilationD
                for fy in 0 ..< kh {
                    let iy = oy * strideH - padTop + fy * dilationH
                    for fx in 0 ..< kw {
                        let ix = ox * strideW - padLeft + fx * dilationW
                        if iz >= 0, iz < inD, iy >= 0, iy < inH, ix >= 0, ix < inW {
                            row.update(from: image + ((iz * inH + iy) * inW + ix) * inC, count: inC)
                        } else {
                            row.update(repeating: 0, count: inC)
                        }
                        row += inC
                    }
                }
            }
        }
    }
}
