#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The constants of the 8-bit binary kernels (``binaryQ8AVX2(_:_:_:_:_:count:_:)``): TFLite's
/// integer ADD, SUB, MUL and SQUARED_DIFFERENCE with per-tensor quantization, exactly as its
/// reference kernels compute them:
///
///     ADD/SUB:  y = MBQM(MBQM((a - z_a)·2^L, A) ± MBQM((b - z_b)·2^L, B), Y) + z_y    (L = 20)
///     SQDIFF:   y = MBQM(d·d, Y) + z_y,  d = MBQM((a - z_a)·2^L, A) - MBQM((b - z_b)·2^L, B)  (L = 7)
///     MUL:      y = MBQM((a - z_a)·(b - z_b), Y) + z_y
///
/// clamped to `[lower, upper]`, where `MBQM(v, M·2^e) = RoundingDivideByPOT(
/// SaturatingRoundingDoublingHighMul(v·2^max(e,0), M), max(-e,0))`.
public struct BinaryQ8AVX2Parameters: Sendable {
    public enum Operation: Sendable { case add, subtract, multiply, squaredDifference }
    let operation: Operation
    let signed: Bool
    let zeroA: Int32, zeroB: Int32
    let inputA: InputRescaleConstants, inputB: InputRescaleConstants
    let mantissaY: Int32, leftY: Int32, rightY: Int32
    let zeroY: Int32, lower: Int32, upper: Int32
    /// ADD and SUB: `y ≈ α·a + β·b + γ` in Float (see ``binaryQ8AVX2(_:_:_:_:_:count:_:)``),
    /// and the distance from a half within which a lane is recomputed exactly; nil when
    /// that distance would be too large for the shortcut to pay.
    let affine: (alpha: Float, beta: Float, gamma: Float, nearHalf: Int32)?
    /// Every step of the reference is exact but the last rounding, and `α·a + β·b + γ` is
    /// exact in Float: the sum is the reference's value before that rounding, whose ties
    /// go away from zero (equal input scales make this case).
    let exactTies: Bool
    /// With ``exactTies``: `4096·α` and `4096·β` as the two `Int16` halves of one word (`α`
    /// low), and `4096·(γ - z_y) + 2047`, so that `W = 4096·α·a + 4096·β·b + 4096·(γ - z_y)`
    /// is an exact integer (the three are dyadic with 12 fraction bits) and the reference's
    /// code is `z_y + (W + 2047 + [W ≥ 0]) >> 12`, its last rounding half away from zero.
    let ties16: (pair: Int32, offset: Int32)?

