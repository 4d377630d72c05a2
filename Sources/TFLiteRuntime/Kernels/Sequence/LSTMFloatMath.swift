import TFLiteModel

/// Elementwise float math of the LSTM gates, written as plain loops over `Float` with no
/// library calls so that LLVM vectorizes them at every kernel level.
///
/// `e^z` for `z ≤ 0` reduces `z = n·ln 2 + t` (`n` rounded to nearest by adding
/// 1.5·2^23 + 127, `|t| ≤ ln 2 / 2`, ln 2 split into a part exact in float and a correction),
/// approximates `e^t ≈ 1 + t·(1 + t·(c2 + t·(c3 + t·(c4 + t·c5))))` (relative error
/// below 2e-7 on that interval) and scales by `2^n` built in the exponent bits. `z` is
/// clamped at -87, where `e^z` is still a normal float, so the exponent never underflows.
/// Sigmoid and tanh are formed from `e^-|x|`, so nothing overflows:
/// `σ(x) = 1 / (1 + e^-x)` for `x > 0` and `e^x / (1 + e^x)` otherwise;
/// `tanh(x) = sign(x)·(1 - e^(-2|x|)) / (1 + e^(-2|x|))`. Both are within about 2e-7 of
/// the true values (absolute), far inside the float conformance tolerance.
enum LSTMFloatMath {
    @inline(__always)
    static func expNonPositive(_ z0: Float) -> Float {
        let z = Swift.max(z0, -87)
        // round(z / ln 2) in the low mantissa bits of z·log2(e) + (1.5·2^23 + 127); shifted
        // into the exponent field those bits are 2^n (no float-to-integer conversion, which
        // would trap on NaN).
        let shifted = z * 1.442_695_04 + 12_583_039
        let n = shifted - 12_583_039
        var t = n * -0.693_145_752 + z
        t = n * -1.428_606_77e-6 + t
        var p: Float = 0x1.106368p-7
        p = p * t + 0x1.5729d2p-5
        p = p * t + 0x1.5557acp-3
        p = p * t + 0x1.fffdfcp-2
        p = p * t + 1
        let scale = Float(bitPattern: shifted.bitPattern &<< 23)
        return scale + (t * scale) * p
    }

    @inline(__always)
    static func sigmoid(_ x: Float) -> Float {
        let e = expNonPositive(-Swift.abs(x))
        let numerator = x > 0 ? 1 : e
        return numerator / (1 + e)
    }

    @inline(__always)
    static func tanh(_ x: Float) -> Float {
        let e = expNonPositive(-2 * Swift.abs(x))
        let magnitude = (1 - e) / (1 + e)
        return x < 0 ? -magnitude : magnitude
    }

    /// `x[i] = σ(x[i])`.
    static func sigmoid(_ x: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0 ..< count { x[i] = sigmoid(x[i]) }
    }

    /// The cell activations TFLite's LSTM kernels accept.
    enum Activation: Sendable {
        case tanh, relu, relu6, reluN1To1

        init(_ a: FusedActivation) throws(KernelError) {
            switch a {
            case .tanh: self = .tanh
            case .relu: self = .relu
            case .relu6: self = .relu6
            case .reluN1To1: self = .reluN1To1
            default:
                // With NONE, TFLite's kernel leaves the gate buffer unwritten (its result
                // then depends on whether the input was all zeros); SIGN_BIT is no gate.
                throw .invalid("activation \(a) is not supported for an LSTM cell (TANH, RELU, RELU6 or RELU_N1_TO_1)")
            }
        }
    }

    /// `y[i] = act(x[i])` (`y` may be `x`).
    static func apply(
        _ activation: Activation, _ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int
    ) {
        switch activation {
        case .tanh: for i in 0 ..< count { y[i] = tanh(x[i]) }
        case .relu: for i in 0 ..< count { y[i] = Swift.max(x[i], 0) }
        case .relu6: for i in 0 ..< count { y[i] = Swift.min(Swift.max(x[i], 0), 6) }
        case .reluN1To1: for i in 0 ..< count { y[i] = Swift.min(Swift.max(x[i], -1), 1) }
        }
    }

    /// Layer normalization of one gate row: `x = (x - mean)/sqrt(var + 1e-8)·coef + bias`,
    /// with the mean and variance over the row (TFLite's MeanStddevNormalization, the
    /// variance from the centered values).
    static func layerNorm(
        _ x: UnsafeMutablePointer<Float>, count: Int, coefficients: UnsafePointer<Float>, bias: UnsafePointer<Float>
    ) {
        var sum: Float = 0
        for i in 0 ..< count { sum += x[i] }
        let mean = sum / Float(count)
        var squares: Float = 0
        for i in 0 ..< count {
            let d = x[i] - mean
            squares += d * d
        }
        let inverse = 1 / (squares / Float(count) + 1e-8).squareRoot()
        for i in 0 ..< count { x[i] = (x[i] - mean) * inverse * coefficients[i] + bias[i] }
    }

    /// Clips every value to `[-clip, clip]` when `clip > 0`.
    static func clip(_ x: UnsafeMutablePointer<Float>, count: Int, _ clip: Float) {
        guard clip > 0 else { return }
        for i in 0 ..< count { x[i] = Swift.min(Swift.max(x[i], -clip), clip) }
    }
}
