/// The loops of one output row of a K×K depthwise convolution (``DepthwiseKxKRow``), shared
/// by every level: the float walk (``DepthwiseKxKF32Walk``) and the exact 8-bit one
/// (``DepthwiseKxKQ8Walk``) differ only in their vector operations. Both are `@inlinable`
/// and generic, so each level specializes them in its own module with its own
/// instructions.
///
/// Interior pixels go in tiles of four horizontally adjacent outputs: each tap's weight
/// vector is loaded once for the four, whose accumulators stay in registers over all
/// `K·K` taps (a 5×5 filter's 25 weight vectors do not fit the register file, so the 3×3
/// walks' weights-in-registers row runs do not carry over). With `channelsOutside` the
/// channel blocks are the outer loop and the tiles walk along the row (the block's weights
/// stay in L1 however wide the tensor is); otherwise every block of one tile is done
/// before the next tile. The last interior pixels and the border pixels go one at a time,
/// each tap pointing into its row or at the fill. Every path sums the taps of one output
/// in `(ky, kx)` order, so an output's value does not depend on the path that computed it.
public enum DepthwiseKxKTiles {
    /// Calls `tile(ox)` for each run of four interior outputs and `single(ox)` for every
    /// other output of the row.
    @inlinable @inline(__always)
    public static func forEachOutput(_ shape: DepthwiseKxKRow, tile: (Int) -> Void, single: (Int) -> Void) {
        let inner = shape.interior
        var ox = inner.lowerBound
        while ox + 4 <= inner.upperBound {
            tile(ox)
            ox += 4
        }
        for o in 0 ..< shape.outputWidth where o < inner.lowerBound || o >= ox { single(o) }
    }
}

/// One output row of a K×K depthwise convolution in Float (``DepthwiseKxKTiles``):
///
///     out[ox·P + c] = clamp(Σ_t x_t[c] · w_t[c] + bias[c], lower, upper)
///
/// the taps summed from zero in `(ky, kx)` order with the lanes' multiply-add, the bias
/// added last. A channel count that is not a multiple of the lane count ends with a masked
/// block, which reads and writes nothing past the last channel.
@frozen
public struct DepthwiseKxKF32Walk<K: DepthwiseKernelSize, L: Depthwise3x3F32Lanes, Epilogue: Depthwise3x3Epilogue> {
    @usableFromInline let shape: DepthwiseKxKRow
    @usableFromInline let w: UnsafePointer<Float>
    @usableFromInline let lanes: L
    @usableFromInline let bias: UnsafePointer<Float>
    @usableFromInline let lower: L.Vector, upper: L.Vector

    @inlinable @inline(__always)
    init(
        _ shape: DepthwiseKxKRow, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, lower: Float,
        upper: Float
    ) {
        self.shape = shape
        w = weights
        lanes = L(channels: shape.channels)
        self.bias = bias
        self.lower = lanes.splat(lower)
        self.upper = lanes.splat(upper)
    }

    @inlinable @inline(__always)
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> L.Vector { lanes.load(p, masked) }

    @inlinable @inline(__always)
    func store(_ acc: L.Vector, _ o: UnsafeMutablePointer<Float>, channel c: Int, _ masked: Bool) {
        var v = acc
        if Epilogue.enabled { v = lanes.clamp(lanes.add(v, load(bias + c, masked)), lower, upper) }
        lanes.store(v, o, masked)
    }

    /// `body(c, masked)` for each block of `L.width` channels, the last one masked when the
    /// channel count is not a multiple of the width.
    @inlinable @inline(__always)
    func forEachBlock(_ body: (Int, Bool) -> Void) {
        let full = shape.channels - shape.channels % L.width
        var c = 0
        while c < full {
            body(c, false)
            c += L.width
        }
        if c < shape.channels { body(c, true) }
    }

    @inlinable @inline(__always)
    func row(
        _ rows: UnsafePointer<UnsafePointer<Float>>, fill: UnsafePointer<Float>, channelsOutside: Bool,
        out: UnsafeMutablePointer<Float>
    ) {
        if channelsOutside {
            forEachBlock { c, masked in
                DepthwiseKxKTiles.forEachOutput(
                    shape, tile: { tile(rows, $0, c, masked, out) }, single: { pixel(rows, $0, c, masked, fill, out) })
            }
        } else {
            DepthwiseKxKTiles.forEachOutput(
                shape, tile: { ox in forEachBlock { tile(rows, ox, $0, $1, out) } },
                single: { ox in forEachBlock { pixel(rows, ox, $0, $1, fill, out) } })
        }
    }

