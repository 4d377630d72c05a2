/// The loops of one output row of a K×K depthwise convolution (``DepthwiseKxKRow``), shared
/// by every level and by float and 8-bit codes: the lanes (``DepthwiseKxKLanes``) supply
/// the vector multiply-add and the store, the filter size (`K`) and the stride (`S`) are
/// types, so that every loop over taps and outputs has constant trip counts and unrolls.
/// The walk is `@inlinable` and generic, so each level specializes it in its own module
/// with its own instructions.
///
/// Interior outputs go in tiles of up to four horizontally adjacent outputs: each tap's
/// weight vector is loaded once for the tile, whose accumulators stay in registers over
/// all `K·K` taps, and with the stride known, an input column that several outputs of the
/// tile read (stride 1: eight columns for four outputs of a 5-tap row) is loaded once for
/// them (a 5×5 filter's 25 weight vectors do not fit the register file, so the 3×3 walks'
/// weights-in-registers row runs do not carry over). With `channelsOutside` the channel
/// blocks are the outer loop and the tiles walk along the row; otherwise every block of one
/// tile is done before the next tile. Border outputs go one at a time, each tap pointing
/// into its row or at the fill. Every path sums the taps of one output in `(ky, kx)` order
/// from zero, so an output's value does not depend on the path that computed it.
@frozen
public struct DepthwiseKxKWalk<K: DepthwiseKernelSize, S: DepthwiseStride, L: DepthwiseKxKLanes> {
    @usableFromInline let shape: DepthwiseKxKRow
    @usableFromInline let w: UnsafePointer<L.Weight>
    @usableFromInline let lanes: L

    @inlinable @inline(__always)
    public init(_ shape: DepthwiseKxKRow, weights: UnsafePointer<L.Weight>, lanes: L) {
        self.shape = shape
        w = weights
        self.lanes = lanes
    }

    @inlinable @inline(__always)
    var stride: Int { S.value == 0 ? shape.stride : S.value }

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

    /// `body(ox, count)` for the interior outputs in tiles of four from the first, and one
    /// tile of the last one to three.
    @inlinable @inline(__always)
    func forEachTile(_ body: (Int, Int) -> Void) {
        let inner = shape.interior
        var ox = inner.lowerBound
        while ox + 4 <= inner.upperBound {
            body(ox, 4)
            ox += 4
        }
        if ox < inner.upperBound { body(ox, inner.upperBound - ox) }
    }

    /// One output row: `rows` holds the window's `K` input rows (a row of `fill` values for
    /// each row in the padding); taps left or right of a row read `fill`.
    @inlinable @inline(__always)
    public func row(
        _ rows: UnsafePointer<UnsafePointer<L.Input>>, fill: UnsafePointer<L.Input>, channelsOutside: Bool,
        out: UnsafeMutablePointer<L.Output>
    ) {
        let s = shape
        guard s.size == K.taps, s.channels > 0, s.outputWidth > 0 else { return }
        @inline(__always) func tiles(_ ox: Int, _ count: Int, _ c: Int, _ masked: Bool) {
            switch count {
            case 4: tile(rows, ox, 4, c, masked, out)
            case 3: tile(rows, ox, 3, c, masked, out)
            case 2: tile(rows, ox, 2, c, masked, out)
            default: tile(rows, ox, 1, c, masked, out)
            }
        }
        if channelsOutside {
            forEachBlock { c, masked in forEachTile { tiles($0, $1, c, masked) } }
        } else {
            forEachTile { ox, count in forEachBlock { tiles(ox, count, $0, $1) } }
        }
        for ox in 0 ..< s.outputWidth where !s.interior.contains(ox) {
            forEachBlock { pixel(rows, ox, $0, $1, fill, out) }
        }
    }

