#if arch(arm64)
import _Builtin_intrinsics.arm.neon

/// TFLite's fixed-point requantization for aarch64 Advanced SIMD, sixteen channels per
/// step (then four, then one):
///
///     s = (acc + bias[c]) << left[c]                         (wrapping Int32)
///     h = SaturatingRoundingDoublingHighMul(s, M[c])          (M ≥ 0)
///     r = RoundingDivideByPOT(h, R[c])                        (ties away from zero)
///     out = clamp(r, lower - zp, upper - zp) + zp             (as 8 bits)
///
/// in the lanes of ``RequantizeQ31Lanes``, which give the reference's bits for every
/// `M ∈ [0, 2^31)`, `left ∈ 0...30`, `R ∈ 0...31`; the tail runs the same formulas in
/// scalar `Int64`. Arguments as for the x86-64 kernels (`requantizeQ31AVX2`): `rows` rows
/// of `count` accumulators of consecutive channels, `accStride` apart, into output rows
/// `outStride` bytes apart; per-channel `mantissa`, `left`, `right` (and `bias`) from the
/// accumulators' first channel; `shiftsLeft` false when every `left` is 0; the low byte of
/// each clamped result is stored, so int8 and uint8 share the kernel.
@export(interface) @inline(never)
public func requantizeQ31NEON(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool,
    right: UnsafePointer<Int32>, outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let range = CodeRangeLanes(zp: zp, lower: lower, upper: upper)
    for row in 0 ..< rows {
        let a = acc + row * accStride, o = out + row * outStride
        @inline(__always) func codes(_ j: Int) -> SIMD4<Int32> {
            var x = UnsafeRawPointer(a + j).loadUnaligned(as: SIMD4<Int32>.self)
            if let bias { x &+= UnsafeRawPointer(bias + j).loadUnaligned(as: SIMD4<Int32>.self) }
            let lanes = RequantizeQ31Lanes(mantissa: mantissa + j, left: left + j, right: right + j)
            return range.clamp(lanes.apply(x, shiftsLeft: shiftsLeft))
        }
        var j = 0
        while j + 16 <= count {
            o.storeBytes(
                of: narrowToBytes(codes(j), codes(j + 4), codes(j + 8), codes(j + 12)), toByteOffset: j,
                as: SIMD16<Int8>.self)
            j += 16
        }
        while j + 4 <= count {
            storeFourBytes(codes(j), o + j)
            j += 4
        }
        while j < count {
            var x = a[j]
            if let bias { x = x &+ bias[j] }
            let s = Int64(x &<< left[j])
            let h = (s &* Int64(mantissa[j]) &+ (1 << 30)) &>> 31
            let r = Int64(right[j])
            let half: Int64 = r > 0 ? 1 << (r - 1) : 0
            let scaled = (h &+ half &- (r > 0 && h < 0 ? 1 : 0)) &>> r
            let v = Swift.min(Swift.max(scaled, Int64(lower &- zp)), Int64(upper &- zp)) &+ Int64(zp)
            o.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: j, as: UInt8.self)
            j += 1
        }
    }
}

