import TFLiteModel

/// The fused activation of RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN and
/// float SVDF, applied to a whole vector as LiteRT's recurrent kernels apply it
/// (spec/recurrent-ops.md, "Activations"):
///
/// - RELU `x > 0 ? x : 0`, RELU_N1_TO_1 `max(-1, min(x, 1))`, RELU6 `max(0, min(x, 6))`,
///   in that order of comparisons, so NaN and -0 come out as LiteRT's do;
/// - SIGN_BIT 1 when the sign bit is set (-0 included), else 0;
/// - TANH LiteRT's vectorized tanh, a rational function of degree 9/8 evaluated without
///   fused multiply-adds (``tanh(_:)``), reproduced bit for bit: a hidden state that
///   differs from LiteRT's in the last bit can quantize to another code at the next
///   step of a hybrid RNN.
enum RecurrentActivation: Sendable, Equatable {
    case none, relu, reluN1To1, relu6, tanh, signBit

    init(_ activation: FusedActivation) throws(KernelError) {
        switch activation {
        case .none: self = .none
        case .relu: self = .relu
        case .reluN1To1: self = .reluN1To1
        case .relu6: self = .relu6
        case .tanh: self = .tanh
        case .signBit: self = .signBit
        case .unknown: throw .invalid("fused activation \(activation.name) is not supported")
        }
    }

    /// `y[i] = f(y[i])` for `count` values.
    @inline(__always)
    func apply(_ y: UnsafeMutablePointer<Float>, count: Int) {
        switch self {
        case .none: return
        case .relu: for i in 0 ..< count { y[i] = Self.relu(y[i]) }
        case .reluN1To1: for i in 0 ..< count { y[i] = Self.reluN1To1(y[i]) }
        case .relu6: for i in 0 ..< count { y[i] = Self.relu6(y[i]) }
        case .tanh: for i in 0 ..< count { y[i] = Self.tanh(y[i]) }
        case .signBit: for i in 0 ..< count { y[i] = y[i].sign == .minus ? 1 : 0 }
        }
    }

    @inline(__always) static func relu(_ x: Float) -> Float { x > 0 ? x : 0 }

    @inline(__always) static func reluN1To1(_ x: Float) -> Float {
        let m: Float = 1 < x ? 1 : x
        return -1 < m ? m : -1
    }

    @inline(__always) static func relu6(_ x: Float) -> Float {
        let m: Float = 6 < x ? 6 : x
        return 0 < m ? m : 0
    }

    /// LiteRT's single-precision tanh (Eigen's fast-math form, as built without FMA):
    /// `x` clamped to ±7.90738964080810547 (where the quotient reaches exactly ±1), then
    ///
    ///     tanh(x) ≈ (x + x³·P(x²)) / Q(x²)
    ///
    /// with `P` of degree 3 and `Q` of degree 4 (constant term 1), each evaluated by
    /// Horner's rule as separate products and sums. Within a few ulp of the true tanh;
    /// `RecurrentActivationTests` checks it bit for bit against values LiteRT computed.
    @inline(__always)
    static func tanh(_ a: Float) -> Float {
        let bound: Float = 7.907_389_640_808_105_47
        let x = Swift.max(Swift.min(a, bound), -bound)
        let x2 = x * x
        let x3 = x2 * x
        var p: Float = 1.394_553_628e-8
        p = p * x2 + 2.102_733_560e-5
        p = p * x2 + 3.520_756_727e-3
        p = p * x2 + 1.340_216_100e-1
        var q: Float = 8.015_776_984e-7
        q = q * x2 + 3.326_951_409e-4
        q = q * x2 + 2.597_254_514e-2
        q = q * x2 + 4.673_548_340e-1
        q = q * x2 + 1
        return (x3 * p + x) / q
    }
}
