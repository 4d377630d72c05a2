#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// LOCAL_RESPONSE_NORMALIZATION (float32, 4-D) across the last axis: with
/// `S_c = Σ x_j²` over `j ∈ [c − radius, c + radius] ∩ [0, depth)` summed in order,
/// `y_c = x_c · (bias + alpha · S_c)^(−beta)` (`powf`): TensorFlow's definition, which
/// LiteRT's optimized kernel computes too. LiteRT's reference kernel (BUILTIN_REF) stops
/// one channel early, at `c + radius − 1`; the corpus records that as a reference defect.
enum LocalResponseNormalizationKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == .float32, output.type == .float32 else { throw context.unsupportedTypes() }
        guard input.rank == 4 else { throw .invalid("the input must be 4-D, found shape \(input.shape)") }
        guard case .localResponseNormalization(let radius, let bias, let alpha, let beta) = context.op.options else {
            throw .invalid("LocalResponseNormalizationOptions are missing")
        }
        guard radius >= 0 else { throw .invalid("radius \(radius) must not be negative") }
        let depth = input.shape[3]
        try context.setOutputShape(0, input.shape)
        // The window holds up to 2·radius + 1 channels per output element.
        let window = Swift.min(radius, depth)
        context.declareWork([input.elementCount, 2 * window + 1])
        return LocalResponseNormalizationF32(
            input: input.index, output: output.index,
            rows: depth == 0 ? 0 : input.elementCount / depth, depth: depth,
            radius: window, bias: bias, alpha: alpha, beta: beta)
    }
}

struct LocalResponseNormalizationF32: PreparedKernel {
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int
    let radius: Int
    let bias: Float
    let alpha: Float
    let beta: Float

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        for r in 0 ..< rows {
            let row = x + r * depth
            for c in 0 ..< depth {
                var sum: Float = 0
                for j in Swift.max(0, c - radius) ..< Swift.min(depth, c + radius + 1) { sum += row[j] * row[j] }
                y[r * depth + c] = row[c] * powf(bias + alpha * sum, -beta)
            }
        }
    }
}