    /// The parameters when the kernel takes them, else nil. The input multipliers (ADD,
    /// SUB, SQUARED_DIFFERENCE; ignored for MUL) must be below one (`M ∈ [0, 2^31)`,
    /// `e ∈ -31...0`), as TFLite makes them; the output multiplier may shift left
    /// (`e ∈ -31...30`) only for MUL.
    public init?(
        operation: Operation, signed: Bool, zeroA: Int32, mantissaA: Int32 = 0, exponentA: Int = 0,
        zeroB: Int32, mantissaB: Int32 = 0, exponentB: Int = 0, mantissaY: Int32, exponentY: Int,
        zeroY: Int32, lower: Int32, upper: Int32
    ) {
        let rescales = operation != .multiply
        guard mantissaY >= 0, (-31 ... (rescales ? 0 : 30)).contains(exponentY),
            (-255 ... 255).contains(zeroA), (-255 ... 255).contains(zeroB), lower <= upper,
            !rescales
                || (mantissaA >= 0 && mantissaB >= 0 && (-31 ... 0).contains(exponentA)
                    && (-31 ... 0).contains(exponentB))
        else { return nil }
        self.operation = operation
        self.signed = signed
        self.zeroA = zeroA
        self.zeroB = zeroB
        let shift: Int32 = operation == .squaredDifference ? 7 : 20
        inputA = InputRescaleConstants(mantissa: mantissaA, exponent: exponentA, leftShift: shift)
        inputB = InputRescaleConstants(mantissa: mantissaB, exponent: exponentB, leftShift: shift)
        self.mantissaY = mantissaY
        leftY = Int32(Swift.max(exponentY, 0))
        rightY = Int32(Swift.max(-exponentY, 0))
        self.zeroY = zeroY
        self.lower = lower
        self.upper = upper
        if operation == .add || operation == .subtract {
            @inline(__always) func real(_ m: Int32, _ e: Int) -> Double { Double(m) * pow2(e - 31) }
            let my = real(mantissaY, exponentY)
            let alpha = real(mantissaA, exponentA) * pow2(20) * my
            let beta = real(mantissaB, exponentB) * pow2(20) * my * (operation == .subtract ? -1 : 1)
            let gamma = Double(zeroY) - alpha * Double(zeroA) - beta * Double(zeroB)
            // Each input's rescale is within one unit of its real value, which the output
            // multiplier scales by `my`; the output's first rounding moves it by at most
            // 2^-(R+1); Float adds less than 2^-12 (the three constants' roundings and the two
            // FMAs', 7·2^-15 at most) when every partial sum stays below 2^10 in magnitude,
            // which `bounded` checks for any codes `|a|, |b| ≤ 255`.
            let slack = 2 * my + pow2(-Int(rightY) - 1) + pow2(-12)
            // Exact steps: each input's rescale is `d·k` for an integer `k` (its high product and
            // division drop no bits), and so is the output's high product of every sum.
            @inline(__always) func factor(_ m: Int32, _ e: Int) -> Int64? {
                let drop = 11 + max(-e, 0) // the bits the two roundings divide away
                return m == 0 ? 0 : (m.trailingZeroBitCount >= drop ? Int64(m) >> drop : nil)
            }
            @inline(__always) func dyadic(_ x: Double) -> Bool { (x * 4096).rounded() == x * 4096 }
            let ka = factor(mantissaA, exponentA), kb = factor(mantissaB, exponentB)
            let outputExact = [ka, kb].allSatisfy { k in
                guard let k else { return false }
                return k == 0 || k.trailingZeroBitCount + mantissaY.trailingZeroBitCount >= 31
            }
            exactTies =
                outputExact && leftY == 0 && dyadic(alpha) && dyadic(beta) && dyadic(gamma)
                && (abs(alpha) + abs(beta)) * 256 + abs(gamma) < 2048
            // |α| + |β| < 8 here, so both fit Int16 at 12 fraction bits and `W` stays below 2^24.
            ties16 =
                exactTies
                ? (
                    pair: Int32(
                        bitPattern: UInt32(UInt16(bitPattern: Int16(alpha * 4096)))
                            | UInt32(UInt16(bitPattern: Int16(beta * 4096))) << 16),
                    offset: Int32((gamma - Double(zeroY)) * 4096) + 2047
                ) : nil
            let bounded = (abs(alpha) + abs(beta)) * 255 + abs(gamma) < 1024
            affine =
                exactTies || (bounded && slack < pow2(-7))
                ? (Float(alpha), Float(beta), Float(gamma), Int32(bitPattern: Float(0.5 - slack).bitPattern)) : nil
        } else {
            affine = nil
            exactTies = false
            ties16 = nil
        }
    }
}

@inline(__always)
private func pow2(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }

/// `MBQM((x - z)·2^L, M·2^-R)` for a code difference `|x - z| ≤ 255` and `L ∈ {7, 20}`.
/// `(x - z)·2^L·M` is a multiple of `2^L`, so its high product
/// `floor(((x - z)·2^L·M + 2^30) / 2^31)` is `floor(((x - z)·M + 2^(30-L)) / 2^(31-L))`. With
/// `M = M_h·2^s + M_l` (`M_l < 2^s`) and `31 - L = s + t`, that is
/// `((x - z)·M_h + (((x - z)·M_l + 2^(30-L)) >> s)) >> t` (floor divisions nest): `s = 11, t = 0`
/// for `L = 20` and `s = 16, t = 8` for `L = 7`, so both products stay below 2^28 and 2^24.
struct InputRescaleConstants: Sendable {
    let high: Int32, low: Int32, nudge: Int32, lowShift: Int32, highShift: Int32, right: Int32

