import TFLiteModel

/// An 8-bit storage type of quantized activations (uint8 or int8): codes widen to
/// `Int32` exactly, and results are clamped to the type's range before narrowing.
protocol QuantizedByte: FixedWidthInteger, Sendable {
    static var lowest: Int32 { get }
    static var highest: Int32 { get }
}

extension QuantizedByte {
    /// `v` clamped to `[lowest, highest]`, then narrowed (exact after the clamp).
    @inline(__always)
    static func clamping(_ v: Int32) -> Self {
        Self(truncatingIfNeeded: Swift.min(Swift.max(v, lowest), highest))
    }

    @inline(__always)
    var code: Int32 { Int32(truncatingIfNeeded: self) }
}

extension UInt8: QuantizedByte {
    static var lowest: Int32 { 0 }
    static var highest: Int32 { 255 }
}

extension Int8: QuantizedByte {
    static var lowest: Int32 { -128 }
    static var highest: Int32 { 127 }
}

/// Per-tensor affine quantization of an 8-bit operand, `real = scale · (q − zeroPoint)`,
/// validated at prepare: one scale, finite and positive, and a zero point inside the
/// storage type's range (so every `q − zeroPoint` fits in 9 bits and no kernel's
/// intermediate can overflow `Int32`).
struct QuantizedOperand: Hashable, Sendable {
    let scale: Float
    let zeroPoint: Int32

    init(_ tensor: TensorState, role: String) throws(KernelError) {
        guard let q = tensor.quantization, let s = q.scales.first, let z = q.zeroPoints.first else {
            throw .invalid("\(role) (tensor \(tensor.index), \(tensor.type)) has no quantization parameters")
        }
        guard q.scales.count == 1, q.zeroPoints.count == 1 else {
            throw .invalid(
                "\(role) (tensor \(tensor.index)) must be quantized per tensor, found \(q.scales.count) scales")
        }
        guard s.isFinite, s > 0 else {
            throw .invalid("\(role) (tensor \(tensor.index)) has scale \(s); expected a finite positive value")
        }
        let (lo, hi): (Int64, Int64) = tensor.type == .uint8 ? (0, 255) : (-128, 127)
        guard z >= lo, z <= hi else {
            throw .invalid(
                "\(role) (tensor \(tensor.index)) has zero point \(z), outside \(lo)...\(hi) for \(tensor.type)")
        }
        scale = s
        zeroPoint = Int32(z)
    }

    init(scale: Float, zeroPoint: Int32) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}

/// A requantization `x ↦ MBQM(x, mantissa, exponent)` with TFLite's double rounding.
struct QuantizedMultiplier: Hashable, Sendable {
    let mantissa: Int32
    let exponent: Int

    /// `QuantizeMultiplier(real)`. Multipliers so large that `x · 2^exponent` could
    /// overflow are rejected by the callers that can meet them.
    init(_ real: Double) {
        (mantissa, exponent) = FixedPoint.quantizeMultiplier(real)
    }

    @inline(__always)
    func apply(_ x: Int32) -> Int32 {
        FixedPoint.multiplyByQuantizedMultiplier(x, mantissa, exponent)
    }

    /// The multiplier as a number, `M · 2^(e − 31)`.
    var real: Double { Double(mantissa) * Double(sign: .plus, exponent: exponent - 31, significand: 1) }
}

extension FusedActivation {
    /// Quantized clamp bounds of this fused activation for an output of type `T`
    /// (TFLite's `CalculateActivationRangeQuantized`); TANH and SIGN_BIT are rejected.
    func quantizedRange<T: QuantizedByte>(_: T.Type, output: QuantizedOperand) throws(KernelError) -> (
        lower: Int32, upper: Int32
    ) {
        guard
            let r = FixedPoint.activationRange(
                self, scale: output.scale, zeroPoint: output.zeroPoint,
                qmin: T.lowest, qmax: T.highest)
        else {
            throw .invalid("fused activation \(name) is not supported")
        }
        return r
    }
}
