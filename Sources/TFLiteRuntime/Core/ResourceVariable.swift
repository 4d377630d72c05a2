import TFLiteModel

/// The value of a resource variable: what the last ASSIGN_VARIABLE gave it, copied.
struct ResourceVariable {
    var type: ElementType
    var shape: [Int]
    var bytes: AlignedBuffer
}