    init(mantissa: Int32, exponent: Int, leftShift: Int32) {
        let total = 31 - leftShift
        lowShift = Swift.min(total, 16)
        highShift = total - lowShift
        high = mantissa >> lowShift
        low = mantissa & ((1 << lowShift) - 1)
        nudge = 1 << (30 - leftShift)
        right = Int32(Swift.max(-exponent, 0))
    }
}

/// TFLite's 8-bit ADD, SUB, MUL or SQUARED_DIFFERENCE over `count` elements, thirty-two a
/// step in eight-lane `Int32` arithmetic, bit-exact with the reference (see
/// ``BinaryQ8AVX2Parameters``). ADD and SUB first try the shortcut their arithmetic
/// allows: every rounding but the last is below `2^-(R+1)` of an output step (the input
/// rescales keep 20 bits of headroom, the output one divides by `2^R`), so the result is
/// `α·a + β·b + γ` rounded, computed in Float with two FMAs, wherever that sum is not
/// within that slack of a half; a block of 32 with such a lane goes through the exact
/// lanes instead. `strideA` and `strideB` are 1 (contiguous) or 0 (one code
/// repeated, a broadcast scalar). The high product of the output rescale comes from
/// `vpmuldq` on the even lanes and on the odd lanes shifted down, and `RoundingDivideByPOT(h, R)`
/// is `(h + 2^(R-1) + (h >> 31)) >> R` for `R ≥ 1` (the `h >> 31` is -1 exactly where the
/// reference raises its threshold for negative `h`). A last partial block is computed in a
/// 32-byte copy, so nothing is read or written past `count`. ADD and SUB whose steps are
/// exact but the last take ``binaryQ8RowsAVX2(_:_:_:_:_:_:_:rows:columns:_:)``'s lanes.
@inline(never)
public func binaryQ8AVX2(
    _ a: UnsafeRawPointer, _ strideA: Int, _ b: UnsafeRawPointer, _ strideB: Int,
    _ y: UnsafeMutableRawPointer, count: Int, _ p: BinaryQ8AVX2Parameters
) {
    guard count > 0 else { return }
    if p.ties16 != nil {
        return binaryQ8RowsAVX2(a, strideA, 0, b, strideB, 0, y, rows: 1, columns: count, p)
    }
    // A broadcast operand (stride 0) is read from 32 copies of its code, so every block
    // loads 32 bytes from each operand the same way.
    var splatA = SIMD32<UInt8>(repeating: a.load(as: UInt8.self))
    var splatB = SIMD32<UInt8>(repeating: b.load(as: UInt8.self))
    withUnsafeBytes(of: &splatA) { sa in
        withUnsafeBytes(of: &splatB) { sb in
            guard let fixedA = sa.baseAddress, let fixedB = sb.baseAddress else { return }
            let pa = strideA == 0 ? fixedA : a, pb = strideB == 0 ? fixedB : b
            let ia = strideA == 0 ? 0 : 1, ib = strideB == 0 ? 0 : 1
            switch (p.operation, p.signed) {
            case (.add, true): runLoop(pa, ia, pb, ib, y, count, p, AddLanes.self, SignedBytes.self)
            case (.add, false): runLoop(pa, ia, pb, ib, y, count, p, AddLanes.self, UnsignedBytes.self)
            case (.subtract, true): runLoop(pa, ia, pb, ib, y, count, p, SubtractLanes.self, SignedBytes.self)
            case (.subtract, false): runLoop(pa, ia, pb, ib, y, count, p, SubtractLanes.self, UnsignedBytes.self)
            case (.multiply, true): runLoop(pa, ia, pb, ib, y, count, p, MultiplyLanes.self, SignedBytes.self)
            case (.multiply, false): runLoop(pa, ia, pb, ib, y, count, p, MultiplyLanes.self, UnsignedBytes.self)
            case (.squaredDifference, true):
                runLoop(pa, ia, pb, ib, y, count, p, SquaredDifferenceLanes.self, SignedBytes.self)
            case (.squaredDifference, false):
                runLoop(pa, ia, pb, ib, y, count, p, SquaredDifferenceLanes.self, UnsignedBytes.self)
            }
        }
    }
}

