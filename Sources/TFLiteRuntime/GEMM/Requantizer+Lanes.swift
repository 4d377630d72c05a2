/// The fixed-point requantization of ``Requantizer/FixedChannel``, eight channels at a
/// time, with the same bits and only SSE2 operations.
///
/// TFLite's `MultiplyByQuantizedMultiplier(x, M, e)` is, with `s = x << max(e, 0)`
/// (wrapping) and `R = max(-e, 0)`:
///
///     h = floor((s·M + 2^30) / 2^31)                 (SaturatingRoundingDoublingHighMul, M ≥ 0)
///     r = floor((h + 2^(R-1) - [h < 0]) / 2^R)        (RoundingDivideByPOT, ties away from 0)
///
/// A signed 64-bit product has no SSE2 instruction, an unsigned 32 × 32 → 64 one does
/// (`pmuludq`), so both steps are rewritten on magnitudes. With `a = |s|` and
/// `σ = sign(s)`:
///
///     |h| = floor((a·M + 2^30 - [s < 0]) / 2^31)      and h has the sign σ (or is 0)
///     |r| = floor((|h| + 2^(R-1)) / 2^R)              (ties away from zero is symmetric)
///     r   = σ·|r|
///
/// The first line is `ceil(x) = floor(x + 1 - 1/d)` for the negative case; the second
/// holds because `2^R - 2^(R-1) = 2^(R-1)`. The right shift by a per-channel `R` (SSE2
/// only shifts every lane alike) is a second `pmuludq`: `floor(y / 2^R) =
/// floor(y · 2^(31-R) / 2^31)` for `y < 2^32`, `0 ≤ R ≤ 31`.
///
/// Ranges: `a ≤ 2^31`, `M < 2^31`, so `a·M + 2^30 < 2^62 + 2^30` and `|h| ≤ 2^31 - 1`;
/// `|h| + 2^(R-1) < 2^32`, and `|r| ≤ 2^31 - 1`, so `σ·|r|` is an exact `Int32`.
struct FixedChannelLanes: Sendable {
    let channels: Int
    /// Four rows of `channels` values: `M`; `2^(31 - R)`; `2^(R - 1)` (0 when `R = 0`);
    /// `2^max(e, 0)`, the wrapping left shift as a wrapping multiply.
    let constants: [UInt32]
    /// Some channel shifts left (a multiplier of 1 or more); else the fourth row is unused.
    let shiftsLeft: Bool
    /// `R` when every channel has the same one (per-tensor weights): then the division by
    /// `2^R` is one shift of all lanes instead of a second product.
    let uniformRight: UInt32?

    /// Nil when some exponent is outside `-31 ... 30` or a mantissa is negative (never
    /// after ``QuantizedConvParams/make``'s checks; the scalar path handles any).
    init?(mantissas: [Int32], exponents: [Int]) {
        guard mantissas.count == exponents.count, exponents.allSatisfy({ (-31 ... 30).contains($0) }),
            mantissas.allSatisfy({ $0 >= 0 })
        else { return nil }
        channels = mantissas.count
        constants =
            mantissas.map { UInt32($0) }
            + exponents.map { UInt32(1) << UInt32(31 - Swift.max(-$0, 0)) }
            + exponents.map { $0 < 0 ? UInt32(1) << UInt32(-$0 - 1) : 0 }
            + exponents.map { UInt32(1) << UInt32(Swift.max($0, 0)) }
        shiftsLeft = exponents.contains(where: { $0 > 0 })
        let right = exponents.map { UInt32(Swift.max(-$0, 0)) }
        uniformRight = right.allSatisfy({ $0 == right.first }) ? right.first : nil
    }

