#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// Float GEMM with the convolution epilogue fused, for AVX-512:
///
///     C[i, j] = clamp(bias[j] + Σ_k A[i, k] · B[k, j], lower, upper)
///
/// summed in `k` order from the bias, one FMA per term: the contract of the AVX2 level's
/// `gemmF32x6x16AVX2`, on the same operands (`A` row-major, `lda` floats apart; `B` packed
/// by ``GemmF32Layout``, so prepare packs the same bytes at both levels).
///
/// One zmm holds one depth of a 16-column panel. A block of 8 rows spans two panels
/// (32 columns): each depth step loads two panel rows and broadcasts each `A[i, k]`
/// straight into its two FMAs (`{1to16}` memory operands), so 16 FMAs cost 2 loads and 8
/// broadcast operands. Sixteen independent accumulators cover the FMA latency at one zmm
/// FMA per cycle, and the block uses half the register file, leaving the broadcasts room.
/// Rows are cut into stripes of ``stripeRows`` so that a stripe of `A` stays in L2 while
/// every panel passes over it. Rows left after the blocks of 8 go in blocks of 4, 2 and 1,
/// and an odd last panel runs alone; a panel narrower than 16 columns is stored through a
/// lane mask. Each output is the same chain of FMAs whichever block computes it, so the
/// results do not depend on `m`, the stripe or the caller's split over threads.
@inline(never)
public func gemmF32x8x32AVX512(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
    packedB: UnsafePointer<Float>, lower: Float, upper: Float,
    c: UnsafeMutablePointer<Float>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    let panels = (n + 15) / 16
    let panelStride = GemmF32Layout.panelCount(k: k)
    let bounds = Bounds(lower: _mm512_set1_ps(lower), upper: _mm512_set1_ps(upper))
    var i0 = 0
    while i0 < m {
        let stripeEnd = Swift.min(m, i0 + stripeRows)
        var p = 0
        while p < panels {
            let pair = p + 1 < panels
            let first = packedB + p * panelStride
            let j0 = p * 16
            let mask0 = laneMask(n - j0), mask1 = laneMask(n - j0 - 16)
            let out = c + j0
            let second = pair ? first + panelStride : first
            let width = pair ? n - j0 - 16 : n - j0
            @inline(__always) func rows<P: Panels>(_ kind: P.Type) {
                rowBlocks(kind, i0, stripeEnd, k, a, lda, first, second, bounds, mask0, mask1, out, ldc)
            }
            if pair {
                if width > 8 { rows(Two.self) } else { rows(OneAndHalf.self) }
            } else {
                if width > 8 { rows(One.self) } else { rows(Half.self) }
            }
            p += pair ? 2 : 1
        }
        i0 = stripeEnd
    }
}

/// Rows `i0 ..< end` against `panels` (a constant at each call): blocks of 8, then at
/// most one each of 4, 2 and 1.
@inline(__always)
private func rowBlocks<P: Panels>(
    _ panels: P.Type, _ i0: Int, _ end: Int, _ k: Int, _ a: UnsafePointer<Float>, _ lda: Int,
    _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ bounds: Bounds,
    _ mask0: __mmask16, _ mask1: __mmask16, _ c: UnsafeMutablePointer<Float>, _ ldc: Int
) {
    var i = i0
    while i + 8 <= end {
        block(8, panels, k, a + i * lda, lda, first, second, bounds, mask0, mask1, c + i * ldc, ldc)
        i += 8
    }
    if end - i >= 4 {
        block(4, panels, k, a + i * lda, lda, first, second, bounds, mask0, mask1, c + i * ldc, ldc)
        i += 4
    }
    if end - i >= 2 {
        block(2, panels, k, a + i * lda, lda, first, second, bounds, mask0, mask1, c + i * ldc, ldc)
        i += 2
    }
    if i < end { block(1, panels, k, a + i * lda, lda, first, second, bounds, mask0, mask1, c + i * ldc, ldc) }
}

/// Rows of `A` per stripe (a multiple of the block's 8 rows).
private let stripeRows = 96

private struct Bounds {
    let lower: SIMD16<Float>, upper: SIMD16<Float>
}

/// The lanes of the first `min(16, max(0, width))` columns.
@inline(__always)
private func laneMask(_ width: Int) -> __mmask16 {
    width >= 16 ? 0xFFFF : width <= 0 ? 0 : __mmask16(truncatingIfNeeded: (1 << width) - 1)
}

/// `rows` (1...8, a constant at each call) rows of `A` times `panels` (1 or 2, constant)
/// panels, stored clamped. Inlined with constants, the tests on `rows` and `panels` fold
/// away and each call site keeps only its own accumulators.
/// Which panels a block computes: two full panels, a full panel and one of at most 8
/// columns, or a single panel, full or of at most 8 columns. A panel of at most 8 columns
/// is computed in ymm: its upper half is padding, and a zmm FMA costs two ymm FMAs' issue
/// slots, so the narrow half is the same FMAs on the real columns at half the cost. Types
/// rather than values, so that each kind is a specialization of its own (a value
/// argument left one copy out of line with the tests inside).
private protocol Panels {
    /// Whether the first panel is full (zmm accumulators).
    static var zFirst: Bool { get }
    /// Whether a full second panel follows (zmm accumulators).
    static var zSecond: Bool { get }
    /// Whether a narrow panel is computed (ymm accumulators): the second one after a full
    /// first, else the only one.
    static var yNarrow: Bool { get }
}
private enum Two: Panels {
    static var zFirst: Bool { true }
    static var zSecond: Bool { true }
    static var yNarrow: Bool { false }
}
private enum OneAndHalf: Panels {
    static var zFirst: Bool { true }
    static var zSecond: Bool { false }
    static var yNarrow: Bool { true }
}
private enum One: Panels {
    static var zFirst: Bool { true }
    static var zSecond: Bool { false }
    static var yNarrow: Bool { false }
}
private enum Half: Panels {
    static var zFirst: Bool { false }
    static var zSecond: Bool { false }
    static var yNarrow: Bool { true }
}

