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
/// one instruction (32 multiply-adds). A block of 8 rows keeps eight accumulators; a depth
/// pair costs one panel load and eight broadcasts. Rows are the inner loop so the panel
/// (`kp · 64` bytes) stays in L1 while rows stream past it. A short last block repeats its
/// last row (computed and dropped); a last panel narrower than 16 columns is stored with a
/// lane mask.
///
/// `vpdpwssd` adds without saturation, so every partial sum wraps exactly like TFLite's
/// `int32` accumulator and the result does not depend on the blocking.
@inline(never)
public func gemmS16x8x16c2AVX512VNNI(
    m: Int, n: Int, kp: Int, a: UnsafePointer<Int16>, lda: Int,
    packedB: UnsafePointer<Int16>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    let pairs = kp / 2
    let panels = (n + 15) / 16
    let rowBytes = 2 * lda
    for p in 0 ..< panels {
        let panel = UnsafeRawPointer(packedB + p * 16 * kp)
        let j0 = p * 16, width = Swift.min(16, n - j0)
        let mask = __mmask16(truncatingIfNeeded: (1 << width) - 1)
        var i = 0
        while i < m {
            let rows = Swift.min(8, m - i)
            // Row r of the block, or the block's last row when the block is short.
            let base = UnsafeRawPointer(a + i * lda)
            let r0 = base
            let r1 = base + Swift.min(1, rows - 1) * rowBytes
            let r2 = base + Swift.min(2, rows - 1) * rowBytes
            let r3 = base + Swift.min(3, rows - 1) * rowBytes
            let r4 = base + Swift.min(4, rows - 1) * rowBytes
            let r5 = base + Swift.min(5, rows - 1) * rowBytes
            let r6 = base + Swift.min(6, rows - 1) * rowBytes
            let r7 = base + Swift.min(7, rows - 1) * rowBytes
            var c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512()
            var c2 = _mm512_setzero_si512(), c3 = _mm512_setzero_si512()
            var c4 = _mm512_setzero_si512(), c5 = _mm512_setzero_si512()
            var c6 = _mm512_setzero_si512(), c7 = _mm512_setzero_si512()
            var q = 0
            while q < pairs {
                let b = (panel + q * 64).loadUnaligned(as: __m512i.self)
                let o = 4 * q
                c0 = _mm512_dpwssd_epi32(c0, _mm512_set1_epi32(r0.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c1 = _mm512_dpwssd_epi32(c1, _mm512_set1_epi32(r1.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c2 = _mm512_dpwssd_epi32(c2, _mm512_set1_epi32(r2.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c3 = _mm512_dpwssd_epi32(c3, _mm512_set1_epi32(r3.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c4 = _mm512_dpwssd_epi32(c4, _mm512_set1_epi32(r4.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c5 = _mm512_dpwssd_epi32(c5, _mm512_set1_epi32(r5.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c6 = _mm512_dpwssd_epi32(c6, _mm512_set1_epi32(r6.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c7 = _mm512_dpwssd_epi32(c7, _mm512_set1_epi32(r7.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                q += 1
            }
            let out = c + i * ldc + j0
            @inline(__always) func store(_ v: __m512i, row r: Int) {
                _mm512_mask_storeu_epi32(UnsafeMutableRawPointer(out + r * ldc), mask, v)
            }
            store(c0, row: 0)
            if rows > 1 { store(c1, row: 1) }
            if rows > 2 { store(c2, row: 2) }
            if rows > 3 { store(c3, row: 3) }
            if rows > 4 { store(c4, row: 4) }
            if rows > 5 { store(c5, row: 5) }
            if rows > 6 { store(c6, row: 6) }
            if rows > 7 { store(c7, row: 7) }
            i += rows
        }
    }
}
#endif
