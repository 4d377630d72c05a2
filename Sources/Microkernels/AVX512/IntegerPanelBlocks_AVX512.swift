#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The blocking of this level's integer GEMMs (`gemmS16x8x16c2AVX512VNNI`,
/// `gemmU8S8x8x16c4AVX512VNNI`), which differ only in the dot-product instruction and the
/// element width: `C[i, j] = C0[j] + Σ_q dot(A[i, q], B[j, q])` over `steps` 4-byte steps
/// of depth (a pair of `Int16` or a quad of bytes), in wrapping `Int32`.
///
/// One zmm holds a panel's 16 columns for one step (64 bytes; a panel is `steps · 64`
/// bytes), and `dot` adds each column's products with a row's broadcast step into the
/// column's `Int32` lane. A block of 8 rows keeps eight accumulators, which start from
/// `C0` (or zero); a step costs one panel load and eight broadcasts. Rows are the inner
/// loop so the panel stays in L1 while rows stream past it. A short last block repeats its
/// last row (computed and dropped); a last panel narrower than 16 columns is read and
/// stored with a lane mask. `C0[j]` is `initial[j] + bias[j]` (either may be absent).
/// What becomes of a finished row of 16 sums is `output`'s: stored as `Int32`
/// (``Int32PanelRows``) or requantized to codes in registers.
@inline(__always)
func integerPanels8x16<Output: IntegerPanelOutput>(
    m: Int, n: Int, steps: Int, a: UnsafeRawPointer, rowBytes: Int, packedB: UnsafeRawPointer,
    initial: UnsafePointer<Int32>?, bias: UnsafePointer<Int32>? = nil, output: Output,
    dot: (__m512i, __m512i, __m512i) -> __m512i
) {
    guard m > 0, n > 0 else { return }
    let panels = (n + 15) / 16
    for p in 0 ..< panels {
        let panel = packedB + p * 64 * steps
        let j0 = p * 16, width = Swift.min(16, n - j0)
        let mask = __mmask16(truncatingIfNeeded: (1 << width) - 1)
        @inline(__always) func load(_ v: UnsafePointer<Int32>?) -> __m512i {
            v.map { _mm512_maskz_loadu_epi32(mask, UnsafeRawPointer($0 + j0)) } ?? _mm512_setzero_si512()
        }
        let start = _mm512_add_epi32(load(initial), load(bias))
        let columns = output.columns(first: j0, mask: mask)
        var i = 0
        while i < m {
            let rows = Swift.min(8, m - i)
            // Row r of the block, or the block's last row when the block is short.
            let base = a + i * rowBytes
            let r0 = base
            let r1 = base + Swift.min(1, rows - 1) * rowBytes
            let r2 = base + Swift.min(2, rows - 1) * rowBytes
            let r3 = base + Swift.min(3, rows - 1) * rowBytes
            let r4 = base + Swift.min(4, rows - 1) * rowBytes
            let r5 = base + Swift.min(5, rows - 1) * rowBytes
            let r6 = base + Swift.min(6, rows - 1) * rowBytes
            let r7 = base + Swift.min(7, rows - 1) * rowBytes
            var c0 = start, c1 = start, c2 = start, c3 = start
            var c4 = start, c5 = start, c6 = start, c7 = start
            var q = 0
            while q < steps {
                let b = (panel + q * 64).loadUnaligned(as: __m512i.self)
                let o = 4 * q
                c0 = dot(c0, _mm512_set1_epi32(r0.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c1 = dot(c1, _mm512_set1_epi32(r1.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c2 = dot(c2, _mm512_set1_epi32(r2.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c3 = dot(c3, _mm512_set1_epi32(r3.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c4 = dot(c4, _mm512_set1_epi32(r4.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c5 = dot(c5, _mm512_set1_epi32(r5.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c6 = dot(c6, _mm512_set1_epi32(r6.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                c7 = dot(c7, _mm512_set1_epi32(r7.loadUnaligned(fromByteOffset: o, as: Int32.self)), b)
                q += 1
            }
            @inline(__always) func store(_ v: __m512i, row r: Int) { columns.store(v, row: i + r) }
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

/// Where ``integerPanels8x16`` puts its rows: per panel, `columns(first:mask:)` makes what
/// a panel's stores need (once per panel, so per-channel vectors stay in registers over
/// its rows), then each row's 16 sums go to `store(_:row:)`.
protocol IntegerPanelOutput {
    associatedtype Columns: IntegerPanelColumns
    func columns(first: Int, mask: __mmask16) -> Columns
}

/// One panel's store of ``IntegerPanelOutput``.
protocol IntegerPanelColumns {
    func store(_ sums: __m512i, row: Int)
}

/// `Int32` rows `ldc` apart: the plain GEMM's output.
struct Int32PanelRows: IntegerPanelOutput {
    let c: UnsafeMutablePointer<Int32>, ldc: Int

    struct Columns: IntegerPanelColumns {
        let c: UnsafeMutablePointer<Int32>, ldc: Int, mask: __mmask16

        @inline(__always)
        func store(_ sums: __m512i, row: Int) {
            _mm512_mask_storeu_epi32(UnsafeMutableRawPointer(c + row * ldc), mask, sums)
        }
    }

    @inline(__always)
    func columns(first j0: Int, mask: __mmask16) -> Columns { Columns(c: c + j0, ldc: ldc, mask: mask) }
}
#endif
