/// `x >= 0 ? x : x * alpha`
enum PReluF32: BinaryElementOp {
    @inline(__always) static func apply(_ x: Float, _ alpha: Float) -> Float { x >= 0 ? x : x * alpha }
    @inline(__always) static func apply(_ x: SIMD8<Float>, _ alpha: SIMD8<Float>) -> SIMD8<Float> {
        (x * alpha).replacing(with: x, where: x .>= 0)
    }
}
