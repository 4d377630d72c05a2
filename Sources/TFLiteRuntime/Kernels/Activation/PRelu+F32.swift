/// `x >= 0 ? x : x * alpha`
enum PReluF32: BinaryElementOp {
    @inline(__always) static func apply(_ x: Float, _ alpha: Float) -> Float { x >= 0 ? x : x * alpha }
}
