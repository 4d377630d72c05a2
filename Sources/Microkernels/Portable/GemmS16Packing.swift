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
        IntegerPanels.count(n: n, kp: paddedDepth(k), width: panelWidth)
    }

    /// Packs `B[j, k] = value(j, k)` for `n` columns of depth `k` into `out`
    /// (``packedCount(n:k:)`` elements).
    @inlinable
    public static func pack(n: Int, k: Int, into out: UnsafeMutablePointer<Int16>, value: (Int, Int) -> Int16) {
        IntegerPanels.pack(n: n, k: k, kp: paddedDepth(k), width: panelWidth, group: 2, into: out, value: value)
    }
}

/// The panel order both integer GEMM layouts share (``GemmS16Layout``: pairs of depths,
/// ``GemmU8S8Layout``: quads): per panel of `width` columns, per `group` consecutive depths,
/// each column's `group` values side by side, so that one broadcast of a row's `group`
/// values meets every column of the panel.
public enum IntegerPanels {
    /// Elements of `n` columns packed at padded depth `kp`, or nil on overflow.
    @inlinable
    public static func count(n: Int, kp: Int, width: Int) -> Int? {
        let panels = (n + width - 1) / width
        let (a, o1) = panels.multipliedReportingOverflow(by: width)
        let (b, o2) = a.multipliedReportingOverflow(by: kp)
        return o1 || o2 ? nil : b
    }

    /// `panel[(q · width + c) · group + r] = value(width · p + c, group · q + r)`, zero
    /// past `n` columns and `k` depths.
    @inlinable
    public static func pack<E: FixedWidthInteger>(
        n: Int, k: Int, kp: Int, width: Int, group: Int, into out: UnsafeMutablePointer<E>,
        value: (Int, Int) -> E
    ) {
        let panels = (n + width - 1) / width
        for p in 0 ..< panels {
            let panel = out + p * width * kp
            for q in 0 ..< kp / group {
                for c in 0 ..< width {
                    let j = p * width + c
                    for r in 0 ..< group {
                        let d = group * q + r
                        panel[(q * width + c) * group + r] = j < n && d < k ? value(j, d) : 0
                    }
                }
            }
        }
    }
}