/// Codes widened to sixteen `Int16` or eight `Int32` lanes.
protocol ByteWidening {
    static var signed: Bool { get }
    static func widen16(_ bytes: __m128i) -> __m256i
    static func widen32(_ bytes: __m128i) -> __m256i
}

enum SignedBytes: ByteWidening {
    static var signed: Bool { true }
    @inline(__always) static func widen16(_ bytes: __m128i) -> __m256i { _mm256_cvtepi8_epi16(bytes) }
    @inline(__always) static func widen32(_ bytes: __m128i) -> __m256i { _mm256_cvtepi8_epi32(bytes) }
}

enum UnsignedBytes: ByteWidening {
    static var signed: Bool { false }
    @inline(__always) static func widen16(_ bytes: __m128i) -> __m256i { _mm256_cvtepu8_epi16(bytes) }
    @inline(__always) static func widen32(_ bytes: __m128i) -> __m256i { _mm256_cvtepu8_epi32(bytes) }
}

/// The lane arithmetic of one operation, before the output rescale's rounding division.
private protocol BinaryLanes {
    static func combine(_ a: __m256i, _ b: __m256i, _ k: BinaryConstants8) -> __m256i
    /// The operation is `y = round(α·a + β·b + γ)` away from ties (ADD, SUB).
    static var affine: Bool { get }
}

extension BinaryLanes {
    static var affine: Bool { false }
}

private struct BinaryConstants8 {
    let rescaleA: InputRescale8, rescaleB: InputRescale8, output: UniformRequantize8
    let za: __m256i, zb: __m256i
}

private enum AddLanes: BinaryLanes {
    static var affine: Bool { true }
    @inline(__always) static func combine(_ a: __m256i, _ b: __m256i, _ k: BinaryConstants8) -> __m256i {
        k.output.apply(_mm256_add_epi32(k.rescaleA.scaled(a), k.rescaleB.scaled(b)))
    }
}

private enum SubtractLanes: BinaryLanes {
    static var affine: Bool { true }
    @inline(__always) static func combine(_ a: __m256i, _ b: __m256i, _ k: BinaryConstants8) -> __m256i {
        k.output.apply(_mm256_sub_epi32(k.rescaleA.scaled(a), k.rescaleB.scaled(b)))
    }
}

private enum MultiplyLanes: BinaryLanes {
    @inline(__always) static func combine(_ a: __m256i, _ b: __m256i, _ k: BinaryConstants8) -> __m256i {
        k.output.apply(_mm256_mullo_epi32(_mm256_sub_epi32(a, k.za), _mm256_sub_epi32(b, k.zb)))
    }
}

private enum SquaredDifferenceLanes: BinaryLanes {
    @inline(__always) static func combine(_ a: __m256i, _ b: __m256i, _ k: BinaryConstants8) -> __m256i {
        let d = _mm256_sub_epi32(k.rescaleA.scaled(a), k.rescaleB.scaled(b))
        return k.output.apply(_mm256_mullo_epi32(d, d))
    }
}

