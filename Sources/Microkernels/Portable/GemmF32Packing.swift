/// The packed right operand of the float GEMM microkernels with a fused epilogue
/// (`gemmF32x6x16AVX2`, `gemmF32x8x32AVX512`, `gemmF32x8x12NEON`): panels of `width`
/// output columns, each
///
///     [bias of its columns][B[0, w·p ..< w·p + w]][B[1, ...]] ... [B[k-1, ...]]
///
/// (``panelCount(k:width:)`` floats), columns past `n` zero. The bias leads so that a
/// block's accumulators start from it and the sum needs no second pass. The x86-64 levels
/// use panels of ``panelWidth`` (16) columns, the aarch64 levels ``armPanelWidth`` (12):
/// ``panelWidth(for:)`` says which.
public enum GemmF32Layout {
    /// Output columns per panel at the x86-64 levels (two 8-lane vectors at AVX2).
    public static let panelWidth = 16
    /// Output columns per panel at the aarch64 levels (three 4-lane NEON vectors).
    public static let armPanelWidth = 12

    /// The panel width of `level`'s float GEMM.
    @inlinable
    public static func panelWidth(for level: KernelLevel) -> Int {
        level.isAArch64 ? armPanelWidth : panelWidth
    }

    /// Floats of one panel of depth `k`.
    @inlinable
    public static func panelCount(k: Int, width: Int = panelWidth) -> Int { (k + 1) * width }

    /// Floats of the packed operand for `n` columns of depth `k`, or nil on overflow.
    @inlinable
    public static func packedCount(n: Int, k: Int, width: Int = panelWidth) -> Int? {
        let panels = (n + width - 1) / width
        let (perPanel, o1) = (k + 1).multipliedReportingOverflow(by: width)
        let (total, o2) = panels.multipliedReportingOverflow(by: perPanel)
        return o1 || o2 ? nil : total
    }

    /// Packs `B[d, j] = weights[j · k + d]` (rows of an OHWI filter or FULLY_CONNECTED
    /// weights: one output column per row) and `bias[j]` (zeros when nil) into `out`
    /// (``packedCount(n:k:width:)`` floats).
    public static func pack(
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int, width: Int = panelWidth,
        into out: UnsafeMutablePointer<Float>
    ) {
        let panels = (n + width - 1) / width
        let perPanel = panelCount(k: k, width: width)
        out.update(repeating: 0, count: panels * perPanel)
        for j in 0 ..< n {
            let panel = out + (j / width) * perPanel
            let c = j % width
            if let bias { panel[c] = bias[j] }
            let row = weights + j * k
            for d in 0 ..< k { panel[(d + 1) * width + c] = row[d] }
        }
    }
    /// Packs a row-major `B` (`k` rows of `n` columns, `ldb` floats apart: a computed
    /// right operand, BATCH_MATMUL's RHS) with a zero bias into `out`
    /// (``packedCount(n:k:width:)`` floats): each panel row is a copy of a row's
    /// `width` columns.
    public static func pack(
        rows b: UnsafePointer<Float>, ldb: Int, n: Int, k: Int, width: Int = panelWidth,
        into out: UnsafeMutablePointer<Float>
    ) {
        let panels = (n + width - 1) / width
        let perPanel = panelCount(k: k, width: width)
        for p in 0 ..< panels {
            let panel = out + p * perPanel, first = p * width, columns = Swift.min(width, n - first)
            panel.update(repeating: 0, count: width)
            for d in 0 ..< k {
                let row = panel + (d + 1) * width
                row.update(from: b + d * ldb + first, count: columns)
                if columns < width { (row + columns).update(repeating: 0, count: width - columns) }
            }
        }
    }
}
