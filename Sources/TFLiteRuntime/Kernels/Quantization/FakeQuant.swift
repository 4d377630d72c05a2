import TFLiteModel

/// FAKE_QUANT: float32 values rounded to the grid of a `num_bits` quantization of
/// `[min, max]`, as TensorFlow's FakeQuantWithMinMaxArgs, all in float32:
///
/// - `scale = (max − min) / (2^num_bits − 1)`; the zero point `min / scale` below 0,
///   rounded half away from zero and clamped to `[0, 2^num_bits − 1]`, nudges the range to
///   `[nudged_min, nudged_max]` so that 0 is on the grid;
/// - `y = round((clamp(x) − nudged_min) · (1 / scale)) · scale + nudged_min`, where the
///   clamp to the nudged range sends NaN to `nudged_min` (TFLite's `std::max` order).
///
/// `narrow_range` is refused, as TFLite refuses it at run time; `num_bits` must be 1…16.
enum FakeQuantKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        guard input.type == .float32 else { throw context.unsupportedTypes() }
        guard case .fakeQuant(let min, let max, let numBits, let narrowRange) = context.op.options else {
            throw .invalid("FakeQuantOptions are missing")
        }
        guard !narrowRange else {
            throw .invalid("narrow_range is not supported at run time (TFLite applies it to weights only)")
        }
        guard (1 ... 16).contains(numBits) else { throw .invalid("num_bits is \(numBits); expected 1...16") }
        let quantMax = Float((1 << numBits) - 1)
        let scale = (max - min) / quantMax
        let zeroFromMin = 0 - min / scale
        let zero: Float
        if zeroFromMin < 0 {
            zero = 0
        } else if zeroFromMin > quantMax {
            zero = quantMax
        } else {
            // The rounded value lies in [0, 2^16), exact in Float.
            zero = zeroFromMin.rounded(.toNearestOrAwayFromZero)
        }
        try context.setOutputShape(0, input.shape)
        return FakeQuant(
            input: input.index, output: output.index, count: input.elementCount, scale: scale,
            inverseScale: 1 / scale, nudgedMin: (0 - zero) * scale, nudgedMax: (quantMax - zero) * scale)
    }
}

struct FakeQuant: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    let scale: Float
    let inverseScale: Float
    let nudgedMin: Float
    let nudgedMax: Float

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let lo = nudgedMin, hi = nudgedMax, scale = self.scale, inverse = inverseScale
        context.parallel.forEachChunk(count, cost: 16) { range in
            for i in range {
                let above = lo < x[i] ? x[i] : lo
                let clamped = above < hi ? above : hi
                y[i] = ((clamped - lo) * inverse).rounded(.toNearestOrAwayFromZero) * scale + lo
            }
        }
    }
}
