/// The operand layouts of the exact 16-bit integer GEMM microkernels
/// (`gemmS16x4x16c2` at `avx2`, `gemmS16x4x16NEON` at `neon`):
///
///     C[i, j] = Σ_k A[i, k] · B[j, k]      in wrapping Int32
///
/// - `A`: rows of `Int16`, row stride `lda`, the depth `k` padded with zeros to an even
///   ``GemmS16Layout/paddedDepth(_:)``.
/// - `B`: packed into panels of ``panelWidth`` output columns. Panel `p` holds, for each
///   group of `g` consecutive depths, the 16 columns' `g` values side by side:
///   `panel[(q · 16 + c) · g + r] = B[16p + c, g·q + r]`. Columns past `n` and the padding
///   depth are zeros, so they add nothing.
///
/// The x86-64 kernels take pairs (`g = 2`), the form `pmaddwd` consumes: one 32-bit
/// broadcast of `A[i, 2q...2q+1]` times a vector of column pairs gives
/// `A[i,2q]·B[j,2q] + A[i,2q+1]·B[j,2q+1]` per column in one `Int32` lane. The NEON kernel
/// takes single depths (`g = 1`): one depth's 16 columns are two vectors, each multiplied
/// by one lane of a row's vector (`SMLAL` by element). For centered 8-bit codes
/// (`|v| ≤ 255`) every product and pair sum is exact, so the only rounding is TFLite's own:
/// none (wrapping `Int32`).
public enum GemmS16Layout {
    /// Output columns per packed panel (two 8-lane `Int32` vectors at AVX2).
    public static let panelWidth = 16

    /// Depths per column group in the panels of `level`'s kernel: 1 at the aarch64 levels,
    /// else 2.
    @inlinable
    public static func depthsPerGroup(for level: KernelLevel) -> Int { level.isAArch64 ? 1 : 2 }

    /// `k` rounded up to even.
    @inlinable
    public static func paddedDepth(_ k: Int) -> Int { (k + 1) & ~1 }

    /// `Int16` elements of `B` packed for `n` columns of depth `k`, or nil on overflow (the
    /// same for either group size).
    @inlinable
    public static func packedCount(n: Int, k: Int) -> Int? {
        IntegerPanels.count(n: n, kp: paddedDepth(k), width: panelWidth)
    }

    /// Packs `B[j, k] = value(j, k)` for `n` columns of depth `k` into `out`
    /// (``packedCount(n:k:)`` elements), `group` depths per column side by side.
    @inlinable
    public static func pack(
        n: Int, k: Int, group: Int = 2, into out: UnsafeMutablePointer<Int16>, value: (Int, Int) -> Int16
    ) {
        IntegerPanels.pack(n: n, k: k, kp: paddedDepth(k), width: panelWidth, group: group, into: out, value: value)
    }
}

/// The panel order the integer GEMM layouts share (``GemmS16Layout``: single depths or
/// pairs, ``GemmU8S8Layout``: quads, ``GemmQ8C8Layout``: eights): per panel of `width`
/// columns, per `group` consecutive depths,
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