@inline(__always)
private func runLoop<Op: BinaryLanes, Codes: ByteWidening>(
    _ a: UnsafeRawPointer, _ strideA: Int, _ b: UnsafeRawPointer, _ strideB: Int,
    _ y: UnsafeMutableRawPointer, _ count: Int, _ p: BinaryQ8AVX2Parameters, _: Op.Type, _: Codes.Type
) {
    let k = BinaryConstants8(
        rescaleA: InputRescale8(p.inputA, zero: p.zeroA), rescaleB: InputRescale8(p.inputB, zero: p.zeroB),
        output: UniformRequantize8(mantissa: p.mantissaY, left: p.leftY, right: p.rightY),
        za: _mm256_set1_epi32(p.zeroA), zb: _mm256_set1_epi32(p.zeroB))
    let store = CodeStore8(
        zeroPoint: p.zeroY, lower: p.lower, upper: p.upper, signed: Codes.signed, bounded: p.rightY >= 1)
    @inline(__always) func codes(_ q: UnsafeRawPointer, _ offset: Int) -> __m256i {
        Codes.widen32(_mm_loadl_epi64((q + offset).assumingMemoryBound(to: __m128i.self)))
    }
    @inline(__always) func block(_ pa: UnsafeRawPointer, _ pb: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
        let v0 = Op.combine(codes(pa, 0), codes(pb, 0), k), v1 = Op.combine(codes(pa, 8), codes(pb, 8), k)
        let v2 = Op.combine(codes(pa, 16), codes(pb, 16), k), v3 = Op.combine(codes(pa, 24), codes(pb, 24), k)
        out.storeBytes(of: store.codes(v0, v1, v2, v3), as: __m256i.self)
    }
    var i = 0
    if Op.affine, let (alpha, beta, gamma, nearHalf) = p.affine {
        // `n = round(α·a + β·b + γ)` to nearest even: the reference's code unless the sum
        // lies within the slack of a half (the last rounding could then go either way),
        // in which case the block is recomputed exactly.
        let va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta), vg = _mm256_set1_ps(gamma)
        let threshold = _mm256_set1_epi32(nearHalf), magnitude = _mm256_set1_epi32(0x7FFF_FFFF)
        @inline(__always) func approximate(_ pa: UnsafeRawPointer, _ pb: UnsafeRawPointer, _ o: Int)
            -> (__m256i, __m256i)
        {
            let fa = _mm256_cvtepi32_ps(codes(pa, o)), fb = _mm256_cvtepi32_ps(codes(pb, o))
            let v = _mm256_fmadd_ps(fa, va, _mm256_fmadd_ps(fb, vb, vg))
            let n = _mm256_cvtps_epi32(v)
            let d = _mm256_and_si256(_mm256_castps_si256(_mm256_sub_ps(v, _mm256_cvtepi32_ps(n))), magnitude)
            return (n, _mm256_cmpgt_epi32(d, threshold))
        }
        let rounded = CodeStore8(zeroPoint: 0, lower: p.lower, upper: p.upper, signed: Codes.signed, bounded: false)
        if p.exactTies {
            // The sum is the reference's exact value: ties (d = ±0.5) round away from zero
            // of the value before the zero point is added, n - z_y ≥ 0 or ≤ 0.
            let zy = _mm256_set1_epi32(p.zeroY), one = _mm256_set1_epi32(1)
            let up = _mm256_set1_ps(0.5), down = _mm256_set1_ps(-0.5)
            @inline(__always) func exactRounding(_ pa: UnsafeRawPointer, _ pb: UnsafeRawPointer, _ o: Int) -> __m256i {
                let fa = _mm256_cvtepi32_ps(codes(pa, o)), fb = _mm256_cvtepi32_ps(codes(pb, o))
                let v = _mm256_fmadd_ps(fa, va, _mm256_fmadd_ps(fb, vb, vg))
                let n = _mm256_cvtps_epi32(v)
                let d = _mm256_castps_si256(_mm256_sub_ps(v, _mm256_cvtepi32_ps(n)))
                let centered = _mm256_sub_epi32(n, zy)
                let raise = _mm256_and_si256(
                    _mm256_cmpeq_epi32(d, _mm256_castps_si256(up)), _mm256_cmpgt_epi32(centered, _mm256_set1_epi32(-1)))
                let lower = _mm256_and_si256(
                    _mm256_cmpeq_epi32(d, _mm256_castps_si256(down)), _mm256_cmpgt_epi32(one, centered))
                return _mm256_add_epi32(_mm256_sub_epi32(n, raise), lower)
            }
            while i + 32 <= count {
                let pa = a + i * strideA, pb = b + i * strideB
                let codes = rounded.codes(
                    exactRounding(pa, pb, 0), exactRounding(pa, pb, 8), exactRounding(pa, pb, 16),
                    exactRounding(pa, pb, 24))
                (y + i).storeBytes(of: codes, as: __m256i.self)
                i += 32
            }
        }
        while i + 32 <= count {
            let pa = a + i * strideA, pb = b + i * strideB
            let (n0, f0) = approximate(pa, pb, 0), (n1, f1) = approximate(pa, pb, 8)
            let (n2, f2) = approximate(pa, pb, 16), (n3, f3) = approximate(pa, pb, 24)
            let flags = _mm256_or_si256(_mm256_or_si256(f0, f1), _mm256_or_si256(f2, f3))
            if _mm256_testz_si256(flags, flags) != 0 {
                (y + i).storeBytes(of: rounded.codes(n0, n1, n2, n3), as: __m256i.self)
            } else {
                block(pa, pb, y + i)
            }
            i += 32
        }
    }
    while i + 32 <= count {
        block(a + i * strideA, b + i * strideB, y + i)
        i += 32
    }
    if i < count {
        let rest = count - i
        var bufferA = SIMD32<UInt8>(), bufferB = SIMD32<UInt8>(), bufferY = SIMD32<UInt8>()
        withUnsafeMutableBytes(of: &bufferA) { ba in
            withUnsafeMutableBytes(of: &bufferB) { bb in
                withUnsafeMutableBytes(of: &bufferY) { by in
                    guard let pa = ba.baseAddress, let pb = bb.baseAddress, let py = by.baseAddress else { return }
                    pa.copyMemory(from: a + i * strideA, byteCount: strideA == 0 ? 32 : rest)
                    pb.copyMemory(from: b + i * strideB, byteCount: strideB == 0 ? 32 : rest)
                    block(pa, pb, py)
                    (y + i).copyMemory(from: py, byteCount: rest)
                }
            }
        }
    }
}

