/// The operand layouts of the exact 8-bit integer GEMM on `vpdpbusd` (AVX-512 VNNI,
/// `gemmU8S8x8x16c4AVX512VNNI`), and of the aarch64 dot-product GEMM on `SDOT`/`UDOT`
/// (`gemmQ8x4x16c4DotProd`), which reads the same byte order:
///
///     C[i, j] = C0[j] + Σ_k A[i, k] · B[j, k]      in wrapping Int32
///
/// - `A`: rows of bytes, row stride `lda`, the depth `k` padded to a multiple of four
///   (``GemmU8S8Layout/paddedDepth(_:)``); the padding's values do not matter, because the
///   weights there are zero.
/// - `B`: bytes packed into panels of ``panelWidth`` output columns. Panel `p` holds, for
///   each quad of depths `(4q ... 4q + 3)`, the 16 columns' four values side by side:
///   `panel[(q · 16 + c) · 4 + r] = B[16p + c, 4q + r]` (64 bytes per quad). Columns past
///   `n` and the padding depths are zeros, so they add nothing.
///
/// That is the form both instructions consume: a row's four bytes `A[i, 4q ... 4q+3]`,
/// broadcast (`vpdpbusd`) or taken as one 32-bit element of a vector (`SDOT` by element),
/// times a vector of column quads gives the four products' sum per column in one `Int32`
/// lane. Each product of two bytes is at most 2^16 in magnitude, so a quad's sum is exact,
/// and the accumulation wraps like TFLite's `int32` accumulator.
///
/// `vpdpbusd` multiplies unsigned rows by signed weights: signed 8-bit activations become
/// unsigned by `x + 128` (`x ^ 0x80`), and the GEMM then sums `Σ (x + 128) · w`, which
/// exceeds TFLite's `Σ (x - zx) · w` by `(128 + zx) · Σ_k w[j, k]`, a constant per column
/// that the caller computes at prepare and passes as `-C0`. `SDOT` and `UDOT` take both
/// operands of one signedness, so the aarch64 levels keep int8 and uint8 codes as they are.
public enum GemmU8S8Layout {
    /// Output columns per packed panel (one 16-lane `Int32` vector).
    public static let panelWidth = 16

    /// `k` rounded up to a multiple of four.
    @inlinable
    public static func paddedDepth(_ k: Int) -> Int { (k + 3) & ~3 }

    /// Bytes of `B` packed for `n` columns of depth `k`, or nil on overflow.
    @inlinable
    public static func packedCount(n: Int, k: Int) -> Int? {
        IntegerPanels.count(n: n, kp: paddedDepth(k), width: panelWidth)
    }

    /// Packs `B[j, k] = value(j, k)` for `n` columns of depth `k` into `out`
    /// (``packedCount(n:k:)`` bytes).
    @inlinable
    public static func pack(n: Int, k: Int, into out: UnsafeMutablePointer<Int8>, value: (Int, Int) -> Int8) {
        IntegerPanels.pack(n: n, k: k, kp: paddedDepth(k), width: panelWidth, group: 4, into: out, value: value)
    }
}

/// The packed right operand of the 8-bit matrix-multiply GEMM (`SMMLA`/`UMMLA`, the
/// aarch64 `i8mm` level's `gemmQ8x4x16c8I8MM`):
///
///     C[i, j] = C0[j] + Σ_k A[i, k] · B[j, k]      in wrapping Int32
///
/// with `A` rows of bytes padded to a multiple of eight (``paddedDepth(_:)``) and `B` in
/// panels of ``panelWidth`` columns holding, for each group of eight depths, the 16
/// columns' eight bytes side by side: `panel[(q · 16 + c) · 8 + r] = B[16p + c, 8q + r]`
/// (128 bytes per group), zeros past `n` and `k`. Sixteen consecutive bytes are then two
/// columns' eight depths, the 2×8 operand an `SMMLA` multiplies by two rows' eight depths
/// (another 2×8 block) into a 2×2 block of `Int32` sums.
public enum GemmQ8C8Layout {
    /// Output columns per packed panel (eight pairs of columns).
    public static let panelWidth = 16

    /// `k` rounded up to a multiple of eight.
    @inlinable
    public static func paddedDepth(_ k: Int) -> Int { (k + 7) & ~7 }

    /// Bytes of `B` packed for `n` columns of depth `k`, or nil on overflow.
    @inlinable
    public static func packedCount(n: Int, k: Int) -> Int? {
        IntegerPanels.count(n: n, kp: paddedDepth(k), width: panelWidth)
    }

    /// Packs `B[j, k] = value(j, k)` for `n` columns of depth `k` into `out`
    /// (``packedCount(n:k:)`` bytes).
    @inlinable
    public static func pack(n: Int, k: Int, into out: UnsafeMutablePointer<Int8>, value: (Int, Int) -> Int8) {
        IntegerPanels.pack(n: n, k: k, kp: paddedDepth(k), width: panelWidth, group: 8, into: out, value: value)
    }
}