    /// Channel block `c` of the `count` (1 to 4) interior outputs from `ox`.
    @inlinable @inline(__always)
    func tile(
        _ rows: UnsafePointer<UnsafePointer<L.Input>>, _ ox: Int, _ count: Int, _ c: Int, _ masked: Bool,
        _ out: UnsafeMutablePointer<L.Output>
    ) {
        let P = shape.pixelStride, n = K.taps, st = stride
        let first = (ox * st - shape.padLeft) * P + c
        var a0 = lanes.zero, a1 = a0, a2 = a0, a3 = a0
        for ky in 0 ..< n {
            let r = rows[ky] + first
            for kx in 0 ..< n {
                let k = w + (ky * n + kx) * P + c
                a0 = lanes.mac(a0, r + kx * P, k, masked)
                if count > 1 { a1 = lanes.mac(a1, r + (st + kx) * P, k, masked) }
                if count > 2 { a2 = lanes.mac(a2, r + (2 * st + kx) * P, k, masked) }
                if count > 3 { a3 = lanes.mac(a3, r + (3 * st + kx) * P, k, masked) }
            }
        }
        let o = out + ox * P + c
        lanes.finish(a0, o, channel: c, masked)
        if count > 1 { lanes.finish(a1, o + P, channel: c, masked) }
        if count > 2 { lanes.finish(a2, o + 2 * P, channel: c, masked) }
        if count > 3 { lanes.finish(a3, o + 3 * P, channel: c, masked) }
    }

    /// Channel block `c` of output `ox`, taps outside the row reading `fill`.
    @inlinable @inline(__always)
    func pixel(
        _ rows: UnsafePointer<UnsafePointer<L.Input>>, _ ox: Int, _ c: Int, _ masked: Bool,
        _ fill: UnsafePointer<L.Input>, _ out: UnsafeMutablePointer<L.Output>
    ) {
        let s = shape, P = s.pixelStride, n = K.taps
        var acc = lanes.zero
        for ky in 0 ..< n {
            let r = rows[ky]
            for kx in 0 ..< n {
                acc = lanes.mac(acc, s.tap(r, column: ox, kx, fill: fill) + c, w + (ky * n + kx) * P + c, masked)
            }
        }
        lanes.finish(acc, out + ox * P + c, channel: c, masked)
    }
}

/// The vector operations of one level and element type for ``DepthwiseKxKWalk``: `width`
/// channels per vector, a multiply-add, and the store of finished sums.
public protocol DepthwiseKxKLanes {
    associatedtype Input
    associatedtype Weight
    associatedtype Output
    associatedtype Vector
    /// Channels per vector.
    static var width: Int { get }
    var zero: Vector { get }
    /// `acc + x·w` lane by lane over one block of channels; when `masked`, the last
    /// `channels mod width` channels only, reading nothing past them.
    func mac(_ acc: Vector, _ x: UnsafePointer<Input>, _ w: UnsafePointer<Weight>, _ masked: Bool) -> Vector
    /// Stores the finished sums of the block at channel `c` (of the slice) to `o`, after the
    /// lanes' epilogue; when `masked`, the tail's channels only.
    func finish(_ acc: Vector, _ o: UnsafeMutablePointer<Output>, channel c: Int, _ masked: Bool)
}

/// A horizontal stride as a type (``DepthwiseStride1``, ``DepthwiseStride2``), or
/// ``DepthwiseStrideAny`` for the shape's.
public protocol DepthwiseStride {
    /// The stride, or 0 for the shape's.
    static var value: Int { get }
}
public enum DepthwiseStride1: DepthwiseStride { @inlinable public static var value: Int { 1 } }
public enum DepthwiseStride2: DepthwiseStride { @inlinable public static var value: Int { 2 } }
public enum DepthwiseStrideAny: DepthwiseStride { @inlinable public static var value: Int { 0 } }

/// Float lanes for ``DepthwiseKxKWalk`` from a level's 3×3 lanes: fused (or the level's)
/// multiply-add, and, when `Epilogue` says so, the bias added and the clamp applied to each
/// block before it is stored.
@frozen
public struct DepthwiseKxKF32Lanes<L: Depthwise3x3F32Lanes, Epilogue: Depthwise3x3Epilogue>: DepthwiseKxKLanes {
    public typealias Input = Float
    public typealias Weight = Float
    public typealias Output = Float
    @usableFromInline let lanes: L
    @usableFromInline let bias: UnsafePointer<Float>
    @usableFromInline let lower: L.Vector, upper: L.Vector

