extension Reduce {
    static func float32(_ kind: Kind, input: Int, output: Int, geometry: ReductionGeometry) -> any PreparedKernel {
        switch kind {
        case .sum:
            return ReduceF32Kernel<SumF32>(input: input, output: output, geometry: geometry, divisor: nil)
        case .mean:
            let divisor = geometry.reducedCount > 0 ? Float(geometry.reducedCount) : nil
            return ReduceF32Kernel<SumF32>(input: input, output: output, geometry: geometry, divisor: divisor)
        case .max:
            return ReduceF32Kernel<MaxF32>(input: input, output: output, geometry: geometry, divisor: nil)
        }
    }
}

/// An accumulation `acc = combine(acc, x)` from `initial`. The loops are plain pointer
/// loops (the column reduction vectorizes across columns); a `SIMD8` form of MAX with
/// `replacing(with:where:)` was measured several times slower.
protocol ReducerF32 {
    static var initial: Float { get }
    static func combine(_ acc: Float, _ x: Float) -> Float
    // The loops are requirements (with defaults below) so each reducer's conformance
    // carries copies specialized for it; the generic kernel reaches them through the
    // witness table.
    /// Reduction of `x[0 ..< n]`, left to right.
    static func reduceRow(_ x: UnsafePointer<Float>, _ n: Int) -> Float
    /// `y[c] = reduce over r of x[r * rowStride + c]` for `c < count`, r ascending.
    static func reduceColumns(
        _ x: UnsafePointer<Float>, rows: Int, rowStride: Int, into y: UnsafeMutablePointer<Float>, count: Int)
    /// Reduction of `x[offset + r * stride]` for `r < n`, continuing from `acc`.
    static func reduceStrided(_ acc: Float, _ x: UnsafePointer<Float>, _ n: Int, stride: Int) -> Float
}

extension ReducerF32 {
    static func reduceRow(_ x: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = initial
        for r in 0 ..< n { acc = combine(acc, x[r]) }
        return acc
    }

    static func reduceStrided(_ acc: Float, _ x: UnsafePointer<Float>, _ n: Int, stride: Int) -> Float {
        var acc = acc
        for r in 0 ..< n { acc = combine(acc, x[r * stride]) }
        return acc
    }

    static func reduceColumns(
        _ x: UnsafePointer<Float>, rows: Int, rowStride: Int, into y: UnsafeMutablePointer<Float>, count: Int
    ) {
        y.update(repeating: initial, count: count)
        for r in 0 ..< rows {
            let row = x + r * rowStride
            for c in 0 ..< count { y[c] = combine(y[c], row[c]) }
        }
    }
}

enum SumF32: ReducerF32 {
    static var initial: Float { 0 }
    @inline(__always) static func combine(_ acc: Float, _ x: Float) -> Float { acc + x }

    /// Eight running partial sums, added pairwise at the end (the loop vectorizes; a
    /// left-to-right sum waits on each addition's latency). The order differs from
    /// TFLite's left-to-right one by float rounding only, as SOFTMAX's sum does.
    static func reduceRow(_ x: UnsafePointer<Float>, _ n: Int) -> Float {
        var s = (Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0), Float(0))
        var i = 0
        while i + 8 <= n {
            s.0 += x[i]; s.1 += x[i + 1]; s.2 += x[i + 2]; s.3 += x[i + 3]
            s.4 += x[i + 4]; s.5 += x[i + 5]; s.6 += x[i + 6]; s.7 += x[i + 7]
            i += 8
        }
        var total = ((s.0 + s.1) + (s.2 + s.3)) + ((s.4 + s.5) + (s.6 + s.7))
        while i < n {
            total += x[i]
            i += 1
        }
        return total
    }
}

/// TFLite's max reducer: starts from the lowest finite float, `acc > x ? acc : x`.
enum MaxF32: ReducerF32 {
    static var initial: Float { -.greatestFiniteMagnitude }
    @inline(__always) static func combine(_ acc: Float, _ x: Float) -> Float { acc > x ? acc : x }

    /// Eight running maxima, combined at the end: the maximum does not depend on the order
    /// for numbers (up to the sign of a zero). With a NaN it does (the left-to-right rule
    /// keeps the value after the last NaN), so a row with a NaN or an infinity (`x − x` is
    /// then NaN; the probe sums it) is folded again left to right.
    static func reduceRow(_ x: UnsafePointer<Float>, _ n: Int) -> Float {
        let low = initial
        var m = (low, low, low, low, low, low, low, low)
        var probe = (Float(0), Float(0), Float(0), Float(0))
        var i = 0
        while i + 8 <= n {
            m.0 = combine(m.0, x[i]); m.1 = combine(m.1, x[i + 1])
            m.2 = combine(m.2, x[i + 2]); m.3 = combine(m.3, x[i + 3])
            m.4 = combine(m.4, x[i + 4]); m.5 = combine(m.5, x[i + 5])
            m.6 = combine(m.6, x[i + 6]); m.7 = combine(m.7, x[i + 7])
            probe.0 += (x[i] - x[i]) + (x[i + 4] - x[i + 4])
            probe.1 += (x[i + 1] - x[i + 1]) + (x[i + 5] - x[i + 5])
            probe.2 += (x[i + 2] - x[i + 2]) + (x[i + 6] - x[i + 6])
            probe.3 += (x[i + 3] - x[i + 3]) + (x[i + 7] - x[i + 7])
            i += 8
        }
        guard !((probe.0 + probe.1) + (probe.2 + probe.3)).isNaN else {
            var acc = initial
            for r in 0 ..< n { acc = combine(acc, x[r]) }
            return acc
        }
        var acc = combine(combine(combine(m.0, m.1), combine(m.2, m.3)), combine(combine(m.4, m.5), combine(m.6, m.7)))
        while i < n {
            acc = combine(acc, x[i])
            i += 1
        }
        return acc
    }
}