    /// Channel block `c` of the four interior outputs from `ox`.
    @inlinable @inline(__always)
    func tile(
        _ rows: UnsafePointer<UnsafePointer<Float>>, _ ox: Int, _ c: Int, _ masked: Bool,
        _ out: UnsafeMutablePointer<Float>
    ) {
        let s = shape, P = s.pixelStride, n = K.taps
        let first = (ox * s.stride - s.padLeft) * P + c, step = s.stride * P
        var a0 = lanes.splat(0), a1 = a0, a2 = a0, a3 = a0
        for ky in 0 ..< n {
            let r = rows[ky] + first
            for kx in 0 ..< n {
                let k = load(w + (ky * n + kx) * P + c, masked), x = r + kx * P
                a0 = lanes.fma(load(x, masked), k, a0)
                a1 = lanes.fma(load(x + step, masked), k, a1)
                a2 = lanes.fma(load(x + 2 * step, masked), k, a2)
                a3 = lanes.fma(load(x + 3 * step, masked), k, a3)
            }
        }
        let o = out + ox * P
        store(a0, o + c, channel: c, masked)
        store(a1, o + P + c, channel: c, masked)
        store(a2, o + 2 * P + c, channel: c, masked)
        store(a3, o + 3 * P + c, channel: c, masked)
    }

    /// Channel block `c` of output `ox`, taps outside the row reading `fill`.
    @inlinable @inline(__always)
    func pixel(
        _ rows: UnsafePointer<UnsafePointer<Float>>, _ ox: Int, _ c: Int, _ masked: Bool,
        _ fill: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>
    ) {
        let s = shape, P = s.pixelStride, n = K.taps
        var acc = lanes.splat(0)
        for ky in 0 ..< n {
            let r = rows[ky]
            for kx in 0 ..< n {
                let x = s.tap(r, column: ox, kx, fill: fill)
                acc = lanes.fma(load(x + c, masked), load(w + (ky * n + kx) * P + c, masked), acc)
            }
        }
        store(acc, out + ox * P + c, channel: c, masked)
    }
}

extension DepthwiseKxKF32Walk where Epilogue == Depthwise3x3SumsOnly {
    /// One output row with lanes `L`: `rows` holds the window's `K` input rows (a row of
    /// `fill` values for each row in the padding). A row with neither bias nor clamp (nil
    /// `bias`, infinite bounds) takes the specialization without the epilogue.
    @inlinable @inline(__always)
    public static func row(
        _ shape: DepthwiseKxKRow, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<Float>>,
        fill: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, lower: Float,
        upper: Float, out: UnsafeMutablePointer<Float>
    ) {
        guard shape.size == K.taps, shape.channels > 0, shape.outputWidth > 0 else { return }
        if bias == nil && lower == -.infinity && upper == .infinity {
            Self(shape, weights: weights, bias: fill, lower: lower, upper: upper)
                .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
        } else {
            DepthwiseKxKF32Walk<K, L, Depthwise3x3BiasAndClamp>(
                shape, weights: weights, bias: bias ?? fill, lower: lower, upper: upper
            )
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
        }
    }
}

/// The integer operations of one level for ``DepthwiseKxKQ8Walk``: `width` channels of
/// `Int32` sums per vector.
public protocol DepthwiseQ8Lanes {
    associatedtype Vector
    /// Channels per vector.
    static var width: Int { get }
    static var zero: Vector { get }
    /// `acc + code(p[i])·w[i]` for the `width` lanes: `width` bytes read as codes (`Int8`
    /// or `UInt8`, the lanes' choice) times `width` `Int32` weights, wrapping.
    static func mac(_ acc: Vector, _ p: UnsafePointer<UInt8>, _ w: UnsafePointer<Int32>) -> Vector
    static func store(_ v: Vector, _ o: UnsafeMutablePointer<Int32>)
    /// One byte as a code.
    static func code(_ b: UInt8) -> Int32
}