    /// `MultiplyByQuantizedMultiplier(s, M, e)` per lane for `s` already shifted left.
    @inline(__always)
    static func apply(_ s: SIMD4<Int32>, mantissa: SIMD4<UInt32>, divider: SIMD4<UInt32>, half: SIMD4<UInt32>) -> SIMD4<
        Int32
    > {
        let sign = s &>> 31 // -1 where s < 0
        let magnitude = SIMD4<UInt32>(truncatingIfNeeded: (s ^ sign) &- sign) // 2^31 for Int32.min
        // 2^30 - [s < 0], by adding the all-ones sign modulo 2^32.
        let nudge = SIMD4<UInt32>(repeating: 1 << 30) &+ SIMD4<UInt32>(truncatingIfNeeded: sign)
        let high = mulAddShift31(magnitude, mantissa, nudge)
        let rounded = mulAddShift31(high &+ half, divider, .zero)
        return (SIMD4<Int32>(truncatingIfNeeded: rounded) ^ sign) &- sign
    }

    /// ``apply(_:mantissa:divider:half:)`` when every lane divides by the same `2^R`.
    @inline(__always)
    static func apply(_ s: SIMD4<Int32>, mantissa: SIMD4<UInt32>, right: UInt32, half: SIMD4<UInt32>) -> SIMD4<Int32> {
        let sign = s &>> 31
        let magnitude = SIMD4<UInt32>(truncatingIfNeeded: (s ^ sign) &- sign)
        let nudge = SIMD4<UInt32>(repeating: 1 << 30) &+ SIMD4<UInt32>(truncatingIfNeeded: sign)
        let high = mulAddShift31(magnitude, mantissa, nudge)
        let rounded = (high &+ half) &>> SIMD4<UInt32>(repeating: right)
        return (SIMD4<Int32>(truncatingIfNeeded: rounded) ^ sign) &- sign
    }

    /// `(a·b + c) >> 31` per lane in 64 bits, for results below 2^32 (both callers').
    /// The even and odd lanes are multiplied as the low halves of two 64-bit lanes, the
    /// form `pmuludq` takes (Swift's generic SIMD widening would be a library call); the
    /// even results need no masking before they are merged, being below 2^32.
    @inline(__always)
    static func mulAddShift31(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let low = SIMD2<UInt64>(repeating: 0xFFFF_FFFF)
        let a2 = unsafeBitCast(a, to: SIMD2<UInt64>.self), b2 = unsafeBitCast(b, to: SIMD2<UInt64>.self)
        let c2 = unsafeBitCast(c, to: SIMD2<UInt64>.self)
        let even = ((a2 & low) &* (b2 & low) &+ (c2 & low)) &>> 31
        let odd = ((a2 &>> 32) &* (b2 &>> 32) &+ (c2 &>> 32)) &>> 31
        return unsafeBitCast(even | (odd &<< 32), to: SIMD4<UInt32>.self)
    }
}

