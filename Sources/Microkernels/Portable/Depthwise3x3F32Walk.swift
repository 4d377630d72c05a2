/// The loops of one output row of a 3×3 depthwise convolution (``Depthwise3x3Row``) in
/// Float, shared by the levels' row kernels (`depthwiseConv3x3F32AVX2`,
/// `depthwiseConv3x3F32AVX512`), which supply the vector operations (``Lanes``):
///
///     out[ox·C + c] = clamp(start + Σ_t x_t[c] · w_t[c] + bias[c], lower, upper)
///
/// with the nine taps summed in `(ky, kx)` order, each rounded once (FMA). The walk is
/// `@inlinable` and generic so that each level specializes it in its own module, compiled
/// with that level's instructions; this module, built for the baseline, never runs it.
///
/// Interior pixels of a row whose three input rows are all present take one of two walks:
/// - `rowRuns`: channel blocks outside, pixels inside. A block's nine weight vectors stay
///   in registers along the row, so each pixel costs nine loads and nine FMAs.
/// - otherwise pixel pairs, channels inside, each block's weights loaded once for both
///   pixels. The runtime picks this when `stride·C·4` is a multiple of 256 bytes, where
///   the row walk's loads fall into few cache sets.
/// Border pixels, and every pixel of a row with padding above or below, go one at a time
/// through nine tap pointers. A channel count that is not a multiple of the lane count
/// ends with a masked block, which reads and writes nothing past channel `C - 1`.
@frozen
public struct Depthwise3x3F32Walk<L: Depthwise3x3F32Lanes, Epilogue: Depthwise3x3Epilogue> {
    @usableFromInline let shape: Depthwise3x3Row
    @usableFromInline let w: UnsafePointer<Float>
    @usableFromInline let lanes: L
    @usableFromInline let start: L.Vector
    @usableFromInline let bias: UnsafePointer<Float>
    @usableFromInline let lower: L.Vector, upper: L.Vector
    /// Channels in whole blocks; the rest go through the masked block.
    @usableFromInline let full: Int

    @inlinable @inline(__always)
    public init(
        _ shape: Depthwise3x3Row, weights: UnsafePointer<Float>, start: Float, bias: UnsafePointer<Float>,
        lower: Float, upper: Float
    ) {
        self.shape = shape
        w = weights
        lanes = L(channels: shape.channels)
        self.start = lanes.splat(start)
        self.bias = bias
        self.lower = lanes.splat(lower)
        self.upper = lanes.splat(upper)
        full = shape.channels - shape.channels % L.width
    }

    @inlinable @inline(__always)
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> L.Vector { lanes.load(p, masked) }

    /// Adds the bias, clamps (when the walk has the epilogue) and stores the block at channel `c`.
    @inlinable @inline(__always)
    func store(_ acc: L.Vector, _ o: UnsafeMutablePointer<Float>, channel c: Int, _ masked: Bool) {
        var v = acc
        if Epilogue.enabled { v = lanes.clamp(lanes.add(v, load(bias + c, masked)), lower, upper) }
        lanes.store(v, o, masked)
    }

    /// `body(c, masked)` for each block of `L.width` channels, the last one masked when
    /// `C` is not a multiple of the width.
    @inlinable @inline(__always)
    func forEachBlock(_ body: (Int, Bool) -> Void) {
        var c = 0
        while c < full {
            body(c, false)
            c += L.width
        }
        if c < shape.channels { body(c, true) }
    }

    @inlinable @inline(__always)
    func fma(_ x: L.Vector, _ k: L.Vector, _ acc: L.Vector) -> L.Vector { lanes.fma(x, k, acc) }

