/// An elementwise function of two operands of one scalar type: `y = f(a, b)`.
///
/// The SIMD form must give, lane by lane, exactly what the scalar form gives, so
/// results do not depend on where a run starts (and so on the thread count).
protocol BinaryElementOp {
    associatedtype Scalar: ClampableScalar
    static func apply(_ a: Scalar, _ b: Scalar) -> Scalar
    static func apply(_ a: SIMD8<Scalar>, _ b: SIMD8<Scalar>) -> SIMD8<Scalar>
    /// `y[k] = clamp(apply(a[k * sa], b[k * sb]))` for `k < n`, with strides 0 or 1.
    /// A requirement (with the default below) so that each op's conformance carries a
    /// loop specialized for it: the kernel reaches it through the witness table, and
    /// an unspecialized generic SIMD loop would be orders of magnitude slower.
    static func run(_ a: UnsafePointer<Scalar>, _ sa: Int, _ b: UnsafePointer<Scalar>, _ sb: Int,
                    _ y: UnsafeMutablePointer<Scalar>, _ n: Int, _ clamp: OutputClamp<Scalar>?)
}

/// Optional clamp of results to `[lower, upper]` (a fused activation), applied as
/// `min(max(y, lower), upper)` with TFLite's comparison order (NaN passes through).
struct OutputClamp<Scalar: ClampableScalar>: Sendable {
    let lower: Scalar
    let upper: Scalar

    @inline(__always)
    func apply(_ y: Scalar) -> Scalar {
        let low = y < lower ? lower : y
        return upper < low ? upper : low
    }

    @inline(__always)
    func apply(_ y: SIMD8<Scalar>) -> SIMD8<Scalar> {
        Scalar.clamp(y, SIMD8(repeating: lower), SIMD8(repeating: upper))
    }
}

/// A scalar type with a SIMD clamp written for the concrete type: the mask operations
/// reached through a generic `Comparable` scalar were measured ~40x slower in release
/// builds than the concrete `SIMD8<Float>` / `SIMD8<Int32>` ones.
protocol ClampableScalar: SIMDScalar, Comparable, Hashable, Codable, Sendable {
    /// `min(max(y, lower), upper)` lane by lane, in the order of `OutputClamp.apply`.
    static func clamp(_ y: SIMD8<Self>, _ lower: SIMD8<Self>, _ upper: SIMD8<Self>) -> SIMD8<Self>
}

extension Float: ClampableScalar {
    @inline(__always)
    static func clamp(_ y: SIMD8<Float>, _ lower: SIMD8<Float>, _ upper: SIMD8<Float>) -> SIMD8<Float> {
        let low = y.replacing(with: lower, where: y .< lower)
        return low.replacing(with: upper, where: upper .< low)
    }
}

extension Int32: ClampableScalar {
    @inline(__always)
    static func clamp(_ y: SIMD8<Int32>, _ lower: SIMD8<Int32>, _ upper: SIMD8<Int32>) -> SIMD8<Int32> {
        let low = y.replacing(with: lower, where: y .< lower)
        return low.replacing(with: upper, where: upper .< low)
    }
}

/// `output = clamp(Op(a, b))` with `a` and `b` broadcast to the output shape.
///
/// Work is split over output elements; each element is computed the same way wherever
/// a chunk boundary falls, so results are identical for any thread count.
struct BroadcastBinaryKernel<Op: BinaryElementOp>: PreparedKernel {
    typealias Scalar = Op.Scalar
    let a: Int
    let b: Int
    let output: Int
    let broadcast: Broadcast
    let clamp: OutputClamp<Scalar>?
    /// Elements per thread below which splitting is not worth it.
    static var minimumChunk: Int { 1 << 14 }

    func eval(_ context: EvalContext) throws(KernelError) {
        let pa = UnsafePointer(context.pointer(a, as: Scalar.self))
        let pb = UnsafePointer(context.pointer(b, as: Scalar.self))
        let py = context.pointer(output, as: Scalar.self)
        let (sa, sb) = broadcast.innerStrides
        let broadcast = self.broadcast
        let clamp = self.clamp
        context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: Self.minimumChunk) { range in
            broadcast.forEachRun(in: range) { o, ia, ib, n in
                Op.run(pa + ia, sa, pb + ib, sb, py + o, n, clamp)
            }
        }
    }
}

extension BinaryElementOp {
    static func run(_ a: UnsafePointer<Scalar>, _ sa: Int, _ b: UnsafePointer<Scalar>, _ sb: Int,
                    _ y: UnsafeMutablePointer<Scalar>, _ n: Int, _ clamp: OutputClamp<Scalar>?) {
        switch (sa, sb) {
        case (1, 1): vectorVector(a, b, y, n)
        case (1, _): vectorScalar(a, b[0], y, n)
        case (_, 1): scalarVector(a[0], b, y, n)
        default: scalarScalar(a[0], b[0], y, n)
        }
        if let clamp { Self.clamp(y, n, clamp) }
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<Scalar>) -> SIMD8<Scalar> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Scalar>.self)
    }

    @inline(__always)
    static func store(_ v: SIMD8<Scalar>, _ p: UnsafeMutablePointer<Scalar>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Scalar>.self)
    }

    static func vectorVector(_ a: UnsafePointer<Scalar>, _ b: UnsafePointer<Scalar>, _ y: UnsafeMutablePointer<Scalar>, _ n: Int) {
        var i = 0
        while i + 8 <= n {
            store(apply(load(a + i), load(b + i)), y + i)
            i += 8
        }
        while i < n { y[i] = apply(a[i], b[i]); i += 1 }
    }

    static func vectorScalar(_ a: UnsafePointer<Scalar>, _ b: Scalar, _ y: UnsafeMutablePointer<Scalar>, _ n: Int) {
        let vb = SIMD8<Scalar>(repeating: b)
        var i = 0
        while i + 8 <= n {
            store(apply(load(a + i), vb), y + i)
            i += 8
        }
        while i < n { y[i] = apply(a[i], b); i += 1 }
    }

    static func scalarVector(_ a: Scalar, _ b: UnsafePointer<Scalar>, _ y: UnsafeMutablePointer<Scalar>, _ n: Int) {
        let va = SIMD8<Scalar>(repeating: a)
        var i = 0
        while i + 8 <= n {
            store(apply(va, load(b + i)), y + i)
            i += 8
        }
        while i < n { y[i] = apply(a, b[i]); i += 1 }
    }

    static func scalarScalar(_ a: Scalar, _ b: Scalar, _ y: UnsafeMutablePointer<Scalar>, _ n: Int) {
        let v = apply(a, b)
        for i in 0 ..< n { y[i] = v }
    }

    static func clamp(_ y: UnsafeMutablePointer<Scalar>, _ n: Int, _ clamp: OutputClamp<Scalar>) {
        var i = 0
        while i + 8 <= n {
            store(clamp.apply(load(UnsafePointer(y + i))), y + i)
            i += 8
        }
        while i < n { y[i] = clamp.apply(y[i]); i += 1 }
    }
}
