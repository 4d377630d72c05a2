/// TFLite's int16 TANH and LOGISTIC (its reference kernels), as loops every level
/// specializes in its own module (`sigmoidInterpolationS16Portable`, `…AVX2`).
///
/// For a code `x`, the input is first put on the table's scale, `1/(3·2^12)` per unit:
///
///     d = (x·M + 2^(s−1)) >> s        (wrapping Int32 arithmetic; no rounding term for s = 0)
///
/// Then, with `a = |d|` (2^31 for `Int32.min`) and the nodes `T` of ``SigmoidTableQ16``:
///
/// - TANH (`tanh(v) = 2σ(2v) − 1`, so `a` in units of 1/256 node): `j = min(a >> 8, 255)`,
///   `v = T[j]·2^8 + (a & 255)·slope[j]`, and
///   `y = (v − 2^23 + 2^7) >> 8` for `d ≥ 0`, `(2^23 + 2^7 − 1 − v) >> 8` for `d < 0`;
/// - LOGISTIC (`a` in units of 1/512 node): `j = min(a >> 9, 255)`,
///   `v = T[j]·2^9 + (a & 511)·slope[j]`, and
///   `y = (v + 2^9) >> 10` for `d ≥ 0`, `(2^25 − v + 2^9 − 1) >> 10` for `d < 0`.
///
/// Node 255 holds the reference's saturation value with slope 0 (``SigmoidTableQ16/nodes(saturation:)``),
/// so the clamp reproduces its `a >> k ≥ 255` branch. The loops are branch-free
/// (LLVM turns the node loads into gathers where the level has them).
public enum SigmoidInterpolationS16 {
    @inlinable @inline(__always)
    public static func tanh(
        _ x: UnsafePointer<Int16>, _ y: UnsafeMutablePointer<Int16>, count: Int,
        multiplier: Int32, shift: Int32, nodes: UnsafePointer<UInt32>
    ) {
        let round: Int32 = shift > 0 ? 1 &<< (shift &- 1) : 0
        for i in 0 ..< count {
            let d = (Int32(x[i]) &* multiplier &+ round) &>> shift
            let a = d.magnitude
            let node = nodes[Int(Swift.min(a &>> 8, 255))]
            let v = Int32(bitPattern: (node & 0xFFFF) &<< 8 &+ (a & 255) &* (node &>> 16))
            let r = d >= 0 ? v &- (1 << 23) &+ (1 << 7) : (1 << 23) &+ (1 << 7) &- 1 &- v
            y[i] = Int16(truncatingIfNeeded: r &>> 8)
        }
    }

    @inlinable @inline(__always)
    public static func logistic(
        _ x: UnsafePointer<Int16>, _ y: UnsafeMutablePointer<Int16>, count: Int,
        multiplier: Int32, shift: Int32, nodes: UnsafePointer<UInt32>
    ) {
        let round: Int32 = shift > 0 ? 1 &<< (shift &- 1) : 0
        for i in 0 ..< count {
            let d = (Int32(x[i]) &* multiplier &+ round) &>> shift
            let a = d.magnitude
            let node = nodes[Int(Swift.min(a &>> 9, 255))]
            let v = Int32(bitPattern: (node & 0xFFFF) &<< 9 &+ (a & 511) &* (node &>> 16))
            let r = d >= 0 ? v &+ (1 << 9) : (1 << 25) &- v &+ (1 << 9) &- 1
            y[i] = Int16(truncatingIfNeeded: r &>> 10)
        }
    }
}

/// ``SigmoidInterpolationS16`` at the portable level: `logistic` picks the function.
@inline(never)
public func sigmoidInterpolationS16Portable(
    _ x: UnsafePointer<Int16>, _ y: UnsafeMutablePointer<Int16>, count: Int,
    logistic: Bool, multiplier: Int32, shift: Int32, nodes: UnsafePointer<UInt32>
) {
    if logistic {
        SigmoidInterpolationS16.logistic(x, y, count: count, multiplier: multiplier, shift: shift, nodes: nodes)
    } else {
        SigmoidInterpolationS16.tanh(x, y, count: count, multiplier: multiplier, shift: shift, nodes: nodes)
    }
}