/// ``InputRescaleConstants`` in eight lanes.
struct InputRescale8 {
    let zero: __m256i, high: __m256i, low: __m256i, nudge: __m256i, lowShift: __m128i, highShift: __m128i
    let half: __m256i, shift: __m128i, rounds: Bool, shiftsHigh: Bool

    @inline(__always)
    init(_ c: InputRescaleConstants, zero z: Int32) {
        zero = _mm256_set1_epi32(z)
        high = _mm256_set1_epi32(c.high)
        low = _mm256_set1_epi32(c.low)
        nudge = _mm256_set1_epi32(c.nudge)
        lowShift = _mm_cvtsi32_si128(c.lowShift)
        highShift = _mm_cvtsi32_si128(c.highShift)
        shiftsHigh = c.highShift > 0
        half = _mm256_set1_epi32(c.right >= 1 ? 1 << (c.right - 1) : 0)
        shift = _mm_cvtsi32_si128(c.right)
        rounds = c.right >= 1
    }

    @inline(__always)
    func scaled(_ x: __m256i) -> __m256i {
        let d = _mm256_sub_epi32(x, zero)
        let lowPart = _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(d, low), nudge), lowShift)
        var h = _mm256_add_epi32(_mm256_mullo_epi32(d, high), lowPart)
        if shiftsHigh { h = _mm256_sra_epi32(h, highShift) }
        guard rounds else { return h }
        return _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(h, half), _mm256_srai_epi32(h, 31)), shift)
    }
}

