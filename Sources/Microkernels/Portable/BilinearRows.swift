/// One output row of RESIZE_BILINEAR (NHWC), the loops shared by every level: per output
/// pixel, one plain loop over the channels blending the four source pixels, which LLVM
/// vectorizes with the level's widths (`bilinearRowS8AVX2` and kin; the baseline's entry
/// points are below). `top` and `bottom` are the two source rows; `lower`, `upper` and
/// the weight arrays give each output column's neighbours and the upper one's weight.
public enum BilinearRows {
    /// int8, TFLite's integer form: weights in units of `2^-10` per axis, the four products
    /// `tl·uy·ux + bl·ty·ux + tr·uy·tx + br·ty·tx` divided by `2^20` rounding half away
    /// from zero. Summed here as `(tl·uy + bl·ty)·ux + (tr·uy + br·ty)·tx`, the same integer,
    /// in `Int32`: weights stay within ±1536 (outside [0, 1024] only at the borders with
    /// half-pixel centers), so every partial sum is below `2^30` in magnitude. The
    /// truncating division of `s ± 2^19` is `(s + 2^19 - [s ≤ 0]) >> 20`.
    @inlinable @inline(__always)
    public static func s8(
        _ top: UnsafePointer<Int8>, _ bottom: UnsafePointer<Int8>, ty: Int32, lower: UnsafePointer<Int>,
        upper: UnsafePointer<Int>, weights: UnsafePointer<Int64>, width: Int, depth: Int,
        _ out: UnsafeMutablePointer<Int8>
    ) {
        let uy = 1024 &- ty
        for ox in 0 ..< width {
            let tx = Int32(truncatingIfNeeded: weights[ox]), ux = 1024 &- tx
            let tl = top + lower[ox] * depth, tr = top + upper[ox] * depth
            let bl = bottom + lower[ox] * depth, br = bottom + upper[ox] * depth
            let o = out + ox * depth
            for c in 0 ..< depth {
                let left = Int32(tl[c]) &* uy &+ Int32(bl[c]) &* ty
                let right = Int32(tr[c]) &* uy &+ Int32(br[c]) &* ty
                let s = left &* ux &+ right &* tx
                o[c] = Int8(truncatingIfNeeded: (s &+ (1 << 19) &- (s <= 0 ? 1 : 0)) &>> 20)
            }
        }
    }

    /// uint8, TFLite's float form: `tl·uy·ux + bl·ty·ux + tr·uy·tx + br·ty·tx + 0.5` in
    /// Float in that order (no fused multiply-add), clamped to [0, 255] and truncated. The
    /// truncation goes through the float's bits (`v + 2^23` rounds to an integer; one less
    /// where that went up), which vectorizes where a checked conversion would not.
    @inlinable @inline(__always)
    public static func u8(
        _ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, ty: Float, lower: UnsafePointer<Int>,
        upper: UnsafePointer<Int>, weights: UnsafePointer<Float>, width: Int, depth: Int,
        _ out: UnsafeMutablePointer<UInt8>
    ) {
        let uy = 1 - ty
        let magic: Float = 8_388_608
        for ox in 0 ..< width {
            let tx = weights[ox], ux = 1 - tx
            let tl = top + lower[ox] * depth, tr = top + upper[ox] * depth
            let bl = bottom + lower[ox] * depth, br = bottom + upper[ox] * depth
            let o = out + ox * depth
            for c in 0 ..< depth {
                var v = Float(tl[c]) * uy * ux + Float(bl[c]) * ty * ux + Float(tr[c]) * uy * tx
                v = v + Float(br[c]) * ty * tx + 0.5
                v = v > 0 ? v : 0
                v = v < 255 ? v : 255
                let rounded = (v + magic) - magic
                let floor = rounded > v ? rounded - 1 : rounded
                o[c] = UInt8(truncatingIfNeeded: (floor + magic).bitPattern)
            }
        }
    }

    /// float32: `tl·uy·ux + bl·ty·ux + tr·uy·tx + br·ty·tx` in that order (TFLite's).
    @inlinable @inline(__always)
    public static func f32(
        _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, ty: Float, lower: UnsafePointer<Int>,
        upper: UnsafePointer<Int>, weights: UnsafePointer<Float>, width: Int, depth: Int,
        _ out: UnsafeMutablePointer<Float>
    ) {
        let uy = 1 - ty
        for ox in 0 ..< width {
            let tx = weights[ox], ux = 1 - tx
            let tl = top + lower[ox] * depth, tr = top + upper[ox] * depth
            let bl = bottom + lower[ox] * depth, br = bottom + upper[ox] * depth
            let o = out + ox * depth
            for c in 0 ..< depth {
                o[c] = tl[c] * uy * ux + bl[c] * ty * ux + tr[c] * uy * tx + br[c] * ty * tx
            }
        }
    }
}

/// ``BilinearRows/s8(_:_:ty:lower:upper:weights:width:depth:_:)`` for the baseline.
@inline(never)
public func bilinearRowS8Portable(
    _ top: UnsafePointer<Int8>, _ bottom: UnsafePointer<Int8>, ty: Int32, lower: UnsafePointer<Int>,
    upper: UnsafePointer<Int>, weights: UnsafePointer<Int64>, width: Int, depth: Int, _ out: UnsafeMutablePointer<Int8>
) {
    BilinearRows.s8(
        top, bottom, ty: ty, lower: lower, upper: upper, weights: weights, width: width, depth: depth, out)
}

/// ``BilinearRows/u8(_:_:ty:lower:upper:weights:width:depth:_:)`` for the baseline.
@inline(never)
public func bilinearRowU8Portable(
    _ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, ty: Float, lower: UnsafePointer<Int>,
    upper: UnsafePointer<Int>, weights: UnsafePointer<Float>, width: Int, depth: Int, _ out: UnsafeMutablePointer<UInt8>
) {
    BilinearRows.u8(
        top, bottom, ty: ty, lower: lower, upper: upper, weights: weights, width: width, depth: depth, out)
}

/// ``BilinearRows/f32(_:_:ty:lower:upper:weights:width:depth:_:)`` for the baseline.
@inline(never)
public func bilinearRowF32Portable(
    _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, ty: Float, lower: UnsafePointer<Int>,
    upper: UnsafePointer<Int>, weights: UnsafePointer<Float>, width: Int, depth: Int, _ out: UnsafeMutablePointer<Float>
) {
    BilinearRows.f32(
        top, bottom, ty: ty, lower: lower, upper: upper, weights: weights, width: width, depth: depth, out)
}
