import TFLiteModel

/// Output size and padding of one spatial axis of a convolution or pool.
///
/// With effective filter size `eff = (filter - 1) * dilation + 1`:
/// - SAME: `out = ceil(in / stride)`;
/// - VALID: `out = floor((in - eff) / stride) + 1`, or 0 when the filter is larger than
///   the input (kernels reject empty outputs where TFLite does).
/// Total padding is `max(0, (out - 1) * stride + eff - in)`; the first `total / 2`
/// rows/columns go before, and the odd one out goes after (bottom/right).
package struct AxisGeometry: Hashable, Sendable {
    package var input: Int
    package var output: Int
    /// Padding before the first input element (top or left).
    package var padBefore: Int
    /// Padding after the last input element (bottom or right).
    package var padAfter: Int

    package static func compute(input: Int, filter: Int, stride: Int, dilation: Int, padding: Padding)
        throws(KernelError) -> AxisGeometry
    {
        guard stride > 0, dilation > 0, filter > 0 else {
            throw .invalid("stride (\(stride)), dilation (\(dilation)) and filter size (\(filter)) must be positive")
        }
        guard input >= 0 else { throw .invalid("negative input size \(input)") }
        let (e1, o1) = (filter - 1).multipliedReportingOverflow(by: dilation)
        guard !o1, e1 < Int(Int32.max) else { throw .invalid("dilated filter size overflows") }
        let eff = e1 + 1
        let out: Int
        switch padding {
        case .same: out = (input + stride - 1) / stride
        case .valid: out = input >= eff ? (input - eff) / stride + 1 : 0
        case .unknown(let v): throw .invalid("unknown padding value \(v)")
        }
        let needed = (out > 0 ? (out - 1) * stride : 0) + eff - input
        let total = Swift.max(0, needed)
        return AxisGeometry(input: input, output: out, padBefore: total / 2, padAfter: total - total / 2)
    }
}

/// Clamp bounds of a fused activation for float outputs.
package struct FloatActivationRange: Hashable, Sendable {
    package var lower: Float
    package var upper: Float

    package static func of(_ activation: FusedActivation) throws(KernelError) -> FloatActivationRange {
        switch activation {
        case .none: return FloatActivationRange(lower: -.infinity, upper: .infinity)
        case .relu: return FloatActivationRange(lower: 0, upper: .infinity)
        case .relu6: return FloatActivationRange(lower: 0, upper: 6)
        case .reluN1To1: return FloatActivationRange(lower: -1, upper: 1)
        case .tanh, .signBit, .unknown:
            throw .invalid("fused activation \(activation.name) is not supported")
        }
    }

    @inline(__always)
    package func clamp(_ x: Float) -> Float { Swift.min(Swift.max(x, lower), upper) }
}