/// One output row of a K×K depthwise convolution on 8-bit codes, in exact `Int32`
/// arithmetic (``DepthwiseKxKTiles``):
///
///     out[ox·P + c] = Σ_{ky, kx} code(r_ky[(ox·stride - padLeft + kx)·P + c]) · w[(K·ky + kx)·P + c]
///
/// with `w` the centered weights `w - zw` as `Int32`, `[K·K, P]`, and taps in the padding
/// reading `fill` (the input zero point `zx`, `channels` bytes; rows in the padding are
/// rows of `zx`). The caller adds `bias - zx·Σ_t w_t` per channel, which turns the
/// all-tap sum into TFLite's in-image sum of `(x - zx)·(w - zw)` exactly, as for the 3×3
/// row (`depthwiseConv3x3Q8AVX2`). Every product and partial sum is an integer far inside
/// `Int32` (`25·255·255` for 5×5), so the order does not matter. Channels past the last
/// multiple of the lane width are summed one at a time, reading nothing past the last
/// channel.
@frozen
public struct DepthwiseKxKQ8Walk<K: DepthwiseKernelSize, L: DepthwiseQ8Lanes> {
    @usableFromInline let shape: DepthwiseKxKRow
    @usableFromInline let w: UnsafePointer<Int32>

    @inlinable @inline(__always)
    public init(_ shape: DepthwiseKxKRow, weights: UnsafePointer<Int32>) {
        self.shape = shape
        w = weights
    }

    /// One output row of sums (`outputWidth · P` `Int32`, channels `0 ..< channels` of each
    /// pixel written). `rows` holds the window's `K` input rows.
    @inlinable @inline(__always)
    public func row(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, fill: UnsafePointer<UInt8>, channelsOutside: Bool,
        out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape
        guard s.size == K.taps, s.channels > 0, s.outputWidth > 0 else { return }
        let full = s.channels - s.channels % L.width
        @inline(__always) func blocks(_ body: (Int) -> Void) {
            var c = 0
            while c < full {
                body(c)
                c += L.width
            }
        }
        if channelsOutside {
            blocks { c in
                DepthwiseKxKTiles.forEachOutput(
                    s, tile: { tile(rows, $0, c, out) }, single: { pixel(rows, $0, c, fill, out) })
            }
        } else {
            DepthwiseKxKTiles.forEachOutput(
                s, tile: { ox in blocks { tile(rows, ox, $0, out) } },
                single: { ox in blocks { pixel(rows, ox, $0, fill, out) } })
        }
        guard full < s.channels else { return }
        for ox in 0 ..< s.outputWidth { scalarChannels(from: full, rows, ox, fill, out) }
    }

    /// Channel block `c` of the four interior outputs from `ox`.
    @inlinable @inline(__always)
    func tile(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, _ ox: Int, _ c: Int, _ out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape, P = s.pixelStride, n = K.taps
        let first = (ox * s.stride - s.padLeft) * P + c, step = s.stride * P
        var a0 = L.zero, a1 = a0, a2 = a0, a3 = a0
        for ky in 0 ..< n {
            let r = rows[ky] + first
            for kx in 0 ..< n {
                let k = w + (ky * n + kx) * P + c, x = r + kx * P
                a0 = L.mac(a0, x, k)
                a1 = L.mac(a1, x + step, k)
                a2 = L.mac(a2, x + 2 * step, k)
                a3 = L.mac(a3, x + 3 * step, k)
            }
        }
        let o = out + ox * P + c
        L.store(a0, o)
        L.store(a1, o + P)
        L.store(a2, o + 2 * P)
        L.store(a3, o + 3 * P)
    }

    /// Channel block `c` of output `ox`, taps outside the row reading `fill`.
    @inlinable @inline(__always)
    func pixel(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, _ ox: Int, _ c: Int, _ fill: UnsafePointer<UInt8>,
        _ out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape, P = s.pixelStride, n = K.taps
        var acc = L.zero
        for ky in 0 ..< n {
            let r = rows[ky]
            for kx in 0 ..< n { acc = L.mac(acc, s.tap(r, column: ox, kx, fill: fill) + c, w + (ky * n + kx) * P + c) }
        }
        L.store(acc, out + ox * P + c)
    }

    /// Channels `first ..< channels` of output `ox`, one at a time.
    @inlinable @inline(__always)
    func scalarChannels(
        from first: Int, _ rows: UnsafePointer<UnsafePointer<UInt8>>, _ ox: Int, _ fill: UnsafePointer<UInt8>,
        _ out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape, P = s.pixelStride, n = K.taps
        for c in first ..< s.channels {
            var acc: Int32 = 0
            for ky in 0 ..< n {
                for kx in 0 ..< n {
                    let x = s.tap(rows[ky], column: ox, kx, fill: fill)
                    acc &+= L.code(x[c]) &* w[(ky * n + kx) * P + c]
                }
            }
            out[ox * P + c] = acc
        }
    }
}
