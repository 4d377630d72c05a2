import TFLiteModel

/// How a segment operator combines the rows of one segment: the identity a segment starts
/// from, and the step `acc = combine(acc, x)`, applied to the rows in order.
///
/// - sum: from 0, `acc + x` (int32 wraps);
/// - product: from 1, `acc · x` (int32 wraps);
/// - max: from the type's lowest value (`-Float.greatestFiniteMagnitude`, not `-∞`),
///   `acc < x ? x : acc`, so a NaN row leaves the maximum unchanged;
/// - min: from the type's largest value (`Float.greatestFiniteMagnitude`),
///   `x < acc ? x : acc`.
///
/// These are TFLite's identities and comparison orders, so an empty segment of an
/// UNSORTED_SEGMENT_MAX holds `-3.4028235e38`.
enum SegmentFold: Sendable {
    case sum, product, max, min

    /// Each segment row of `[rows, width]` output `y` gets the fold of the data rows of
    /// `[count, width]` input `x` whose id names it; ids below zero are skipped. Work is
    /// split over columns, so every element folds its rows in input order on one thread.
    func apply(
        float x: UnsafePointer<Float>, ids: UnsafePointer<Int32>, count: Int, into y: UnsafeMutablePointer<Float>,
        rows: Int, width: Int, parallel: Parallel
    ) {
        switch self {
        case .sum: fold(x, ids, count, y, rows, width, parallel, Float(0)) { $0 + $1 }
        case .product: fold(x, ids, count, y, rows, width, parallel, Float(1)) { $0 * $1 }
        case .max: fold(x, ids, count, y, rows, width, parallel, -Float.greatestFiniteMagnitude) { $0 < $1 ? $1 : $0 }
        case .min: fold(x, ids, count, y, rows, width, parallel, Float.greatestFiniteMagnitude) { $1 < $0 ? $1 : $0 }
        }
    }

    func apply(
        int32 x: UnsafePointer<Int32>, ids: UnsafePointer<Int32>, count: Int, into y: UnsafeMutablePointer<Int32>,
        rows: Int, width: Int, parallel: Parallel
    ) {
        switch self {
        case .sum: fold(x, ids, count, y, rows, width, parallel, Int32(0)) { $0 &+ $1 }
        case .product: fold(x, ids, count, y, rows, width, parallel, Int32(1)) { $0 &* $1 }
        case .max: fold(x, ids, count, y, rows, width, parallel, Int32.min) { $0 < $1 ? $1 : $0 }
        case .min: fold(x, ids, count, y, rows, width, parallel, Int32.max) { $1 < $0 ? $1 : $0 }
        }
    }

    @inline(__always)
    private func fold<T>(
        _ x: UnsafePointer<T>, _ ids: UnsafePointer<Int32>, _ count: Int, _ y: UnsafeMutablePointer<T>,
        _ rows: Int, _ width: Int, _ parallel: Parallel, _ initial: T, _ combine: (T, T) -> T
    ) {
        parallel.forEachChunk(width, cost: Swift.max(rows + count, 1) * MemoryLayout<T>.stride) { columns in
            for r in 0 ..< rows {
                let out = y + r * width
                for c in columns { out[c] = initial }
            }
            for i in 0 ..< count {
                let id = Int(ids[i])
                if id < 0 { continue }
                let out = y + id * width, row = x + i * width
                for c in columns { out[c] = combine(out[c], row[c]) }
            }
        }
    }
}
