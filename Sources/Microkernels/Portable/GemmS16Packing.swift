/// The operand layouts of the exact 16-bit integer GEMM microkernels
/// (`gemmS16x4x16c2` in each level's module):
///
///     C[i, j] = Σ_k A[i, k] · B[j, k]      in wrapping Int32
///
/// - `A`: rows of `Int16`, row stride `lda`, the depth `k` padded with zeros to an even
///   ``GemmS16Layout/paddedDepth(_:)``.
/// - `B`: packed into panels of ``panelWidth`` output columns. Panel `p` holds, for each
///   pair of depths `(2q, 2q + 1)`, the 16 columns' two values side by side:
///   `panel[(q · 16 + c) · 2 + r] = B[16p + c, 2q + r]`. Columns past `n` and the padding
///   depth are zeros, so they add nothing.
///
/// That is the form `pmaddwd` consumes: one 32-bit broadcast of `A[i, 2q...2q+1]` times a
/// vector of column pairs gives `A[i,2q]·B[j,2q] + A[i,2q+1]·B[j,2q+1]` per column in one
/// `Int32` lane. For centered 8-bit codes (`|v| ≤ 255`) each pair sum is below 2^17, so
/// the products are exact and the only rounding is TFLite's own: none (wrapping `Int32`).
public enum GemmS16Layout {
    /// Output columns per packed panel (two 8-lane `Int32` vectors at AVX2).
    public static let panelWidth = 16

    /// `k` rounded up to even.
    @inlinable
    public static func paddedDepth(_ k: Int) -> Int { (k + 1) & ~1 }

    /// `Int16` elements of `B` packed for `n` columns of depth `k`, or nil on overflow.
    @inlinable
    public static func packedCount(n: Int, k: Int) -> Int? {
        let panels = (n + panelWidth - 1) / panelWidth
        let (a, o1) = panels.multipliedReportingOverflow(by: panelWidth)
        let (b, o2) = a.multipliedReportingOverflow(by: paddedDepth(k))
        return o1 || o2 ? nil : b
    }

    /// Packs `B[j, k] = value(j, k)` for `n` columns of depth `k` into `out`
    /// (``packedCount(n:k:)`` elements).
    @inlinable
    public static func pack(n: Int, k: Int, into out: UnsafeMutablePointer<Int16>, value: (Int, Int) -> Int16) {
        let kp = paddedDepth(k)
        let panels = (n + panelWidth - 1) / panelWidth
        for p in 0 ..< panels {
            let panel = out + p * panelWidth * kp
            for q in 0 ..< kp / 2 {
                for c in 0 ..< panelWidth {
                    let j = p * panelWidth + c
                    for r in 0 ..< 2 {
                        let d = 2 * q + r
                        panel[(q * panelWidth + c) * 2 + r] = j < n && d < k ? value(j, d) : 0
                    }
                }
            }
        }
    }
}
