/// The 5×5 depthwise rows of the portable level: ``DepthwiseKxKF32Walk`` and
/// ``DepthwiseKxKQ8Walk`` compiled for the baseline (SSE2 on x86-64, Advanced SIMD on
/// aarch64). The float row has the contract of `depthwiseConv5x5F32AVX2`, with four-lane
/// vectors and the multiply and the add rounded separately (so its sums differ from the
/// fused ones in the last bits); the 8-bit row has the contract of `depthwiseConv5x5Q8AVX2`
/// and the same exact sums.
@inline(never)
public func depthwiseConv5x5F32Portable(
    _ shape: DepthwiseKxKRow, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<Float>>,
    fill: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, lower: Float,
    upper: Float, out: UnsafeMutablePointer<Float>
) {
    DepthwiseKxKF32Walk<DepthwiseKernel5x5, DepthwisePortableF32Lanes, Depthwise3x3SumsOnly>.row(
        shape, channelsOutside: channelsOutside, rows: rows, fill: fill, weights: weights, bias: bias, lower: lower,
        upper: upper, out: out)
}

/// See ``depthwiseConv5x5F32Portable(_:channelsOutside:rows:fill:weights:bias:lower:upper:out:)``.
@inline(never)
public func depthwiseConv5x5Q8Portable(
    _ shape: DepthwiseKxKRow, signed: Bool, channelsOutside: Bool, rows: UnsafePointer<UnsafePointer<UInt8>>,
    fill: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, out: UnsafeMutablePointer<Int32>
) {
    if signed {
        DepthwiseKxKQ8Walk<DepthwiseKernel5x5, DepthwisePortableQ8Lanes<Int8>>(shape, weights: weights)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
    } else {
        DepthwiseKxKQ8Walk<DepthwiseKernel5x5, DepthwisePortableQ8Lanes<UInt8>>(shape, weights: weights)
            .row(rows, fill: fill, channelsOutside: channelsOutside, out: out)
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

/// Eight `Int32` sums per `SIMD8<Int32>`, the bytes read as `Code` (`Int8` or `UInt8`).
/// The weights are centered 8-bit values, so they are narrowed to `Int16` and widened
/// back: LLVM then knows both factors are 16-bit and multiplies with 16-bit instructions
/// instead of emulating a 32-bit multiply on SSE2.
enum DepthwisePortableQ8Lanes<Code: FixedWidthInteger & SIMDScalar>: DepthwiseQ8Lanes {
    static var width: Int { 8 }
    static var zero: SIMD8<Int32> { SIMD8(repeating: 0) }

    @inline(__always)
    static func mac(_ acc: SIMD8<Int32>, _ p: UnsafePointer<UInt8>, _ w: UnsafePointer<Int32>) -> SIMD8<Int32> {
        let x = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Code>.self))
        let k = SIMD8<Int32>(
            truncatingIfNeeded: SIMD8<Int16>(
                truncatingIfNeeded: UnsafeRawPointer(w).loadUnaligned(as: SIMD8<Int32>.self)))
        return acc &+ x &* k
    }

    @inline(__always)
    static func store(_ v: SIMD8<Int32>, _ o: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(o).storeBytes(of: v, as: SIMD8<Int32>.self)
    }

    @inline(__always)
    static func code(_ b: UInt8) -> Int32 { Int32(truncatingIfNeeded: Code(truncatingIfNeeded: b)) }
}
