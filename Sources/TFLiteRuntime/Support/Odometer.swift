/// Steps the row-major multi-index `index[0 ..< axes]` (the last axis fastest) to the next
/// one, as an odometer does: the last axis counts up, and an axis that reaches its size
/// goes back to 0 and carries into the axis before it.
///
/// `moved(axis, wrapped)` is called for each axis that changed, so callers keep offsets in
/// step without recomputing them: `wrapped` is false when `axis` went up by one, true when
/// it went from `size(axis) - 1` back to 0. Returns false after the last index, when every
/// axis has wrapped. Does not allocate.
@inline(__always)
func advanceOdometer(
    _ index: UnsafeMutablePointer<Int>, axes: Int, size: (Int) -> Int,
    moved: (_ axis: Int, _ wrapped: Bool) -> Void
) -> Bool {
    var axis = axes - 1
    while axis >= 0 {
        index[axis] += 1
        if index[axis] < size(axis) {
            moved(axis, false)
            return true
        }
        index[axis] = 0
        moved(axis, true)
        axis -= 1
    }
    return false
}