    @inlinable @inline(__always)
    public func row(
        _ r0: UnsafePointer<Float>?, _ r1: UnsafePointer<Float>?, _ r2: UnsafePointer<Float>?,
        zero: UnsafePointer<Float>, rowRuns: Bool, out: UnsafeMutablePointer<Float>
    ) {
        let s = shape, C = s.channels
        var interior = 0 ..< 0
        if let r0, let r1, let r2, !s.interior.isEmpty {
            interior = s.interior
            let first = (interior.lowerBound * s.stride - s.padLeft) * C
            let step = s.stride * C
            let o = out + interior.lowerBound * C
            if rowRuns {
                forEachBlock { c, masked in
                    run(
                        r0 + first, r1 + first, r2 + first, step: step, pixels: interior.count, out: o, channel: c,
                        masked)
                }
            } else {
                var i = 0
                while i + 2 <= interior.count {
                    let at = first + i * step
                    pair(r0 + at, r1 + at, r2 + at, step: step, out: o + i * C)
                    i += 2
                }
                if i < interior.count {
                    let a = r0 + first + i * step, d = r1 + first + i * step, e = r2 + first + i * step
                    pixel((a, a + C, a + 2 * C), (d, d + C, d + 2 * C), (e, e + C, e + 2 * C), out: o + i * C)
                }
            }
        }
        for ox in 0 ..< s.outputWidth where !interior.contains(ox) {
            pixel(
                s.taps(r0, column: ox, fill: zero), s.taps(r1, column: ox, fill: zero),
                s.taps(r2, column: ox, fill: zero), out: out + ox * C)
        }
    }

    /// Channel block `c` of `pixels` consecutive interior pixels, `step` floats apart in
    /// the input rows whose first window starts at `a`, `d`, `e`.
    @inlinable @inline(__always)
    func run(
        _ a: UnsafePointer<Float>, _ d: UnsafePointer<Float>, _ e: UnsafePointer<Float>, step: Int, pixels: Int,
        out: UnsafeMutablePointer<Float>, channel c: Int, _ masked: Bool
    ) {
        let C = shape.channels, k = w + c
        let w0 = load(k, masked), w1 = load(k + C, masked), w2 = load(k + 2 * C, masked)
        let w3 = load(k + 3 * C, masked), w4 = load(k + 4 * C, masked), w5 = load(k + 5 * C, masked)
        let w6 = load(k + 6 * C, masked), w7 = load(k + 7 * C, masked), w8 = load(k + 8 * C, masked)
        var a = a + c, d = d + c, e = e + c, o = out + c
        var n = pixels
        while n > 0 {
            var acc = fma(load(a, masked), w0, start)
            acc = fma(load(a + C, masked), w1, acc)
            acc = fma(load(a + 2 * C, masked), w2, acc)
            acc = fma(load(d, masked), w3, acc)
            acc = fma(load(d + C, masked), w4, acc)
            acc = fma(load(d + 2 * C, masked), w5, acc)
            acc = fma(load(e, masked), w6, acc)
            acc = fma(load(e + C, masked), w7, acc)
            acc = fma(load(e + 2 * C, masked), w8, acc)
            store(acc, o, channel: c, masked)
            a += step; d += step; e += step; o += C
            n -= 1
        }
    }

    /// Two horizontally adjacent interior pixels (the second `step` floats after the first).
    @inlinable @inline(__always)
    func pair(
        _ a: UnsafePointer<Float>, _ d: UnsafePointer<Float>, _ e: UnsafePointer<Float>, step: Int,
        out: UnsafeMutablePointer<Float>
    ) {
        let C = shape.channels
        @inline(__always) func block(_ c: Int, _ masked: Bool) {
            var p = start, q = start
            // Constant trip counts: LLVM unrolls both loops into 18 FMAs.
            for ky in 0 ..< 3 {
                let r = (ky == 0 ? a : ky == 1 ? d : e) + c
                for kx in 0 ..< 3 {
                    let wt = load(w + (3 * ky + kx) * C + c, masked)
                    p = fma(load(r + kx * C, masked), wt, p)
                    q = fma(load(r + kx * C + step, masked), wt, q)
                }
            }
            store(p, out + c, channel: c, masked)
            store(q, out + C + c, channel: c, masked)
        }
        forEachBlock(block)
    }

