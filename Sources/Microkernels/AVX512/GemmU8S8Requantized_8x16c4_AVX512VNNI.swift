#if arch(x86_64)
import _Builtin_intrinsics.intel

/// ``gemmU8S8x8x16c4AVX512VNNI`` with the requantization in its epilogue: each block of 8
/// rows × 16 columns goes from its accumulators straight to 8-bit codes, by the arithmetic
/// of ``requantizeQ31AVX512`` (TFLite's fixed point, bit-exact), so the `Int32` sums are
/// never stored and read back, and the dot products of one block overlap the integer
/// arithmetic of the last.
///
///     out[i, j] = requantize_j(initial[j] + bias[j] + Σ_k A[i, k] · B[j, k])
///
/// `n` columns, all of them output channels, codes `outStride` bytes apart; the per-channel
/// `mantissa`, `left` and `right` (and `bias`) start at column 0; `saturating` as for
/// ``requantizeQ31AVX512``. Other arguments as for ``gemmU8S8x8x16c4AVX512VNNI``.
@inline(never)
public func gemmU8S8x8x16c4RequantizeQ31AVX512VNNI(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>,
    initial: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?,
    mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool, right: UnsafePointer<Int32>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, saturating: Bool, into out: UnsafeMutableRawPointer,
    outStride: Int
) {
    @inline(__always) func run(shiftsLeft: Bool, saturating: Bool) {
        let codes = Q31CodeRows(
            mantissa: mantissa, left: left, shiftsLeft: shiftsLeft, right: right,
            range: CodeRange16(zp: zp, lower: lower, upper: upper, saturating: saturating), out: out,
            outStride: outStride)
        integerPanels8x16(
            m: m, n: n, steps: kp / 4, a: UnsafeRawPointer(a), rowBytes: lda, packedB: UnsafeRawPointer(packedB),
            initial: initial, bias: bias, output: codes, dot: _mm512_dpbusd_epi32)
    }
    if shiftsLeft {
        run(shiftsLeft: true, saturating: false)
    } else if saturating {
        run(shiftsLeft: false, saturating: true)
    } else {
        run(shiftsLeft: false, saturating: false)
    }
}

/// ``gemmU8S8x8x16c4RequantizeQ31AVX512VNNI`` with ``requantizeF32AVX512``'s arithmetic
/// (the opt-in float32 mode): one `Float` `scale` per column.
@inline(never)
public func gemmU8S8x8x16c4RequantizeF32AVX512VNNI(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>,
    initial: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?, scale: UnsafePointer<Float>,
    outputZeroPoint zp: Int32, lower: Int32, upper: Int32, into out: UnsafeMutableRawPointer, outStride: Int
) {
    let codes = F32CodeRows(
        scale: scale, range: CodeRange16(zp: zp, lower: lower, upper: upper), out: out, outStride: outStride)
    integerPanels8x16(
        m: m, n: n, steps: kp / 4, a: UnsafeRawPointer(a), rowBytes: lda, packedB: UnsafeRawPointer(packedB),
        initial: initial, bias: bias, output: codes, dot: _mm512_dpbusd_epi32)
}

#endif
