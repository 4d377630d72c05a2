/// The 5×5 depthwise rows of the portable level: ``DepthwiseKxKWalk`` compiled for the
/// baseline (SSE2 on x86-64, Advanced SIMD on aarch64). The float row has the contract of
/// `depthwiseConv5x5F32AVX2`, with four-lane vectors and the multiply and the add rounded
/// separately (so its sums differ from the fused ones in the last bits).
///
/// The 8-bit row, in exact `Int32` arithmetic:
///
///     out[ox·P + c] = Σ_{ky, kx} code(r_ky[(ox·stride - padLeft + kx)·P + c]) · w[(5·ky + kx)·P + c]
///
/// with `code(b)` the byte read as `Int8` (`signed`) or `UInt8`, `w` the centered weights
/// `w - zw` as `Int32`, `[25, P]`, and taps in the padding reading `fill` (the input zero
/// point `zx`; rows in the padding are rows of `zx`). The caller adds `bias - zx·Σ_t w_t`
/// per channel, which turns the all-tap sum into TFLite's in-image sum of
/// `(x - zx)·(w - zw)` exactly, as for the 3×3 row (`depthwiseConv3x3Q8AVX2`). Every
/// product and partial sum is an integer far inside `Int32` (`25·255·255`), so the order
/// does not matter and every level gives the same sums.
@inline(never)
public func depthwiseConv5x5F32Portable(
    _ shape: DepthwiseKxKRow, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<Float>>,
    fill: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, lower: Float,
    upper: Float, out: UnsafeMutablePointer<Float>
) {
    depthwiseKxKF32Row(
        DepthwiseKernel5x5.self, DepthwisePortableF32Lanes.self, shape, channelsOutside: channelsOutside, rows: rows,
        fill: fill, weights: weights, bias: bias, lower: lower, upper: upper, out: out)
}

/// See ``depthwiseConv5x5F32Portable(_:channelsOutside:rows:fill:weights:bias:lower:upper:out:)``.
@inline(never)
public func depthwiseConv5x5Q8Portable(
    _ shape: DepthwiseKxKRow, signed: Bool, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<UInt8>>,
    fill: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, out: UnsafeMutablePointer<Int32>
) {
    if signed {
        depthwiseKxKRow(
            DepthwiseKernel5x5.self, shape, DepthwisePortableQ8Lanes<Int8>(channels: shape.channels),
            typedStrides: 2 ... 2, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights,
            out: out)
    } else {
        depthwiseKxKRow(
            DepthwiseKernel5x5.self, shape, DepthwisePortableQ8Lanes<UInt8>(channels: shape.channels),
            typedStrides: 2 ... 2, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights,
            out: out)
    }
}

/// Four channels per `SIMD4<Float>`, multiply and add rounded separately; the last
/// `C mod 4` channels gathered and stored lane by lane.
struct DepthwisePortableF32Lanes: Depthwise3x3F32Lanes {
    static var width: Int { 4 }
    let tail: Int

    @inline(__always) init(channels: Int) { tail = channels & 3 }

    @inline(__always) func splat(_ x: Float) -> SIMD4<Float> { SIMD4(repeating: x) }

    @inline(__always)
    func load(_ p: UnsafePointer<Float>, _ masked: Bool) -> SIMD4<Float> {
        guard masked else { return UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self) }
        var v = SIMD4<Float>(repeating: 0)
        for i in 0 ..< tail { v[i] = p[i] }
        return v
    }

    @inline(__always)
    func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>, _ masked: Bool) {
        guard masked else { return UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self) }
        for i in 0 ..< tail { p[i] = v[i] }
    }

    @inline(__always)
    func fma(_ x: SIMD4<Float>, _ k: SIMD4<Float>, _ acc: SIMD4<Float>) -> SIMD4<Float> { acc + x * k }

    @inline(__always) func add(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a + b }

    /// Below `lower` becomes `lower`, above `upper` becomes `upper`.
    @inline(__always)
    func clamp(_ v: SIMD4<Float>, _ lower: SIMD4<Float>, _ upper: SIMD4<Float>) -> SIMD4<Float> {
        v.replacing(with: lower, where: v .< lower).replacing(with: upper, where: v .> upper)
    }
}

/// Eight `Int32` sums per `SIMD8<Int32>`, the bytes read as `Code` (`Int8` or `UInt8`), the
/// last `C mod 8` channels gathered and stored lane by lane. The weights are centered 8-bit
/// values, so they are narrowed to `Int16` and widened back: LLVM then knows both factors
/// are 16-bit and multiplies with 16-bit instructions instead of emulating a 32-bit
/// multiply on SSE2.
struct DepthwisePortableQ8Lanes<Code: FixedWidthInteger & SIMDScalar>: DepthwiseKxKLanes {
    typealias Input = UInt8
    typealias Weight = Int32
    typealias Output = Int32
    static var width: Int { 8 }
    let tail: Int

    @inline(__always) init(channels: Int) { tail = channels & 7 }

    var zero: SIMD8<Int32> { SIMD8(repeating: 0) }

    @inline(__always)
    func mac(_ acc: SIMD8<Int32>, _ p: UnsafePointer<UInt8>, _ w: UnsafePointer<Int32>, _ masked: Bool)
        -> SIMD8<Int32>
    {
        guard !masked else { return acc &+ DepthwiseTail.codes(p, Code.self, tail) &* DepthwiseTail.weights(w, tail) }
        let x = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Code>.self))
        let k = SIMD8<Int32>(
            truncatingIfNeeded: SIMD8<Int16>(
                truncatingIfNeeded: UnsafeRawPointer(w).loadUnaligned(as: SIMD8<Int32>.self)))
        return acc &+ x &* k
    }

    @inline(__always)
    func finish(_ v: SIMD8<Int32>, _ o: UnsafeMutablePointer<Int32>, channel _: Int, _ masked: Bool) {
        if masked {
            DepthwiseTail.store(v, o, tail)
        } else {
            UnsafeMutableRawPointer(o).storeBytes(of: v, as: SIMD8<Int32>.self)
        }
    }
}

/// The channel tail of the 8-bit K×K lanes (fewer than 8 channels), lane by lane, so that
/// nothing past the last channel is read or written.
public enum DepthwiseTail {
    /// The first `count` bytes at `p` as `Code`s, the other lanes 0.
    @inlinable @inline(__always)
    public static func codes<Code: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _: Code.Type, _ count: Int)
        -> SIMD8<Int32>
    {
        var v = SIMD8<Int32>(repeating: 0)
        for i in 0 ..< count { v[i] = Int32(truncatingIfNeeded: Code(truncatingIfNeeded: p[i])) }
        return v
    }

    /// The first `count` weights at `w`, the other lanes 0.
    @inlinable @inline(__always)
    public static func weights(_ w: UnsafePointer<Int32>, _ count: Int) -> SIMD8<Int32> {
        var v = SIMD8<Int32>(repeating: 0)
        for i in 0 ..< count { v[i] = w[i] }
        return v
    }

    /// Stores the first `count` lanes of `v` at `o`.
    @inlinable @inline(__always)
    public static func store(_ v: SIMD8<Int32>, _ o: UnsafeMutablePointer<Int32>, _ count: Int) {
        for i in 0 ..< count { o[i] = v[i] }
    }
}