    /// One pixel from its nine tap pointers, row by row.
    @inlinable @inline(__always)
    func pixel(
        _ t0: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
        _ t1: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
        _ t2: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>), out: UnsafeMutablePointer<Float>
    ) {
        let C = shape.channels
        @inline(__always) func block(_ c: Int, _ masked: Bool) {
            let k = w + c
            var acc = fma(load(t0.0 + c, masked), load(k, masked), start)
            acc = fma(load(t0.1 + c, masked), load(k + C, masked), acc)
            acc = fma(load(t0.2 + c, masked), load(k + 2 * C, masked), acc)
            acc = fma(load(t1.0 + c, masked), load(k + 3 * C, masked), acc)
            acc = fma(load(t1.1 + c, masked), load(k + 4 * C, masked), acc)
            acc = fma(load(t1.2 + c, masked), load(k + 5 * C, masked), acc)
            acc = fma(load(t2.0 + c, masked), load(k + 6 * C, masked), acc)
            acc = fma(load(t2.1 + c, masked), load(k + 7 * C, masked), acc)
            acc = fma(load(t2.2 + c, masked), load(k + 8 * C, masked), acc)
            store(acc, out + c, channel: c, masked)
        }
        forEachBlock(block)
    }
}

extension Depthwise3x3F32Walk where Epilogue == Depthwise3x3SumsOnly {
    /// One output row: the level's row kernel, for lanes `L`. A row with neither bias nor
    /// clamp (nil `bias`, infinite bounds) takes the specialization without the epilogue.
    @inlinable @inline(__always)
    public static func row(
        _ shape: Depthwise3x3Row, rowRuns: Bool,
        _ r0: UnsafePointer<Float>?, _ r1: UnsafePointer<Float>?, _ r2: UnsafePointer<Float>?,
        zero: UnsafePointer<Float>, weights: UnsafePointer<Float>, start: Float,
        bias: UnsafePointer<Float>?, lower: Float, upper: Float,
        out: UnsafeMutablePointer<Float>
    ) {
        guard shape.channels > 0, shape.outputWidth > 0 else { return }
        if bias == nil && lower == -.infinity && upper == .infinity {
            Self(shape, weights: weights, start: start, bias: zero, lower: lower, upper: upper)
                .row(r0, r1, r2, zero: zero, rowRuns: rowRuns, out: out)
        } else {
            Depthwise3x3F32Walk<L, Depthwise3x3BiasAndClamp>(
                shape, weights: weights, start: start, bias: bias ?? zero, lower: lower, upper: upper
            )
            .row(r0, r1, r2, zero: zero, rowRuns: rowRuns, out: out)
        }
    }
}

/// The vector operations of one level for ``Depthwise3x3F32Walk``: `width` channels per
/// vector, a tail mask for the last `C mod width` channels, fused multiply-add.
public protocol Depthwise3x3F32Lanes {
    associatedtype Vector
    /// Channels per vector.
    static var width: Int { get }
    /// Lanes for rows of `channels` channels (the mask of the last, partial block).
    init(channels: Int)
    func splat(_ x: Float) -> Vector
    /// The block at `p`; when `masked`, only the tail's lanes are read (the rest zero).
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> Vector
    /// Stores the block at `p`; when `masked`, only the tail's lanes.
    func store(_ v: Vector, _ p: UnsafeMutablePointer<Float>, _ masked: Bool)
    /// `x · k + acc`, rounded once.
    func fma(_ x: Vector, _ k: Vector, _ acc: Vector) -> Vector
    func add(_ a: Vector, _ b: Vector) -> Vector
    /// `min(max(v, lower), upper)` per lane.
    func clamp(_ v: Vector, _ lower: Vector, _ upper: Vector) -> Vector
}

/// Whether a walk adds the bias and clamps each block before storing it. Types rather
/// than a stored flag, so that the walk without bias and clamp is a specialization with no
/// epilogue in its loops (a stored flag left one copy out of line with the test inside).
public protocol Depthwise3x3Epilogue { static var enabled: Bool { get } }
public enum Depthwise3x3SumsOnly: Depthwise3x3Epilogue {
    @inlinable public static var enabled: Bool { false }
}
public enum Depthwise3x3BiasAndClamp: Depthwise3x3Epilogue {
    @inlinable public static var enabled: Bool { true }
}
