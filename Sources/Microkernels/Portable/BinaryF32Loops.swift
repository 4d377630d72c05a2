/// The float binary operators that have level loops (the others stay in the runtime's
/// scalar loops).
public enum BinaryF32Operation: Sendable, Hashable {
    case add, subtract, multiply
}

/// Float ADD, SUB and MUL over rows of a two-dimensional broadcast, the optional clamp in
/// the same loop: plain loops over pointers, one per stride pattern, which each level
/// compiles with its widest vectors (`binaryF32RowsAVX2`). Every lane is the one IEEE
/// operation, then `v < lower ? lower : v` and `upper < low ? upper : low` (a NaN passes),
/// so every level gives the same bits.
public enum BinaryF32Loops {
    /// `y[r·columns + k] = clamp(a[r·rowA + k·sa] ∘ b[r·rowB + k·sb])` for `r < rows`,
    /// `k < columns`; `sa` and `sb` are 1 or 0.
    @inlinable @inline(__always)
    public static func rows(
        _ op: BinaryF32Operation, _ a: UnsafePointer<Float>, _ sa: Int, _ rowA: Int, _ b: UnsafePointer<Float>,
        _ sb: Int, _ rowB: Int, _ y: UnsafeMutablePointer<Float>, rows: Int, columns: Int, clamp: (Float, Float)?
    ) {
        switch op {
        case .add: clamped(a, sa, rowA, b, sb, rowB, y, rows, columns, clamp) { $0 + $1 }
        case .subtract: clamped(a, sa, rowA, b, sb, rowB, y, rows, columns, clamp) { $0 - $1 }
        case .multiply: clamped(a, sa, rowA, b, sb, rowB, y, rows, columns, clamp) { $0 * $1 }
        }
    }

    @inlinable @inline(__always)
    static func clamped(
        _ a: UnsafePointer<Float>, _ sa: Int, _ rowA: Int, _ b: UnsafePointer<Float>, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutablePointer<Float>, _ rows: Int, _ columns: Int, _ clamp: (Float, Float)?,
        _ f: (Float, Float) -> Float
    ) {
        if let (lower, upper) = clamp {
            each(a, sa, rowA, b, sb, rowB, y, rows, columns) {
                let v = f($0, $1)
                let low = v < lower ? lower : v
                return upper < low ? upper : low
            }
        } else {
            each(a, sa, rowA, b, sb, rowB, y, rows, columns, f)
        }
    }

    /// One loop per stride pattern: a stride read from memory would make every load a gather.
    @inlinable @inline(__always)
    static func each(
        _ a: UnsafePointer<Float>, _ sa: Int, _ rowA: Int, _ b: UnsafePointer<Float>, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutablePointer<Float>, _ rows: Int, _ n: Int, _ f: (Float, Float) -> Float
    ) {
        for r in 0 ..< rows {
            let pa = a + r * rowA, pb = b + r * rowB, py = y + r * n
            switch (sa, sb) {
            case (1, 1): for k in 0 ..< n { py[k] = f(pa[k], pb[k]) }
            case (1, _): let vb = pb[0]; for k in 0 ..< n { py[k] = f(pa[k], vb) }
            case (_, 1): let va = pa[0]; for k in 0 ..< n { py[k] = f(va, pb[k]) }
            default: let v = f(pa[0], pb[0]); for k in 0 ..< n { py[k] = v }
            }
        }
    }
}