/// A float reduction; MEAN is SUM followed by a division by `divisor`.
///
/// Work is split over output elements and each one accumulates its inputs on its own
/// (in row-major order, except a last-axis row: see ``SumF32/reduceRow(_:_:)`` and
/// ``MaxF32/reduceRow(_:_:)``), so results are identical for any thread count.
struct ReduceF32Kernel<R: ReducerF32>: PreparedKernel {
    let input: Int
    let output: Int
    let geometry: ReductionGeometry
    let divisor: Float?

    /// Input elements per thread below which splitting is not worth it.
    static var minimumWork: Int { 1 << 14 }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let parallel = context.parallel
        let divisor = self.divisor
        let perOutput = Swift.max(geometry.reducedCount, 1)
        let minimumOutputs = Swift.max(1, Self.minimumWork / perOutput)
        switch geometry.layout {
        case .elementwise(let count):
            // One row of columns, `y = combine(initial, x)`: this `eval` is not specialized
            // for R, so an elementwise loop here would call `combine` through a witness
            // per element.
            parallel.forEachChunk(count, minimumChunk: Self.minimumWork) { range in
                R.reduceColumns(
                    x + range.lowerBound, rows: 1, rowStride: 0, into: y + range.lowerBound, count: range.count)
                Self.divide(y + range.lowerBound, range.count, divisor)
            }
        case .empty(let count):
            y.update(repeating: R.initial, count: count)
        case .inner(let outer, let reduced):
            parallel.forEachChunk(outer, minimumChunk: minimumOutputs) { range in
                for o in range {
                    y[o] = R.reduceRow(x + o * reduced, reduced)
                }
                Self.divide(y + range.lowerBound, range.count, divisor)
            }
        case .middle(let outer, let reduced, let inner):
            parallel.forEachChunk(outer * inner, minimumChunk: minimumOutputs) { range in
                var start = range.lowerBound
                while start < range.upperBound {
                    // One segment of an outer row: output columns c0 ..< c1 of row o.
                    let o = start / inner, c0 = start % inner
                    let c1 = Swift.min(inner, c0 + (range.upperBound - start))
                    R.reduceColumns(
                        x + o * reduced * inner + c0, rows: reduced, rowStride: inner,
                        into: y + start, count: c1 - c0)
                    start += c1 - c0
                }
                Self.divide(y + range.lowerBound, range.count, divisor)
            }
        case .general(let kept, let reduced):
            parallel.forEachChunk(geometry.outputCount, minimumChunk: minimumOutputs) { range in
                for o in range { y[o] = Self.reduceGeneral(x, outputIndex: o, kept: kept, reduced: reduced) }
                Self.divide(y + range.lowerBound, range.count, divisor)
            }
        }
    }

    /// Output element `outputIndex` of the general layout: its kept-group index gives
    /// the base offset, then the reduced groups are walked in row-major order.
    static func reduceGeneral(
        _ x: UnsafePointer<Float>, outputIndex: Int, kept: [ReductionGeometry.Group], reduced: [ReductionGeometry.Group]
    ) -> Float {
        var base = 0
        var rest = outputIndex
        for g in kept.reversed() {
            base += (rest % g.size) * g.stride
            rest /= g.size
        }
        var acc = R.initial
        var index = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &index) { raw in
            let idx = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            reduced.withUnsafeBufferPointer { groups in
                let last = groups.count - 1
                let n = groups[last].size, s = groups[last].stride
                var offset = base
                while true {
                    acc = R.reduceStrided(acc, x + offset, n, stride: s)
                    let more = advanceOdometer(idx, axes: last, size: { groups[$0].size }) { d, wrapped in
                        offset += wrapped ? -groups[d].stride * (groups[d].size - 1) : groups[d].stride
                    }
                    if !more { return }
                }
            }
        }
        return acc
    }

    @inline(__always)
    static func divide(_ y: UnsafeMutablePointer<Float>, _ count: Int, _ divisor: Float?) {
        guard let divisor else { return }
        for i in 0 ..< count { y[i] = y[i] / divisor }
    }
}
