import TFLiteModel

/// AVERAGE_POOL_2D and MAX_POOL_2D over NHWC tensors (L2_POOL_2D: ``L2Pool2D``).
///
/// The window of output pixel `(oy, ox)` starts at input `(oy·strideH - padTop,
/// ox·strideW - padLeft)` and is clipped to the image: padding is never read. Average
/// divides the sum by the number of in-image pixels; max takes the largest of them. The
/// fused activation clamps the result.
///
/// float32, and quantized uint8 / int8 (``Pool2DQ8``).
enum Pool2D {
    enum Kind: Sendable { case average, max }

    /// Largest clipped window area (pixels) the direct kernels handle; beyond it the
    /// separable linear-time path (``Pool2DSeparable``) bounds the work by the tensor sizes.
    /// MobileNet's 7×7 global average pool stays direct, so its summation order is TFLite's.
    static let directWindowLimit = 64

    /// Output size, padding and window of a pool, validated at prepare.
    struct Geometry: Hashable, Sendable {
        var batch: Int, inH: Int, inW: Int, channels: Int
        var outH: Int, outW: Int
        var filterH: Int, filterW: Int
        var strideH: Int, strideW: Int
        var padTop: Int, padLeft: Int

        /// Input rows (or columns) `start ..< end` covered by window `o` of one axis, clipped.
        @inline(__always)
        static func window(_ o: Int, stride: Int, pad: Int, filter: Int, input: Int) -> Range<Int> {
            let origin = o * stride - pad
            return Swift.max(origin, 0) ..< Swift.min(origin + filter, input)
        }
    }

    /// Validates a 2-D pool (AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D) and sets its output
    /// shape. `separable`: the clipped window covers more than ``directWindowLimit`` pixels.
    static func validated(_ context: inout PrepareContext) throws(KernelError) -> (
        options: Pool2DOptions, input: TensorState, output: TensorState, geometry: Geometry, separable: Bool
    ) {
        try context.expectCounts(inputs: 1, outputs: 1)
        guard case .pool2D(let options) = context.op.options else {
            throw .invalid("Pool2DOptions are missing")
        }
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.rank == 4 else { throw .invalid("input must have rank 4, found shape \(input.shape)") }
        let (batch, inH, inW, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let y = try AxisGeometry.compute(
            input: inH, filter: options.filterHeight, stride: options.strideHeight,
            dilation: 1, padding: options.padding)
        let x = try AxisGeometry.compute(
            input: inW, filter: options.filterWidth, stride: options.strideWidth,
            dilation: 1, padding: options.padding)
        guard y.output > 0, x.output > 0 else {
            throw .invalid(
                "the output would be empty: input \(inH)x\(inW), window \(options.filterHeight)x\(options.filterWidth), padding \(options.padding)"
            )
        }
        let geometry = Geometry(
            batch: batch, inH: inH, inW: inW, channels: channels, outH: y.output, outW: x.output,
            filterH: options.filterHeight, filterW: options.filterWidth,
            strideH: options.strideHeight, strideW: options.strideWidth,
            padTop: y.padBefore, padLeft: x.padBefore)
        // TFLite's padding never leaves a window entirely outside the image; the first
        // and last windows bound all others, so checking them proves every count ≥ 1.
        for (o, s, p, f, n) in [
            (0, geometry.strideH, geometry.padTop, geometry.filterH, inH),
            (y.output - 1, geometry.strideH, geometry.padTop, geometry.filterH, inH),
            (0, geometry.strideW, geometry.padLeft, geometry.filterW, inW),
            (x.output - 1, geometry.strideW, geometry.padLeft, geometry.filterW, inW),
        ]
        where Geometry.window(o, stride: s, pad: p, filter: f, input: n).isEmpty {
            throw .invalid("a pooling window lies entirely in the padding")
        }
        // The pixel count divides an `Int32` sum in the quantized average.
        let area = Swift.min(geometry.filterH, inH).multipliedReportingOverflow(
            by: Swift.min(geometry.filterW, inW))
        guard !area.overflow, area.partialValue <= Int(Int32.max) else {
            throw .invalid("the pooling window covers more than \(Int32.max) pixels")
        }
        let separable = area.partialValue > directWindowLimit
        try context.setOutputShape(0, [batch, y.output, x.output, channels])
        return (options, input, output, geometry, separable)
    }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            let (options, input, output, geometry, separable) = try validated(&context)
            let range = try FloatActivationRange.of(options.activation)
            if input.type == .uint8 || input.type == .int8 {
                return try Pool2DQ8.make(
                    &context, kind: kind, input: input, output: output,
                    geometry: geometry, activation: options.activation, separable: separable)
            }
            guard input.type == .float32, output.type == .float32 else { throw context.unsupportedTypes() }
            guard separable else {
                return Pool2DF32(
                    kind: kind, input: input.index, output: output.index, geometry: geometry, range: range,
                    level: context.kernelLevel)
            }
            switch kind {
            case .max:
                return SeparablePool.maxF32(
                    try Pool2DSeparable.make(
                        &context, reduction: MaxPoolF32(range: range),
                        input: input.index, output: output.index, geometry: geometry))
            case .average:
                return SeparablePool.averageF32(
                    try Pool2DSeparable.make(
                        &context, reduction: AveragePoolF32(range: range),
                        input: input.index, output: output.index, geometry: geometry))
            }
        }
    }
}