    @inlinable @inline(__always)
    init(channels: Int, bias: UnsafePointer<Float>, lower: Float, upper: Float) {
        lanes = L(channels: channels)
        self.bias = bias
        self.lower = lanes.splat(lower)
        self.upper = lanes.splat(upper)
    }

    @inlinable public static var width: Int { L.width }
    @inlinable public var zero: L.Vector { lanes.splat(0) }

    @inlinable @inline(__always)
    public func mac(_ acc: L.Vector, _ x: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ masked: Bool)
        -> L.Vector
    {
        lanes.fma(lanes.load(x, masked), lanes.load(w, masked), acc)
    }

    @inlinable @inline(__always)
    public func finish(_ acc: L.Vector, _ o: UnsafeMutablePointer<Float>, channel c: Int, _ masked: Bool) {
        var v = acc
        if Epilogue.enabled { v = lanes.clamp(lanes.add(v, lanes.load(bias + c, masked)), lower, upper) }
        lanes.store(v, o, masked)
    }
}

/// The float row of a level: ``DepthwiseKxKWalk`` with the level's lanes `L`, specialized
/// for the stride (1, 2, else the shape's) and for rows with neither bias nor clamp (nil
/// `bias`, infinite bounds), which skip the epilogue.
@inlinable @inline(__always)
public func depthwiseKxKF32Row<K: DepthwiseKernelSize, L: Depthwise3x3F32Lanes>(
    _: K.Type, _: L.Type, _ shape: DepthwiseKxKRow, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<Float>>,
    fill: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, lower: Float,
    upper: Float, out: UnsafeMutablePointer<Float>
) {
    if bias == nil && lower == -.infinity && upper == .infinity {
        depthwiseKxKRow(
            K.self, shape,
            DepthwiseKxKF32Lanes<L, Depthwise3x3SumsOnly>(
                channels: shape.channels, bias: fill, lower: lower, upper: upper),
            typedStrides: 1 ... 2, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights,
            out: out)
    } else {
        depthwiseKxKRow(
            K.self, shape,
            DepthwiseKxKF32Lanes<L, Depthwise3x3BiasAndClamp>(
                channels: shape.channels, bias: bias ?? fill, lower: lower, upper: upper),
            typedStrides: 1 ... 2, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights,
            out: out)
    }
}

/// ``DepthwiseKxKWalk``'s row with `lanes`, the stride a type when it is in `typedStrides`
/// (1 or 2), else a run-time value. The 8-bit rows keep stride 1 a run-time value: each
/// tap's widening load then reads its column again, instead of the tile's eight widened
/// columns staying live across the taps beside the four accumulators.
@inlinable @inline(__always)
public func depthwiseKxKRow<K: DepthwiseKernelSize, L: DepthwiseKxKLanes>(
    _: K.Type, _ shape: DepthwiseKxKRow, _ lanes: L, typedStrides: ClosedRange<Int>, channelsOutside: Bool,
    rows: UnsafePointer<UnsafePointer<L.Input>>, fill: UnsafePointer<L.Input>, weights: UnsafePointer<L.Weight>,
    out: UnsafeMutablePointer<L.Output>
) {
    switch shape.stride {
    case 1 where typedStrides.contains(1):
        DepthwiseKxKWalk<K, DepthwiseStride1, L>(shape, weights: weights, lanes: lanes)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
    case 2 where typedStrides.contains(2):
        DepthwiseKxKWalk<K, DepthwiseStride2, L>(shape, weights: weights, lanes: lanes)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
    default:
        DepthwiseKxKWalk<K, DepthwiseStrideAny, L>(shape, weights: weights, lanes: lanes)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
    }
}
