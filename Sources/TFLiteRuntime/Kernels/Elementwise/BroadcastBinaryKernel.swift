/// An elementwise function of two operands of one scalar type: `y = f(a, b)`.
///
/// Only the scalar form is written: the loops below are plain loops over pointers, which
/// LLVM vectorizes. Hand-written `SIMD8` forms were measured slower — several times for
/// the mask-based ones (`replacing(with:where:)`, used for MAXIMUM, MINIMUM, PRELU and
/// the clamp), which are not lowered to min/max/blend instructions.
protocol BinaryElementOp {
    associatedtype Scalar: ClampableScalar
    static func apply(_ a: Scalar, _ b: Scalar) -> Scalar
    /// `y[k] = clamp(apply(a[k * sa], b[k * sb]))` for `k < n`, with strides 0 or 1.
    /// A requirement (with the default below) so that each op's conformance carries a
    /// loop specialized for it: the kernel reaches it through the witness table, and
    /// an unspecialized generic loop would be orders of magnitude slower.
    static func run(
        _ a: UnsafePointer<Scalar>, _ sa: Int, _ b: UnsafePointer<Scalar>, _ sb: Int,
        _ y: UnsafeMutablePointer<Scalar>, _ n: Int, _ clamp: OutputClamp<Scalar>?)
    /// `run` over `rows` rows of `columns` outputs stored one after another, row `r`
    /// reading `a + r·rowA` and `b + r·rowB` (``Broadcast/rows``), in one call (a
    /// requirement for the same reason as `run`).
    static func runRows(
        _ a: UnsafePointer<Scalar>, _ sa: Int, _ rowA: Int, _ b: UnsafePointer<Scalar>, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutablePointer<Scalar>, rows: Int, columns: Int, _ clamp: OutputClamp<Scalar>?)
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

}

/// The scalar types of the binary elementwise kernels.
protocol ClampableScalar: Comparable, Hashable, Sendable {}

extension Float: ClampableScalar {}
extension Int32: ClampableScalar {}

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
    static var minimumChunk: Int { 1 << 11 }

    func eval(_ context: EvalContext) throws(KernelError) {
        let pa = UnsafePointer(context.pointer(a, as: Scalar.self))
        let pb = UnsafePointer(context.pointer(b, as: Scalar.self))
        let py = context.pointer(output, as: Scalar.self)
        let (sa, sb) = broadcast.innerStrides
        let broadcast = self.broadcast
        let clamp = self.clamp
        if let (rows, columns, rowA, rowB) = broadcast.rows {
            // Whole rows per thread, each thread's in one call (a per-channel vector over an
            // image: one call per pixel cost more than its short loop).
            context.parallel.forEachChunk(rows, minimumChunk: Swift.max(1, Self.minimumChunk / Swift.max(columns, 1))) {
                range in
                let r = range.lowerBound
                Op.runRows(
                    pa + r * rowA, sa, rowA, pb + r * rowB, sb, rowB, py + r * columns, rows: range.count,
                    columns: columns, clamp)
            }
            return
        }
        context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: Self.minimumChunk) { range in
            broadcast.forEachRun(in: range) { o, ia, ib, n in
                Op.run(pa + ia, sa, pb + ib, sb, py + o, n, clamp)
            }
        }
    }
}

extension BinaryElementOp {
    static func run(
        _ a: UnsafePointer<Scalar>, _ sa: Int, _ b: UnsafePointer<Scalar>, _ sb: Int,
        _ y: UnsafeMutablePointer<Scalar>, _ n: Int, _ clamp: OutputClamp<Scalar>?
    ) {
        // The clamp goes into the same loop (one pass over `y`, not two), so each case is
        // specialized twice.
        if let clamp {
            runs(a, sa, b, sb, y, n) { clamp.apply($0) }
        } else {
            runs(a, sa, b, sb, y, n) { $0 }
        }
    }

    static func runRows(
        _ a: UnsafePointer<Scalar>, _ sa: Int, _ rowA: Int, _ b: UnsafePointer<Scalar>, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutablePointer<Scalar>, rows: Int, columns: Int, _ clamp: OutputClamp<Scalar>?
    ) {
        if let clamp {
            for r in 0 ..< rows {
                runs(a + r * rowA, sa, b + r * rowB, sb, y + r * columns, columns) { clamp.apply($0) }
            }
        } else {
            for r in 0 ..< rows { runs(a + r * rowA, sa, b + r * rowB, sb, y + r * columns, columns) { $0 } }
        }
    }

    @inline(__always)
    private static func runs(
        _ a: UnsafePointer<Scalar>, _ sa: Int, _ b: UnsafePointer<Scalar>, _ sb: Int,
        _ y: UnsafeMutablePointer<Scalar>, _ n: Int, _ finish: (Scalar) -> Scalar
    ) {
        switch (sa, sb) {
        case (1, 1): for i in 0 ..< n { y[i] = finish(apply(a[i], b[i])) }
        case (1, _): let vb = b[0]; for i in 0 ..< n { y[i] = finish(apply(a[i], vb)) }
        case (_, 1): let va = a[0]; for i in 0 ..< n { y[i] = finish(apply(va, b[i])) }
        default: let v = finish(apply(a[0], b[0])); for i in 0 ..< n { y[i] = v }
        }
    }
}