/// `MBQM(s, M·2^(left - right))` for one multiplier in every lane (`M ≥ 0`, `left` or
/// `right` zero): `s << left` wrapping, the high product `(s·M + 2^30) >> 31` from `vpmuldq`
/// (even lanes, then the odd lanes shifted down: bits 31...62 of a product below 2^62 in
/// magnitude, so logical shifts give the arithmetic result's low 32 bits), then the
/// rounding division.
struct UniformRequantize8 {
    let m: __m256i, nudge: __m256i, oddLanes: __m256i, half: __m256i
    let left: __m128i, right: __m128i, shiftsLeft: Bool, rounds: Bool

    @inline(__always)
    init(mantissa: Int32, left l: Int32, right r: Int32) {
        m = _mm256_set1_epi32(mantissa)
        nudge = _mm256_set1_epi64x(1 << 30)
        oddLanes = _mm256_set1_epi64x(-0x1_0000_0000)
        half = _mm256_set1_epi32(r >= 1 ? 1 << (r - 1) : 0)
        left = _mm_cvtsi32_si128(l)
        right = _mm_cvtsi32_si128(r)
        shiftsLeft = l > 0
        rounds = r >= 1
    }

    @inline(__always)
    func apply(_ x: __m256i) -> __m256i {
        let s = shiftsLeft ? _mm256_sll_epi32(x, left) : x
        let even = _mm256_add_epi64(_mm256_mul_epi32(s, m), nudge)
        let odd = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(s, 32), m), nudge)
        let h = _mm256_blendv_epi8(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), oddLanes)
        guard rounds else { return h }
        return _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(h, half), _mm256_srai_epi32(h, 31)), right)
    }
}

/// `clamp(r + zp, lower, upper)` for 32 lanes (four vectors of eight), narrowed to bytes in
/// order. The clamp is done on `r` against `lower - zp` and `upper - zp` (no overflow).
/// When `[lower, upper]` is the whole type and `|r| ≤ 2^30` (`r` came out of a rounding
/// division by 2 or more, `bounded`), `r + zp` cannot wrap and the packs' signed (then
/// signed or unsigned) saturation is the clamp, so the min/max are skipped.
struct CodeStore8 {
    let lo: __m256i, hi: __m256i, zp: __m256i, order: __m256i
    let saturates: Bool, signed: Bool

    @inline(__always)
    init(zeroPoint: Int32, lower: Int32, upper: Int32, signed: Bool, bounded: Bool) {
        lo = _mm256_set1_epi32(lower &- zeroPoint)
        hi = _mm256_set1_epi32(upper &- zeroPoint)
        zp = _mm256_set1_epi32(zeroPoint)
        order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)
        self.signed = signed
        saturates = bounded && (signed ? (lower == -128 && upper == 127) : (lower == 0 && upper == 255))
    }

    @inline(__always)
    func codes(_ v0: __m256i, _ v1: __m256i, _ v2: __m256i, _ v3: __m256i) -> __m256i {
        @inline(__always) func finish(_ r: __m256i) -> __m256i {
            if saturates { return _mm256_add_epi32(r, zp) }
            return _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(r, lo), hi), zp)
        }
        let words01 = _mm256_packs_epi32(finish(v0), finish(v1))
        let words23 = _mm256_packs_epi32(finish(v2), finish(v3))
        let bytes = signed ? _mm256_packs_epi16(words01, words23) : _mm256_packus_epi16(words01, words23)
        return _mm256_permutevar8x32_epi32(bytes, order)
    }
}
/// The upper 128 bits of `v` (`vextracti128 $1`, whose immediate form Swift does not import).
@inline(__always)
func upper128(_ v: __m256i) -> __m128i { unsafeBitCast(v, to: (__m128i, __m128i).self).1 }
#endif
