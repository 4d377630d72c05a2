#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The constants of ``addQ8AVX512(_:_:_:count:_:)``: TFLite's 8-bit ADD (or SUB) with
/// per-tensor parameters.
public struct AddQ8AVX512Parameters: Sendable {
    let signed: Bool, subtract: Bool
    let zeroA: Int32, highA: Int32, lowA: Int32, shiftA: Int32
    let zeroB: Int32, highB: Int32, lowB: Int32, shiftB: Int32
    let mantissaY: Int32, shiftY: Int32, zeroY: Int32, lower: Int32, upper: Int32

    /// The parameters when the kernel takes them, else nil: input multipliers `(mA, eA)`,
    /// `(mB, eB)` and output multiplier `(mY, eY)` below one (`m ∈ [0, 2^31)`,
    /// `e ∈ -31...0`), as TFLite's quantized ADD makes them.
    public init?(
        signed: Bool, subtract: Bool, zeroA: Int32, mantissaA: Int32, exponentA: Int, zeroB: Int32,
        mantissaB: Int32, exponentB: Int, mantissaY: Int32, exponentY: Int, zeroY: Int32, lower: Int32,
        upper: Int32
    ) {
        guard mantissaA >= 0, mantissaB >= 0, mantissaY >= 0,
            [exponentA, exponentB, exponentY].allSatisfy({ (-31 ... 0).contains($0) }),
            (-255 ... 255).contains(zeroA), (-255 ... 255).contains(zeroB)
        else { return nil }
        self.signed = signed
        self.subtract = subtract
        (self.zeroA, highA, lowA, shiftA) = (zeroA, mantissaA >> 11, mantissaA & 2047, Int32(-exponentA))
        (self.zeroB, highB, lowB, shiftB) = (zeroB, mantissaB >> 11, mantissaB & 2047, Int32(-exponentB))
        self.mantissaY = mantissaY
        shiftY = Int32(-exponentY)
        self.zeroY = zeroY
        self.lower = lower
        self.upper = upper
    }
}

/// TFLite's 8-bit ADD (SUB with `subtract`) over `count` contiguous codes, sixteen lanes a
/// step, bit-exact with the reference:
///
///     s_a = MBQM((a - z_a) · 2^20, M_a, e_a)      (likewise s_b)
///     y   = clamp(MBQM(s_a ± s_b, M_y, e_y) + z_y, lower, upper)
///
/// where `MBQM(v, M, e) = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(v, M), -e)`.
/// For the inputs, `(a - z_a)·2^20·M` is a multiple of 2^20, so the high product is
/// `floor(((a - z_a)·M + 2^10) / 2^11)`, and with `M = M_h·2^11 + M_l` that is
/// `(a - z_a)·M_h + (((a - z_a)·M_l + 2^10) >> 11)`: two 32-bit `vpmulld`, every term below
/// 2^28, no 64-bit product. `RoundingDivideByPOT(h, R)` is `(h + 2^(R-1) + (h >> 31)) >> R`
/// for `R ≥ 1` (the `h >> 31` is -1 exactly where the reference raises its threshold for
/// negative `h`). The output step is ``requantizeQ31AVX512``'s.
@inline(never)
public func addQ8AVX512(
    _ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int,
    _ p: AddQ8AVX512Parameters
) {
    let saturating = p.lower == -128 && p.upper == 127 && p.shiftY >= 1 && (-128 ... 127).contains(p.zeroY)
    let range = CodeRange16(zp: p.zeroY, lower: p.lower, upper: p.upper, saturating: saturating)
    let output = RequantizeQ31Lanes16(mantissa: p.mantissaY, right: p.shiftY)
    let inputA = InputRescale16(zero: p.zeroA, high: p.highA, low: p.lowA, shift: p.shiftA)
    let inputB = InputRescale16(zero: p.zeroB, high: p.highB, low: p.lowB, shift: p.shiftB)
    @inline(__always) func run(signed: Bool, subtract: Bool, saturating: Bool) {
        var i = 0
        while i < count {
            let k = __mmask16(truncatingIfNeeded: (1 << Swift.min(16, count - i)) - 1)
            @inline(__always) func codes(_ p: UnsafeRawPointer) -> __m512i {
                let bytes = _mm_maskz_loadu_epi8(k, p + i)
                return signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes)
            }
            let sa = inputA.scaled(codes(a)), sb = inputB.scaled(codes(b))
            let sum = subtract ? _mm512_sub_epi32(sa, sb) : _mm512_add_epi32(sa, sb)
            range.store(output.scaled(sum), y + i, k)
            i += 16
        }
    }
    switch (p.signed, p.subtract, saturating) {
    case (true, false, true): run(signed: true, subtract: false, saturating: true)
    case (true, false, false): run(signed: true, subtract: false, saturating: false)
    case (false, false, _): run(signed: false, subtract: false, saturating: false)
    case (true, true, true): run(signed: true, subtract: true, saturating: true)
    case (true, true, false): run(signed: true, subtract: true, saturating: false)
    case (false, true, _): run(signed: false, subtract: true, saturating: false)
    }
}

/// One input's `MBQM((x - z)·2^20, M, -R)` in 32-bit lanes (see ``addQ8AVX512(_:_:_:count:_:)``).
private struct InputRescale16 {
    let zero: __m512i, high: __m512i, low: __m512i, half: __m512i, shift: __m512i, rounds: Bool

    @inline(__always)
    init(zero z: Int32, high h: Int32, low l: Int32, shift r: Int32) {
        zero = _mm512_set1_epi32(z)
        high = _mm512_set1_epi32(h)
        low = _mm512_set1_epi32(l)
        half = _mm512_set1_epi32(r >= 1 ? 1 << (r - 1) : 0)
        shift = _mm512_set1_epi32(r)
        rounds = r >= 1
    }

    @inline(__always)
    func scaled(_ x: __m512i) -> __m512i {
        let d = _mm512_sub_epi32(x, zero)
        let lowPart = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(d, low), _mm512_set1_epi32(1 << 10)), 11)
        let h = _mm512_add_epi32(_mm512_mullo_epi32(d, high), lowPart)
        guard rounds else { return h }
        return _mm512_srav_epi32(_mm512_add_epi32(_mm512_add_epi32(h, half), _mm512_srai_epi32(h, 31)), shift)
    }
}
#endif
