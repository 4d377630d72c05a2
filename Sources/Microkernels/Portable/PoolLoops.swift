/// The geometry of a 2-D pool over NHWC tensors, as the pooling loops read it: the window
/// of output pixel `(oy, ox)` starts at input `(oy·strideH - padTop, ox·strideW - padLeft)`
/// and is clipped to the image (padding is never read).
@frozen
public struct PoolGeometry: Sendable {
    public let inH: Int, inW: Int, channels: Int
    public let outH: Int, outW: Int
    public let filterH: Int, filterW: Int
    public let strideH: Int, strideW: Int
    public let padTop: Int, padLeft: Int

    @inlinable
    public init(
        inH: Int, inW: Int, channels: Int, outH: Int, outW: Int, filterH: Int, filterW: Int, strideH: Int,
        strideW: Int, padTop: Int, padLeft: Int
    ) {
        (self.inH, self.inW, self.channels, self.outH, self.outW) = (inH, inW, channels, outH, outW)
        (self.filterH, self.filterW, self.strideH, self.strideW) = (filterH, filterW, strideH, strideW)
        (self.padTop, self.padLeft) = (padTop, padLeft)
    }

    /// Input rows (or columns) `start ..< end` covered by window `o` of one axis, clipped.
    @inlinable @inline(__always)
    public static func window(_ o: Int, stride: Int, pad: Int, filter: Int, input: Int) -> Range<Int> {
        let origin = o * stride - pad
        return Swift.max(origin, 0) ..< Swift.min(origin + filter, input)
    }
}

/// The direct pooling loops, shared by every level: per output pixel, one plain loop over
/// the channels for each pixel of its clipped window, which LLVM vectorizes with the
/// level's widest vectors (the level modules specialize these: `maxPoolQ8AVX2` and kin;
/// the baseline's entry points are below). Rows `rows` are output rows `b·outH + oy` of
/// the batch. Windows must not be empty (prepare checks that).
public enum PoolLoops {
    /// MAX_POOL_2D on codes or floats: `clamp(max over the window, lower, upper)`, the
    /// clamp's lower bound folded in as a first element (`max(lower, ...)`).
    @inlinable @inline(__always)
    public static func maximum<T: Comparable>(
        _ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>, _ g: PoolGeometry, rows: Range<Int>, lower: T, upper: T,
        clampsUpper: Bool
    ) {
        let c = g.channels
        for row in rows {
            let b = row / g.outH, oy = row % g.outH
            let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
            let image = x + b * g.inH * g.inW * c
            for ox in 0 ..< g.outW {
                let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
                let out = y + (row * g.outW + ox) * c
                if ys.count == 2, xs.count == 2 {
                    // The common 2×2 window in one loop over the channels.
                    let p = image + (ys.lowerBound * g.inW + xs.lowerBound) * c, q = p + c
                    let r = p + g.inW * c, s = r + c
                    for k in 0 ..< c {
                        var m = p[k] > lower ? p[k] : lower
                        m = q[k] > m ? q[k] : m
                        m = r[k] > m ? r[k] : m
                        m = s[k] > m ? s[k] : m
                        out[k] = clampsUpper && m > upper ? upper : m
                    }
                    continue
                }
                var first = true
                for iy in ys {
                    for ix in xs {
                        let src = image + (iy * g.inW + ix) * c
                        if first {
                            for k in 0 ..< c { out[k] = src[k] > lower ? src[k] : lower }
                            first = false
                        } else {
                            for k in 0 ..< c { out[k] = src[k] > out[k] ? src[k] : out[k] }
                        }
                    }
                }
                if clampsUpper { for k in 0 ..< c { out[k] = out[k] < upper ? out[k] : upper } }
            }
        }
    }