/// `rows` (1...8) rows of `A` times the `panels`' columns, stored clamped. Both are
/// constants at each call: inlined, the tests on them fold away and each call site keeps
/// only its own accumulators.
@inline(__always)
private func block<P: Panels>(
    _ rows: Int, _ panels: P.Type, _ k: Int, _ a: UnsafePointer<Float>, _ lda: Int,
    _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ bounds: Bounds,
    _ mask0: __mmask16, _ mask1: __mmask16, _ c: UnsafeMutablePointer<Float>, _ ldc: Int
) {
    // z: zmm accumulators of the first panel (and of a full second one); y: ymm
    // accumulators of a narrow panel (the first when alone, else the second).
    let zFirst = P.zFirst, zSecond = P.zSecond, yNarrow = P.yNarrow
    let narrow = zFirst ? second : first
    let bias0 = _mm512_loadu_ps(first), bias1 = zSecond ? _mm512_loadu_ps(second) : bias0
    let biasY = _mm256_loadu_ps(narrow)
    let w0 = first + 16, w1 = second + 16, wY = narrow + 16
    let r0 = a, r1 = a + Swift.min(1, rows - 1) * lda, r2 = a + Swift.min(2, rows - 1) * lda
    let r3 = a + Swift.min(3, rows - 1) * lda, r4 = a + Swift.min(4, rows - 1) * lda
    let r5 = a + Swift.min(5, rows - 1) * lda, r6 = a + Swift.min(6, rows - 1) * lda
    let r7 = a + Swift.min(7, rows - 1) * lda
    var c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1, c30 = bias0, c31 = bias1
    var c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1, c60 = bias0, c61 = bias1, c70 = bias0, c71 = bias1
    var y0 = biasY, y1 = biasY, y2 = biasY, y3 = biasY, y4 = biasY, y5 = biasY, y6 = biasY, y7 = biasY
    for d in 0 ..< k {
        let b0 = _mm512_loadu_ps(w0 + d * 16)
        let b1 = zSecond ? _mm512_loadu_ps(w1 + d * 16) : b0
        let bY = _mm256_loadu_ps(wY + d * 16)
        @inline(__always) func step(
            _ r: UnsafePointer<Float>, _ x0: inout SIMD16<Float>, _ x1: inout SIMD16<Float>, _ xy: inout SIMD8<Float>
        ) {
            let v = r[d]
            if zFirst {
                let x = _mm512_set1_ps(v)
                x0 = _mm512_fmadd_ps(x, b0, x0)
                if zSecond { x1 = _mm512_fmadd_ps(x, b1, x1) }
            }
            if yNarrow { xy = _mm256_fmadd_ps(_mm256_set1_ps(v), bY, xy) }
        }
        step(r0, &c00, &c01, &y0)
        if rows > 1 { step(r1, &c10, &c11, &y1) }
        if rows > 2 { step(r2, &c20, &c21, &y2) }
        if rows > 3 { step(r3, &c30, &c31, &y3) }
        if rows > 4 { step(r4, &c40, &c41, &y4) }
        if rows > 5 { step(r5, &c50, &c51, &y5) }
        if rows > 6 { step(r6, &c60, &c61, &y6) }
        if rows > 7 { step(r7, &c70, &c71, &y7) }
    }
    let lowerY = _mm512_castps512_ps256(bounds.lower), upperY = _mm512_castps512_ps256(bounds.upper)
    let maskY = UInt8(truncatingIfNeeded: zFirst ? mask1 : mask0)
    @inline(__always) func store(_ v0: SIMD16<Float>, _ v1: SIMD16<Float>, _ vy: SIMD8<Float>, row r: Int) {
        let o = c + r * ldc
        // vmaxps/vminps: the generic SIMD min/max are out-of-line calls.
        if zFirst { _mm512_mask_storeu_ps(o, mask0, _mm512_min_ps(bounds.upper, _mm512_max_ps(bounds.lower, v0))) }
        if zSecond {
            _mm512_mask_storeu_ps(o + 16, mask1, _mm512_min_ps(bounds.upper, _mm512_max_ps(bounds.lower, v1)))
        }
        if yNarrow {
            _mm256_mask_storeu_ps(
                o + (zFirst ? 16 : 0), maskY, _mm256_min_ps(upperY, _mm256_max_ps(lowerY, vy)))
        }
    }
    store(c00, c01, y0, row: 0)
    if rows > 1 { store(c10, c11, y1, row: 1) }
    if rows > 2 { store(c20, c21, y2, row: 2) }
    if rows > 3 { store(c30, c31, y3, row: 3) }
    if rows > 4 { store(c40, c41, y4, row: 4) }
    if rows > 5 { store(c50, c51, y5, row: 5) }
    if rows > 6 { store(c60, c61, y6, row: 6) }
    if rows > 7 { store(c70, c71, y7, row: 7) }
}
#endif
