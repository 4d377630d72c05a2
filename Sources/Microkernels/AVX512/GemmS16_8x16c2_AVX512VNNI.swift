#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// Exact integer GEMM for AVX-512 VNNI: `C[m×n] = A[m×k] · Bᵀ` in wrapping `Int32`, with
/// the operands in ``GemmS16Layout`` (A: `Int16` rows of even depth `kp`, stride `lda`;
/// B: packed panels of 16 columns), the same contract as the AVX2 level's
/// `gemmS16x4x16c2`.
///
/// One zmm holds a panel's 16 column pairs for one depth pair, so `vpdpwssd` multiplies
/// them by a row's broadcast pair and adds both products into the column's `Int32` lane in
/// one instruction (32 multiply-adds), in blocks of 8 rows (`integerPanels8x16`).
///
/// `vpdpwssd` adds without saturation, so every partial sum wraps exactly like TFLite's
/// `int32` accumulator and the result does not depend on the blocking.
@inline(never)
public func gemmS16x8x16c2AVX512VNNI(
    m: Int, n: Int, kp: Int, a: UnsafePointer<Int16>, lda: Int,
    packedB: UnsafePointer<Int16>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    integerPanels8x16(
        m: m, n: n, steps: kp / 2, a: UnsafeRawPointer(a), rowBytes: 2 * lda, packedB: UnsafeRawPointer(packedB),
        initial: nil, output: Int32PanelRows(c: c, ldc: ldc), dot: _mm512_dpwssd_epi32)
}
#endif
