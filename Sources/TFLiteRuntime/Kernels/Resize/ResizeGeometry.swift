import TFLiteModel

/// What RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR share: an NHWC input (rank 4), an
/// int32 size tensor `[new_height, new_width]` whose value must be known at prepare (a
/// model constant or a folded result), and an output `[batch, new_height, new_width, depth]`.
struct ResizeGeometry {
    var batch: Int
    var inputHeight: Int
    var inputWidth: Int
    var depth: Int
    var outputHeight: Int
    var outputWidth: Int

    /// Validates the operator and sets the output shape.
    static func prepare(_ context: inout PrepareContext) throws(KernelError) -> ResizeGeometry {
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let size = try context.input(1)
        // TFLite's resize kernels give the output the input's type at prepare.
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        guard input.type == output.type, size.type == .int32 else { throw context.unsupportedTypes() }
        guard input.rank == 4 else { throw .invalid("input must have rank 4 (NHWC), found shape \(input.shape)") }
        // An empty image has no pixel to sample from.
        guard input.shape[1] > 0, input.shape[2] > 0 else {
            throw .invalid("input height and width must be positive, found shape \(input.shape)")
        }
        guard size.shape == [2] else {
            throw .invalid("size must be an int32 tensor of shape [2], found shape \(size.shape)")
        }
        guard let constant = size.constant else {
            throw .invalid("size must be known before invoke (a constant or computed from constants)")
        }
        let values = constant.typed(Int32.self)
        guard values.count >= 2 else { throw .invalid("size tensor holds \(values.count) values, expected 2") }
        let height = Int(values[0]), width = Int(values[1])
        guard height > 0, width > 0 else { throw .invalid("output size [\(height), \(width)] must be positive") }
        try context.setOutputShape(0, [input.shape[0], height, width, input.shape[3]])
        return ResizeGeometry(
            batch: input.shape[0], inputHeight: input.shape[1], inputWidth: input.shape[2],
            depth: input.shape[3], outputHeight: height, outputWidth: width)
    }

    /// Source step per output step along one axis, computed in Float as TFLite does:
    /// `in / out`, or `(in - 1) / (out - 1)` with `alignCorners` when `out > 1`.
    static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 { return Float(input - 1) / Float(output - 1) }
        return Float(input) / Float(output)
    }
}
