#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// Exact 8-bit integer GEMM for AVX-512 VNNI:
/// `C[i, j] = C0[j] + Σ_k A[i, k] · B[j, k]` in wrapping `Int32`, with the operands in
/// ``GemmU8S8Layout`` (A: `UInt8` rows of depth `kp`, a multiple of four, stride `lda`;
/// B: `Int8` panels of 16 columns; `C0`: `initial`, one starting value per column, `n` of
/// them).
///
/// One zmm holds a panel's 16 column quads for one depth quad, so `vpdpbusd` multiplies
/// them by a row's broadcast quad (an embedded `{1to16}` broadcast of four bytes) and adds
/// the four products into the column's `Int32` lane: 64 multiply-adds an instruction, twice
/// `vpdpwssd` on 16-bit operands. Blocks of 8 rows (`integerPanels8x16`) start their
/// accumulators from `C0`, so the caller's per-column correction costs nothing.
///
/// `vpdpbusd` (not `vpdpbusds`) adds without saturation, and a quad of `u8 · s8` products
/// is exact in 32 bits, so every partial sum wraps exactly like TFLite's `int32`
/// accumulator and the result does not depend on the blocking.
@inline(never)
public func gemmU8S8x8x16c4AVX512VNNI(
    m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int,
    packedB: UnsafePointer<Int8>, initial: UnsafePointer<Int32>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    integerPanels8x16(
        m: m, n: n, steps: kp / 4, a: UnsafeRawPointer(a), rowBytes: lda, packedB: UnsafeRawPointer(packedB),
        initial: initial, output: Int32PanelRows(c: c, ldc: ldc), dot: _mm512_dpbusd_epi32)
}
#endif