    /// AVERAGE_POOL_2D on 8-bit codes, TFLite's integer form: the `Int32` sum over the
    /// window, then `(sum ± n/2) / n` truncated (`+` for uint8 and for positive int8 sums),
    /// clamped. The division is done in Float, which is exact here: `|sum ± n/2| < 2^24`
    /// and, `n` being at most `2^12` (the runtime sends windows of more than 64 pixels to its
    /// separable kernels instead), a quotient that is not an integer lies at least `2^-12`
    /// from one, far more than Float's error. `sums` holds `channels` accumulators.
    @inlinable @inline(__always)
    public static func averageQ8<T: FixedWidthInteger>(
        _ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>, _ g: PoolGeometry, rows: Range<Int>, lower: Int32,
        upper: Int32, sums: UnsafeMutablePointer<Int32>
    ) {
        let c = g.channels
        for row in rows {
            let b = row / g.outH, oy = row % g.outH
            let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
            let image = x + b * g.inH * g.inW * c
            for ox in 0 ..< g.outW {
                let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
                let out = y + (row * g.outW + ox) * c
                var first = true
                for iy in ys {
                    for ix in xs {
                        let src = image + (iy * g.inW + ix) * c
                        if first {
                            for k in 0 ..< c { sums[k] = Int32(truncatingIfNeeded: src[k]) }
                            first = false
                        } else {
                            for k in 0 ..< c { sums[k] &+= Int32(truncatingIfNeeded: src[k]) }
                        }
                    }
                }
                let n = Int32(ys.count * xs.count), half = n / 2
                let divisor = Float(n)
                for k in 0 ..< c {
                    let s = sums[k]
                    let rounded = T.isSigned && s <= 0 ? s &- half : s &+ half
                    var q = Int32(Float(rounded) / divisor)
                    q = q < lower ? lower : q
                    q = q > upper ? upper : q
                    out[k] = T(truncatingIfNeeded: q)
                }
            }
        }
    }

    /// AVERAGE_POOL_2D on floats: the window's sum in row-major order divided by its pixel
    /// count, clamped.
    @inlinable @inline(__always)
    public static func averageF32(
        _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ g: PoolGeometry, rows: Range<Int>,
        lower: Float, upper: Float
    ) {
        let c = g.channels
        for row in rows {
            let b = row / g.outH, oy = row % g.outH
            let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
            let image = x + b * g.inH * g.inW * c
            for ox in 0 ..< g.outW {
                let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
                let out = y + (row * g.outW + ox) * c
                if ys.count == 2, xs.count == 2 {
                    let p = image + (ys.lowerBound * g.inW + xs.lowerBound) * c, q = p + c
                    let r = p + g.inW * c, s = r + c
                    for k in 0 ..< c {
                        let v = (Float(0) + p[k] + q[k] + r[k] + s[k]) / 4
                        let low = v < lower ? lower : v
                        out[k] = low > upper ? upper : low
                    }
                    continue
                }
                var first = true
                for iy in ys {
                    for ix in xs {
                        let src = image + (iy * g.inW + ix) * c
                        if first {
                            for k in 0 ..< c { out[k] = 0 + src[k] }
                            first = false
                        } else {
                            for k in 0 ..< c { out[k] = out[k] + src[k] }
                        }
                    }
                }
                let count = Float(ys.count * xs.count)
                for k in 0 ..< c {
                    let v = out[k] / count
                    let low = v < lower ? lower : v
                    out[k] = low > upper ? upper : low
                }
            }
        }
    }
}

/// ``PoolLoops/maximum(_:_:_:rows:lower:upper:clampsUpper:)`` on bytes for the baseline.
@inline(never)
public func maxPoolQ8Portable(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32
) {
    if signed {
        PoolLoops.maximum(
            x.assumingMemoryBound(to: Int8.self), y.assumingMemoryBound(to: Int8.self), g, rows: rows,
            lower: Int8(truncatingIfNeeded: lower), upper: Int8(truncatingIfNeeded: upper), clampsUpper: upper < 127)
    } else {
        PoolLoops.maximum(
            x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self), g, rows: rows,
            lower: UInt8(truncatingIfNeeded: lower), upper: UInt8(truncatingIfNeeded: upper), clampsUpper: upper < 255)
    }
}

/// ``PoolLoops/averageQ8(_:_:_:rows:lower:upper:sums:)`` for the baseline.
@inline(never)
public func averagePoolQ8Portable(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32, sums: UnsafeMutablePointer<Int32>
) {
    if signed {
        PoolLoops.averageQ8(
            x.assumingMemoryBound(to: Int8.self), y.assumingMemoryBound(to: Int8.self), g, rows: rows, lower: lower,
            upper: upper, sums: sums)
    } else {
        PoolLoops.averageQ8(
            x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self), g, rows: rows, lower: lower,
            upper: upper, sums: sums)
    }
}

/// The float pools for the baseline.
@inline(never)
public func poolF32Portable(
    average: Bool, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ g: PoolGeometry, rows: Range<Int>,
    lower: Float, upper: Float
) {
    if average {
        PoolLoops.averageF32(x, y, g, rows: rows, lower: lower, upper: upper)
    } else {
        PoolLoops.maximum(
            x, y, g, rows: rows, lower: lower > -.greatestFiniteMagnitude ? lower : -.greatestFiniteMagnitude,
            upper: upper, clampsUpper: upper < .infinity)
    }
}
