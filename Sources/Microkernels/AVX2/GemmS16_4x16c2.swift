#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// Exact integer GEMM for x86-64-v3: `C[m×n] = A[m×k] · Bᵀ` in wrapping `Int32`, with the
/// operands in ``GemmS16Layout`` (A: `Int16` rows of even depth `kp`, stride `lda`;
/// B: packed panels of 16 columns).
///
/// A block of 4 rows × 16 columns keeps eight `Int32` accumulators (two ymm per row). Each
/// depth pair loads the panel's 16 column pairs once (two ymm) and, per row, broadcasts
/// the row's pair and multiplies with `vpmaddwd`: 8 × 16 multiply-adds per pair and block
/// for two loads, four broadcasts, eight `vpmaddwd` and eight `vpaddd`. Rows are the inner
/// loop so a panel (`kp · 64` bytes) stays in L1 while the rows stream past it. A short
/// last block repeats its last row (the repeats are computed and dropped); the last panel
/// is written through a 16-wide temporary when `n` is not a multiple of 16.
///
/// Every partial sum wraps exactly as TFLite's `int32` accumulator, so the result does not
/// depend on the blocking.
@inline(never)
public func gemmS16x4x16c2(
    m: Int, n: Int, kp: Int, a: UnsafePointer<Int16>, lda: Int,
    packedB: UnsafePointer<Int16>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    let pairs = kp / 2
    let panels = (n + 15) / 16
    for p in 0 ..< panels {
        let panel = UnsafeRawPointer(packedB + p * 16 * kp)
        let j0 = p * 16, width = Swift.min(16, n - j0)
        var i = 0
        while i < m {
            let rows = Swift.min(4, m - i)
            let r0 = UnsafeRawPointer(a + i * lda)
            let r1 = rows > 1 ? r0 + 2 * lda : r0
            let r2 = rows > 2 ? r1 + 2 * lda : r1
            let r3 = rows > 3 ? r2 + 2 * lda : r2
            var c00 = _mm256_setzero_si256(), c01 = _mm256_setzero_si256()
            var c10 = _mm256_setzero_si256(), c11 = _mm256_setzero_si256()
            var c20 = _mm256_setzero_si256(), c21 = _mm256_setzero_si256()
            var c30 = _mm256_setzero_si256(), c31 = _mm256_setzero_si256()
            var q = 0
            while q < pairs {
                let b0 = (panel + q * 64).loadUnaligned(as: __m256i.self)
                let b1 = (panel + q * 64 + 32).loadUnaligned(as: __m256i.self)
                let a0 = _mm256_set1_epi32(r0.loadUnaligned(fromByteOffset: 4 * q, as: Int32.self))
                let a1 = _mm256_set1_epi32(r1.loadUnaligned(fromByteOffset: 4 * q, as: Int32.self))
                let a2 = _mm256_set1_epi32(r2.loadUnaligned(fromByteOffset: 4 * q, as: Int32.self))
                let a3 = _mm256_set1_epi32(r3.loadUnaligned(fromByteOffset: 4 * q, as: Int32.self))
                c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(a0, b0))
                c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(a0, b1))
                c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(a1, b0))
                c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(a1, b1))
                c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(a2, b0))
                c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(a2, b1))
                c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(a3, b0))
                c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(a3, b1))
                q += 1
            }
            @inline(__always) func store(_ lo: __m256i, _ hi: __m256i, row r: Int) {
                let out = UnsafeMutableRawPointer(c + (i + r) * ldc + j0)
                if width == 16 {
                    out.storeBytes(of: lo, as: __m256i.self)
                    (out + 32).storeBytes(of: hi, as: __m256i.self)
                } else {
                    let tail = SIMD16<Int32>(
                        lowHalf: unsafeBitCast(lo, to: SIMD8<Int32>.self),
                        highHalf: unsafeBitCast(hi, to: SIMD8<Int32>.self))
                    for j in 0 ..< width { out.storeBytes(of: tail[j], toByteOffset: 4 * j, as: Int32.self) }
                }
            }
            store(c00, c01, row: 0)
            if rows > 1 { store(c10, c11, row: 1) }
            if rows > 2 { store(c20, c21, row: 2) }
            if rows > 3 { store(c30, c31, row: 3) }
            i += rows
        }
    }
}
#endif