/// XNNPACK's float requantization (the opt-in `.float32` mode) for aarch64 Advanced SIMD:
///
///     out = round_even(clamp(Float(acc + bias[c]) · scale[c], lower - zp, upper - zp)) + zp
///
/// `FCVTNS` rounds to nearest with ties to even whatever the rounding mode. Arguments as
/// for ``requantizeQ31NEON(_:rows:count:accStride:bias:mantissa:left:shiftsLeft:right:outputZeroPoint:lower:upper:into:outStride:)``,
/// with one `Float` scale per channel; the clamp bounds are integers, so clamping before
/// rounding gives the same result as after.
@export(interface) @inline(never)
public func requantizeF32NEON(
    _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int,
    bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32,
    into out: UnsafeMutableRawPointer, outStride: Int
) {
    let range = FloatCodeLanes(zp: zp, lower: lower, upper: upper)
    for row in 0 ..< rows {
        let a = acc + row * accStride, o = out + row * outStride
        @inline(__always) func codes(_ j: Int) -> SIMD4<Int32> {
            var x = UnsafeRawPointer(a + j).loadUnaligned(as: SIMD4<Int32>.self)
            if let bias { x &+= UnsafeRawPointer(bias + j).loadUnaligned(as: SIMD4<Int32>.self) }
            return range.codes(x, scale: UnsafeRawPointer(scale + j).loadUnaligned(as: SIMD4<Float>.self))
        }
        var j = 0
        while j + 16 <= count {
            o.storeBytes(
                of: narrowToBytes(codes(j), codes(j + 4), codes(j + 8), codes(j + 12)), toByteOffset: j,
                as: SIMD16<Int8>.self)
            j += 16
        }
        while j + 4 <= count {
            storeFourBytes(codes(j), o + j)
            j += 4
        }
        let lo = Float(lower &- zp), hi = Float(upper &- zp)
        while j < count {
            var x = a[j]
            if let bias { x = x &+ bias[j] }
            let v = Swift.min(Swift.max(Float(x) * scale[j], lo), hi)
            let r = Int32(v.rounded(.toNearestOrEven)) &+ zp
            o.storeBytes(of: UInt8(truncatingIfNeeded: r), toByteOffset: j, as: UInt8.self)
            j += 1
        }
    }
}

/// `out[i] = x[i] - zx` as `Int16` for 8-bit codes (`|·| ≤ 255`, exact): the rows of the
/// 16-bit integer GEMM. Sixteen codes per step (`SXTL`/`UXTL`, `SUB`).
@export(interface) @inline(never)
public func centerCodesS16NEON(
    _ x: UnsafeRawPointer, count: Int, signed: Bool, zeroPoint: Int32,
    into out: UnsafeMutablePointer<Int16>
) {
    let z = SIMD8<Int16>(repeating: Int16(truncatingIfNeeded: zeroPoint))
    let o = UnsafeMutableRawPointer(out)
    var i = 0
    while i + 16 <= count {
        let bytes = (x + i).loadUnaligned(as: SIMD16<Int8>.self)
        let lo: SIMD8<Int16>, hi: SIMD8<Int16>
        if signed {
            lo = vmovl_s8(bytes.lowHalf)
            hi = vmovl_high_s8(bytes)
        } else {
            let u = unsafeBitCast(bytes, to: SIMD16<UInt8>.self)
            lo = unsafeBitCast(vmovl_u8(u.lowHalf), to: SIMD8<Int16>.self)
            hi = unsafeBitCast(vmovl_high_u8(u), to: SIMD8<Int16>.self)
        }
        o.storeBytes(of: lo &- z, toByteOffset: 2 * i, as: SIMD8<Int16>.self)
        o.storeBytes(of: hi &- z, toByteOffset: 2 * i + 16, as: SIMD8<Int16>.self)
        i += 16
    }
    while i < count {
        let code =
            signed ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self))
        out[i] = Int16(truncatingIfNeeded: code &- zeroPoint)
        i += 1
    }
}

/// TFLite's `MultiplyByQuantizedMultiplier` for four channels, bit-exact:
///
/// - `SQRDMULH` is `SaturatingRoundingDoublingHighMul`: `(2·s·M + 2^31) >> 32`, which is
///   `floor((s·M + 2^30) / 2^31)`, the reference's nudged truncating division for either
///   sign; it saturates only for `s = M = -2^31`, and `M ≥ 0`.
/// - `RoundingDivideByPOT(h, R)` rounds ties away from zero. `SRSHL` by `-R` computes
///   `(h + 2^(R-1)) >> R` without overflow (ties up), so negative `h` first loses 1:
///   `(h & -R) >> 31` is -1 exactly when `h < 0` and `R > 0`. `h > -2^31` (as
///   `M < 2^31`), so the saturating add is exact.
@frozen
public struct RequantizeQ31Lanes {
    public let mantissa: SIMD4<Int32>, left: SIMD4<Int32>, negativeRight: SIMD4<Int32>