extension Requantizer {
    /// ``store(_:count:firstChannel:bias:into:)`` for the fixed-point mode: eight channels
    /// a step through ``FixedChannelLanes``, the rest through ``FixedChannel``.
    @inline(__always)
    func storeFixed<T: Quantized8>(
        _ acc: UnsafePointer<Int32>, count: Int, firstChannel: Int,
        bias: UnsafePointer<Int32>?, into output: UnsafeMutablePointer<T>, lanes: FixedChannelLanes
    ) {
        // clamp(r + zp, lo, hi) = clamp(r, lo - zp, hi - zp) + zp, with no overflow.
        let zero = outputZeroPoint
        let lo = lower &- zero, hi = upper &- zero
        @inline(__always) func load<S>(_ p: UnsafePointer<S>) -> SIMD8<S> where S: SIMDScalar {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<S>.self)
        }
        let n = lanes.channels, c0 = firstChannel
        let bytes = UnsafeMutableRawPointer(output)
        lanes.constants.withUnsafeBufferPointer { cb in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { tb in
                guard let m = cb.baseAddress.map({ $0 + c0 }), let tmp = tb.baseAddress else { return }
                let d = m + n, h = m + 2 * n, left = UnsafeRawPointer(m + 3 * n)
                var j = 0
                // Blocks of 64: the lanes write the rounded values, then a plain loop clamps and
                // narrows them, which LLVM vectorizes with packs. (Narrowing in the lane loop
                // compiled to an out-of-line call with spills around it; clamping there to
                // blends; clamping after saturating to Int16 to scalar code.)
                while j + 8 <= count {
                    let block = Swift.min(64, count - j) & ~7
                    let a = acc + j, b = bias.map { $0 + c0 + j }, mj = m + j, dj = d + j, hj = h + j, lj = left + 4 * j
                    for i in stride(from: 0, to: block, by: 8) {
                        var s = load(a + i)
                        if let b { s = s &+ load(b + i) }
                        if lanes.shiftsLeft { s = s &* (lj + 4 * i).loadUnaligned(as: SIMD8<Int32>.self) }
                        let m8 = load(mj + i), h8 = load(hj + i)
                        let r: SIMD8<Int32>
                        if let right = lanes.uniformRight {
                            r = SIMD8(
                                lowHalf: FixedChannelLanes.apply(
                                    s.lowHalf, mantissa: m8.lowHalf, right: right, half: h8.lowHalf),
                                highHalf: FixedChannelLanes.apply(
                                    s.highHalf, mantissa: m8.highHalf, right: right, half: h8.highHalf))
                        } else {
                            let d8 = load(dj + i)
                            r = SIMD8(
                                lowHalf: FixedChannelLanes.apply(
                                    s.lowHalf, mantissa: m8.lowHalf, divider: d8.lowHalf, half: h8.lowHalf),
                                highHalf: FixedChannelLanes.apply(
                                    s.highHalf, mantissa: m8.highHalf, divider: d8.highHalf, half: h8.highHalf))
                        }
                        UnsafeMutableRawPointer(tmp + i).storeBytes(of: r, as: SIMD8<Int32>.self)
                    }
                    let o = bytes + j
                    for i in 0 ..< block {
                        var v = tmp[i]
                        v = v < lo ? lo : v
                        v = v > hi ? hi : v
                        v = v &+ zero
                        o.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
                    }
                    j += block
                }
                fixed.withUnsafeBufferPointer { q in
                    while j < count {
                        let a = bias.map { acc[j] &+ $0[c0 + j] } ?? acc[j]
                        let r = Int32(truncatingIfNeeded: q[c0 + j].apply(a))
                        output[j] = T(truncatingIfNeeded: Swift.min(Swift.max(r, lo), hi) &+ zero)
                        j += 1
                    }
                }
            }
        }
    }
}

extension Requantizer {
    /// ``store(_:count:firstChannel:bias:into:)`` for ``Requantization/float32``: one
    /// loop LLVM vectorizes. Rounding to nearest-even without `rounded()` (a library call
    /// at SSE2): adding `1.5·2^23` to a value in `[-2^22, 2^22]` leaves its nearest
    /// integer, ties to even, in the low mantissa bits; the clamp keeps values within ±510.
    @inline(__always)
    func storeFloat32<T: Quantized8>(
        _ acc: UnsafePointer<Int32>, count: Int, firstChannel: Int,
        bias: UnsafePointer<Int32>?, into output: UnsafeMutablePointer<T>
    ) {
        let zero = outputZeroPoint
        let lo = Float(lower &- zero), hi = Float(upper &- zero)
        let bytes = UnsafeMutableRawPointer(output)
        @inline(__always) func code(_ a: Int32, _ scale: Float) -> UInt8 {
            var v = Float(a) * scale
            v = v < lo ? lo : v
            v = v > hi ? hi : v
            let r = Int32(bitPattern: (v + 12_582_912).bitPattern) &- 0x4B40_0000
            return UInt8(truncatingIfNeeded: r &+ zero)
        }
        floatScales.withUnsafeBufferPointer { sb in
            guard let s = sb.baseAddress.map({ $0 + firstChannel }) else { return }
            if let b = bias.map({ $0 + firstChannel }) {
                for j in 0 ..< count {
                    bytes.storeBytes(of: code(acc[j] &+ b[j], s[j]), toByteOffset: j, as: UInt8.self)
                }
            } else {
                for j in 0 ..< count { bytes.storeBytes(of: code(acc[j], s[j]), toByteOffset: j, as: UInt8.self) }
            }
        }
    }
}
