import TFLiteModel

/// TFLite's fixed-point requantization arithmetic, bit for bit.
///
/// A real multiplier `m > 0` is stored as a Q31 mantissa `M ∈ [2^30, 2^31)` and a
/// power-of-two exponent `e` with `m ≈ M · 2^(e - 31)`. Applying it to an `Int32`
/// accumulator `x` rounds twice, as TFLite's reference kernels do by default:
/// first `SaturatingRoundingDoublingHighMul(x · 2^max(e,0), M)` (`x·M / 2^31` rounded to
/// nearest with ties toward +∞), then `RoundingDivideByPOT(·, max(-e, 0))` (round half away
/// from zero of the division by a power of two).
///
/// Everything here is integer arithmetic, so results are independent of SIMD width,
/// thread count and floating-point contraction.
package enum FixedPoint {
    /// Decomposes `multiplier` into a Q31 mantissa and exponent, as TFLite's
    /// `QuantizeMultiplier`: `frexp` gives `q ∈ [0.5, 1)` and `e`; the mantissa is
    /// `round(q · 2^31)` (ties away from zero), renormalized when it rounds up to 2^31.
    /// Zero, and multipliers so small the exponent drops below -31, give `(0, 0)`.
    ///
    /// Computed from the bits rather than with libm's `frexp` and `round` (calls that were
    /// most of preparing a per-channel int8 convolution): `significand ∈ [1, 2)` and
    /// `exponent` are frexp's `2·q` and `e - 1`, subnormals included; `|q|·2^31 < 2^31` has
    /// fraction bits of 2^-22 at the finest, so adding 0.5 is exact and truncating the sum
    /// rounds half away from zero.
    package static func quantizeMultiplier(_ multiplier: Double) -> (mantissa: Int32, exponent: Int) {
        guard multiplier != 0, multiplier.isFinite else { return (0, 0) }
        var e = Int(multiplier.exponent) + 1
        var q = Int64(multiplier.significand * 1_073_741_824.0 + 0.5) // |q|·2^31, rounded
        if multiplier < 0 {
            q = -q // -2^31 fits Int32 and is kept as is, as TFLite does
        } else if q == 1 << 31 {
            q >>= 1
            e += 1
        }
        if e < -31 { return (0, 0) }
        return (Int32(q), e)
    }

    /// `a · b / 2^31` rounded to nearest, saturating the single overflow case
    /// `a == b == Int32.min` to `Int32.max` (gemmlowp's `SaturatingRoundingDoublingHighMul`).
    ///
    /// The nudge `±2^30` followed by a truncating division rounds ties toward +∞:
    /// 1.5 → 2 but -1.5 → -1. Kernels must match this exactly.
    @inline(__always)
    package static func saturatingRoundingDoublingHighMul(_ a: Int32, _ b: Int32) -> Int32 {
        if a == Int32.min && b == Int32.min { return Int32.max }
        let ab = Int64(a) * Int64(b)
        let nudge: Int64 = ab >= 0 ? (1 << 30) : (1 - (1 << 30))
        // Division truncates toward zero, like C's.
        return Int32(truncatingIfNeeded: (ab + nudge) / (1 << 31))
    }

    /// `x / 2^exponent` rounded to nearest, ties away from zero (gemmlowp's
    /// `RoundingDivideByPOT`), for `0 ≤ exponent ≤ 31`.
    @inline(__always)
    package static func roundingDivideByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
        let mask = Int32(truncatingIfNeeded: (Int64(1) << exponent) - 1)
        let remainder = x & mask
        let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
        return (x >> Int32(exponent)) + (remainder > threshold ? 1 : 0)
    }

    /// TFLite's `MultiplyByQuantizedMultiplier` (double rounding): `x · M · 2^(e-31)`.
    ///
    /// The left shift for positive exponents wraps like the C++ code (callers keep
    /// `x · 2^e` in range, as TFLite's kernels do).
    @inline(__always)
    package static func multiplyByQuantizedMultiplier(_ x: Int32, _ mantissa: Int32, _ exponent: Int) -> Int32 {
        let left = exponent > 0 ? exponent : 0
        let right = exponent > 0 ? 0 : -exponent
        let shifted = x &<< Int32(left)
        return roundingDivideByPOT(saturatingRoundingDoublingHighMul(shifted, mantissa), right)
    }

    /// The clamp bounds of a fused activation in the quantized domain, as TFLite's
    /// `CalculateActivationRangeQuantized`: `Q(f) = zp + round(f / scale)` computed in
    /// `Float` with ties away from zero, intersected with `[qmin, qmax]`.
    package static func activationRange(
        _ activation: FusedActivation, scale: Float, zeroPoint: Int32, qmin: Int32, qmax: Int32
    ) -> (lower: Int32, upper: Int32)? {
        func quantize(_ f: Float) -> Int32 {
            let r = (f / scale).rounded(.toNearestOrAwayFromZero)
            let v = Double(zeroPoint) + Double(r)
            return Int32(clamping: Int64(max(min(v, 4e9), -4e9)))
        }
        switch activation {
        case .none: return (qmin, qmax)
        case .relu: return (max(qmin, quantize(0)), qmax)
        case .relu6: return (max(qmin, quantize(0)), min(qmax, quantize(6)))
        case .reluN1To1: return (max(qmin, quantize(-1)), min(qmax, quantize(1)))
        case .tanh, .signBit, .unknown: return nil
        }
    }
}