    /// Four channels' mantissas `M`, left shifts and right shifts `R`.
    @inlinable @inline(__always)
    public init(mantissa: SIMD4<Int32>, left: SIMD4<Int32>, right: SIMD4<Int32>) {
        self.mantissa = mantissa
        self.left = left
        negativeRight = 0 &- right
    }

    /// The constants of channels `0 ..< 4` of the three arrays.
    @inlinable @inline(__always)
    public init(mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, right: UnsafePointer<Int32>) {
        self.init(
            mantissa: UnsafeRawPointer(mantissa).loadUnaligned(as: SIMD4<Int32>.self),
            left: UnsafeRawPointer(left).loadUnaligned(as: SIMD4<Int32>.self),
            right: UnsafeRawPointer(right).loadUnaligned(as: SIMD4<Int32>.self))
    }

    /// `RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x << left, M), R)`; the left
    /// shift is skipped when `shiftsLeft` is false (every `left` is 0).
    @inlinable @inline(__always)
    public func apply(_ x: SIMD4<Int32>, shiftsLeft: Bool) -> SIMD4<Int32> {
        let s = shiftsLeft ? vshlq_s32(x, left) : x
        let h = vqrdmulhq_s32(s, mantissa)
        let fix = (h & negativeRight) &>> 31
        return vrshlq_s32(vqaddq_s32(h, fix), negativeRight)
    }
}

/// The output zero point and the clamp of requantized lanes.
@frozen
public struct CodeRangeLanes {
    public let zp: SIMD4<Int32>, lower: SIMD4<Int32>, upper: SIMD4<Int32>

    @inlinable @inline(__always)
    public init(zp: Int32, lower: Int32, upper: Int32) {
        self.zp = SIMD4(repeating: zp)
        self.lower = SIMD4(repeating: lower &- zp)
        self.upper = SIMD4(repeating: upper &- zp)
    }

    /// `clamp(r, lower - zp, upper - zp) + zp`.
    @inlinable @inline(__always)
    public func clamp(_ r: SIMD4<Int32>) -> SIMD4<Int32> { vminq_s32(vmaxq_s32(r, lower), upper) &+ zp }
}

/// The float32 requantization's lanes: `round_even(clamp(Float(x) · scale, ...)) + zp`.
@frozen
public struct FloatCodeLanes {
    public let zp: SIMD4<Int32>, lower: SIMD4<Float>, upper: SIMD4<Float>

    @inlinable @inline(__always)
    public init(zp: Int32, lower: Int32, upper: Int32) {
        self.zp = SIMD4(repeating: zp)
        self.lower = SIMD4(repeating: Float(lower &- zp))
        self.upper = SIMD4(repeating: Float(upper &- zp))
    }

    @inlinable @inline(__always)
    public func codes(_ x: SIMD4<Int32>, scale: SIMD4<Float>) -> SIMD4<Int32> {
        let v = vminq_f32(vmaxq_f32(vcvtq_f32_s32(x) * scale, lower), upper)
        return vcvtnq_s32_f32(v) &+ zp
    }
}

/// The low bytes of sixteen `Int32` lanes, in order (`XTN`, truncating like the scalar
/// store).
@inlinable @inline(__always)
public func narrowToBytes(
    _ a: SIMD4<Int32>, _ b: SIMD4<Int32>, _ c: SIMD4<Int32>, _ d: SIMD4<Int32>
) -> SIMD16<Int8> {
    let ab = vcombine_s16(vmovn_s32(a), vmovn_s32(b)), cd = vcombine_s16(vmovn_s32(c), vmovn_s32(d))
    return vcombine_s8(vmovn_s16(ab), vmovn_s16(cd))
}

/// Stores the low bytes of four `Int32` lanes at `p`.
@inlinable @inline(__always)
public func storeFourBytes(_ v: SIMD4<Int32>, _ p: UnsafeMutableRawPointer) {
    let halves = vmovn_s32(v)
    let bytes = vmovn_s16(vcombine_s16(halves, halves))
    p.storeBytes(of: unsafeBitCast(bytes, to: SIMD2<UInt32>.self)[0], as: UInt32.self)
}
#endif
