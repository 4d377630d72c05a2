/// The packed right operand of the float GEMM microkernels with a fused epilogue
/// (`gemmF32x6x16AVX2`): panels of ``panelWidth`` output columns, each
///
///     [bias of its 16 columns][B[0, 16p ..< 16p+16]][B[1, ...]] ... [B[k-1, ...]]
///
/// (``panelCount(k:)`` floats), columns past `n` zero. The bias leads so that a block's
/// accumulators start from it and the sum needs no second pass.
public enum GemmF32Layout {
    /// Output columns per panel (two 8-lane vectors at AVX2).
    public static let panelWidth = 16

    /// Floats of one panel of depth `k`.
    @inlinable
    public static func panelCount(k: Int) -> Int { (k + 1) * panelWidth }

    /// Floats of the packed operand for `n` columns of depth `k`, or nil on overflow.
    @inlinable
    public static func packedCount(n: Int, k: Int) -> Int? {
        let panels = (n + panelWidth - 1) / panelWidth
        let (perPanel, o1) = (k + 1).multipliedReportingOverflow(by: panelWidth)
        let (total, o2) = panels.multipliedReportingOverflow(by: perPanel)
        return o1 || o2 ? nil : total
    }

    /// Packs `B[d, j] = weights[j · k + d]` (rows of an OHWI filter or FULLY_CONNECTED
    /// weights: one output column per row) and `bias[j]` (zeros when nil) into `out`
    /// (``packedCount(n:k:)`` floats).
    public static func pack(
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int,
        into out: UnsafeMutablePointer<Float>
    ) {
        let panels = (n + panelWidth - 1) / panelWidth
        out.update(repeating: 0, count: panels * panelCount(k: k))
        for j in 0 ..< n {
            let panel = out + (j / panelWidth) * panelCount(k: k)
            let c = j % panelWidth
            if let bias { panel[c] = bias[j] }
            let row = weights + j * k
            for d in 0 ..< k { panel[(d + 1) * panelWidth + c] = row[d] }
        }
    }
}
