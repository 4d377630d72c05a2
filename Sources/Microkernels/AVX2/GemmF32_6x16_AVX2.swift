#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// Float GEMM with the convolution epilogue fused, for x86-64-v3 (AVX2 + FMA):
///
///     C[i, j] = clamp(bias[j] + Σ_k A[i, k] · B[k, j], lower, upper)
///
/// The clamp is `vminps(upper, vmaxps(lower, v))`: with the value second, a NaN passes
/// through both (the instructions return their second operand when either is NaN), as
/// TFLite's `std::min(std::max(v, lower), upper)` lets it through.
///
/// summed in `k` order from the bias, one FMA per term. `A` is row-major (`lda` floats
/// apart), `B` packed by ``GemmF32Layout`` (panels of 16 columns, bias first).
///
/// A block of 6 rows × 16 columns keeps twelve 8-lane accumulators; each depth step loads
/// the panel's 16 values (two ymm) once and, per row, broadcasts `A[i, k]` into two FMAs:
/// 12 FMAs for 2 loads and 6 broadcasts, which keeps both FMA pipes busy. Rows are cut
/// into stripes of ``stripeRows`` so that a stripe of `A` stays in L2 while every panel
/// passes over it; the rows left after the blocks of 6 run one at a time, and a last panel
/// of at most 8 columns computes only its lower half. Each output is
/// computed by the same operations whatever `m`, the
/// stripe or the caller's split, so results do not depend on the thread count.
@inline(never)
public func gemmF32x6x16AVX2(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
    packedB: UnsafePointer<Float>, lower: Float, upper: Float,
    c: UnsafeMutablePointer<Float>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    let panels = (n + 15) / 16
    let panelStride = GemmF32Layout.panelCount(k: k)
    let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
    var i0 = 0
    while i0 < m {
        let stripeEnd = Swift.min(m, i0 + stripeRows)
        for p in 0 ..< panels {
            let panel = UnsafeRawPointer(packedB + p * panelStride)
            let j0 = p * 16, width = Swift.min(16, n - j0)
            let bias0 = panel.loadUnaligned(as: SIMD8<Float>.self)
            let bias1 = panel.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
            let weights = panel + 64
            @inline(__always) func store(_ v0: SIMD8<Float>, _ v1: SIMD8<Float>, row i: Int) {
                let out = UnsafeMutableRawPointer(c + i * ldc + j0)
                // vmaxps/vminps: the generic SIMD min/max are out-of-line calls.
                let y0 = _mm256_min_ps(hi, _mm256_max_ps(lo, v0)), y1 = _mm256_min_ps(hi, _mm256_max_ps(lo, v1))
                if width == 16 {
                    out.storeBytes(of: y0, as: SIMD8<Float>.self)
                    out.storeBytes(of: y1, toByteOffset: 32, as: SIMD8<Float>.self)
                } else if width == 8 {
                    out.storeBytes(of: y0, as: SIMD8<Float>.self)
                } else {
                    let both = SIMD16<Float>(lowHalf: y0, highHalf: y1)
                    for j in 0 ..< width { out.storeBytes(of: both[j], toByteOffset: 4 * j, as: Float.self) }
                }
            }
            var i = i0
            if width <= 8 {
                // A last panel of at most 8 columns: its upper half is padding, so only
                // the lower accumulators are computed (the same FMAs for the real columns).
                while i + 6 <= stripeEnd {
                    let r0 = a + i * lda, r1 = r0 + lda, r2 = r1 + lda, r3 = r2 + lda, r4 = r3 + lda, r5 = r4 + lda
                    var c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0, c4 = bias0, c5 = bias0
                    for d in 0 ..< k {
                        let b0 = weights.loadUnaligned(fromByteOffset: d * 64, as: SIMD8<Float>.self)
                        c0.addProduct(SIMD8<Float>(repeating: r0[d]), b0)
                        c1.addProduct(SIMD8<Float>(repeating: r1[d]), b0)
                        c2.addProduct(SIMD8<Float>(repeating: r2[d]), b0)
                        c3.addProduct(SIMD8<Float>(repeating: r3[d]), b0)
                        c4.addProduct(SIMD8<Float>(repeating: r4[d]), b0)
                        c5.addProduct(SIMD8<Float>(repeating: r5[d]), b0)
                    }
                    store(c0, bias1, row: i)
                    store(c1, bias1, row: i + 1)
                    store(c2, bias1, row: i + 2)
                    store(c3, bias1, row: i + 3)
                    store(c4, bias1, row: i + 4)
                    store(c5, bias1, row: i + 5)
                    i += 6
                }
            }
            while i + 6 <= stripeEnd {
                let r0 = a + i * lda, r1 = r0 + lda, r2 = r1 + lda, r3 = r2 + lda, r4 = r3 + lda, r5 = r4 + lda
                var c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1
                var c30 = bias0, c31 = bias1, c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1
                for d in 0 ..< k {
                    let b0 = weights.loadUnaligned(fromByteOffset: d * 64, as: SIMD8<Float>.self)
                    let b1 = weights.loadUnaligned(fromByteOffset: d * 64 + 32, as: SIMD8<Float>.self)
                    var x = SIMD8<Float>(repeating: r0[d])
                    c00.addProduct(x, b0); c01.addProduct(x, b1)
                    x = SIMD8<Float>(repeating: r1[d])
                    c10.addProduct(x, b0); c11.addProduct(x, b1)
                    x = SIMD8<Float>(repeating: r2[d])
                    c20.addProduct(x, b0); c21.addProduct(x, b1)
                    x = SIMD8<Float>(repeating: r3[d])
                    c30.addProduct(x, b0); c31.addProduct(x, b1)
                    x = SIMD8<Float>(repeating: r4[d])
                    c40.addProduct(x, b0); c41.addProduct(x, b1)
                    x = SIMD8<Float>(repeating: r5[d])
                    c50.addProduct(x, b0); c51.addProduct(x, b1)
                }
                store(c00, c01, row: i)
                store(c10, c11, row: i + 1)
                store(c20, c21, row: i + 2)
                store(c30, c31, row: i + 3)
                store(c40, c41, row: i + 4)
                store(c50, c51, row: i + 5)
                i += 6
            }
            // The last rows one at a time: the same FMAs in the same order per output as
            // in a block of 6, without computing rows that would be dropped (a classifier's
            // single row would otherwise cost six).
            while i < stripeEnd {
                let r0 = a + i * lda
                var c00 = bias0, c01 = bias1
                for d in 0 ..< k {
                    let x = SIMD8<Float>(repeating: r0[d])
                    c00.addProduct(x, weights.loadUnaligned(fromByteOffset: d * 64, as: SIMD8<Float>.self))
                    c01.addProduct(x, weights.loadUnaligned(fromByteOffset: d * 64 + 32, as: SIMD8<Float>.self))
                }
                store(c00, c01, row: i)
                i += 1
            }
        }
        i0 = stripeEnd
    }
}

/// Rows of `A` per stripe (a multiple of the block's 6 rows).
private let stripeRows = 96
#endif
