#if arch(x86_64)
import Microkernels

/// ``BinaryF32Loops/rows(_:_:_:_:_:_:_:_:rows:columns:clamp:)`` for x86-64-v3: eight lanes
/// per `ymm`.
@inline(never)
public func binaryF32RowsAVX2(
    _ op: BinaryF32Operation, _ a: UnsafePointer<Float>, _ sa: Int, _ rowA: Int, _ b: UnsafePointer<Float>,
    _ sb: Int, _ rowB: Int, _ y: UnsafeMutablePointer<Float>, rows: Int, columns: Int, clamp: (Float, Float)?
) {
    BinaryF32Loops.rows(op, a, sa, rowA, b, sb, rowB, y, rows: rows, columns: columns, clamp: clamp)
}
#endif
