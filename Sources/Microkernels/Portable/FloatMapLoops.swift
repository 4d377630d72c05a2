/// An elementwise float function that the levels' map loops compute (``FloatMath``).
public enum FloatFunction: Sendable, Hashable {
    case exp, sigmoid, tanh, gelu, geluTanh, elu, log, sin, cos, reciprocalSquareRoot
}

/// The loops over ``FloatMath`` that every level specializes in its own module with its
/// own multiply-add and vector width (`floatMapPortable`, `floatMapAVX2`): a switch outside
/// and one plain loop per function inside, which LLVM vectorizes. `y` may be `x`.
public enum FloatMapLoops<M: MultiplyAdd> {
    @inlinable @inline(__always)
    public static func map(
        _ function: FloatFunction, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int
    ) {
        switch function {
        case .exp: for i in 0 ..< count { y[i] = FloatMath<M>.exp(x[i]) }
        case .sigmoid: for i in 0 ..< count { y[i] = FloatMath<M>.sigmoid(x[i]) }
        case .tanh: for i in 0 ..< count { y[i] = FloatMath<M>.tanh(x[i]) }
        case .gelu: for i in 0 ..< count { y[i] = FloatMath<M>.gelu(x[i]) }
        case .geluTanh: for i in 0 ..< count { y[i] = FloatMath<M>.geluTanh(x[i]) }
        case .elu: for i in 0 ..< count { y[i] = FloatMath<M>.elu(x[i]) }
        case .log: for i in 0 ..< count { y[i] = FloatMath<M>.log(x[i]) }
        case .reciprocalSquareRoot: for i in 0 ..< count { y[i] = FloatMath<M>.reciprocalSquareRoot(x[i]) }
        case .sin:
            for i in 0 ..< count { y[i] = FloatMath<M>.sin(x[i]) }
            if anyBeyondUnit(UnsafePointer(y), count) { sinCosBeyondReduction(y, count: count, cosine: false) }
        case .cos:
            for i in 0 ..< count { y[i] = FloatMath<M>.cos(x[i]) }
            if anyBeyondUnit(UnsafePointer(y), count) { sinCosBeyondReduction(y, count: count, cosine: true) }
        }
    }

    /// Whether some `|y[i]| > 1` (or is NaN): the largest magnitude's bits, an unsigned
    /// maximum that vectorizes (a flag set in the sine loop itself kept that loop scalar).
    @inlinable @inline(__always)
    static func anyBeyondUnit(_ y: UnsafePointer<Float>, _ count: Int) -> Bool {
        var largest: UInt32 = 0
        for i in 0 ..< count { largest = Swift.max(largest, y[i].bitPattern & 0x7FFF_FFFF) }
        return largest > Float(1).bitPattern
    }

    /// One LOG_SOFTMAX row: `y[i] = (x[i] - max x) - ln Σ_j e^(x[j] - max x)`. The
    /// exponentials go through a block of 256 on the stack and are added in eight partial
    /// sums (an order that differs from TFLite's sequential sum by float rounding only), so
    /// nothing is written to `y` before `x` has been read for the sum: `y` may be `x`.
    @inlinable @inline(__always)
    public static func logSoftmaxRow(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let top = maximum(x, count)
        let block = 256
        let total = withUnsafeTemporaryAllocation(of: Float.self, capacity: block) { buffer -> Float in
            guard let e = buffer.baseAddress else { return 0 }
            var total: Float = 0
            var start = 0
            while start < count {
                let n = Swift.min(block, count - start)
                let xs = x + start
                for i in 0 ..< n { e[i] = FloatMath<M>.expNonPositive(xs[i] - top) }
                total += sum(UnsafePointer(e), n)
                start += n
            }
            return total
        }
        let logSum = FloatMath<M>.log(total)
        for i in 0 ..< count { y[i] = (x[i] - top) - logSum }
    }

    /// One softmax row: `y[i] = e^(β·(x[i] - max x)) / Σ_j e^(β·(x[j] - max x))`, the
    /// maximum and the sum taken in eight partial results (so the loops vectorize; the sum's
    /// order differs from TFLite's sequential one by float rounding only) and the division
    /// done as one multiplication by the reciprocal. For `β ≤ 0` (no converter makes one)
    /// the exponents are not known to be non-positive, and the row goes through the
    /// full-range `exp`. `y` may be `x`.
    @inlinable @inline(__always)
    public static func softmaxRow(
        _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int, beta: Float
    ) {
        guard count > 0 else { return }
        let top = maximum(x, count)
        if beta > 0 {
            for i in 0 ..< count { y[i] = FloatMath<M>.expNonPositive((x[i] - top) * beta) }
        } else {
            for i in 0 ..< count { y[i] = FloatMath<M>.exp((x[i] - top) * beta) }
        }
        let scale = 1 / sum(UnsafePointer(y), count)
        for i in 0 ..< count { y[i] *= scale }
    }

    /// The largest of `x[0 ..< count]` (`count ≥ 1`), in eight running maxima.
    @inlinable @inline(__always)
    static func maximum(_ x: UnsafePointer<Float>, _ count: Int) -> Float {
        var m0 = x[0], m1 = x[0], m2 = x[0], m3 = x[0], m4 = x[0], m5 = x[0], m6 = x[0], m7 = x[0]
        var i = 0
        while i + 8 <= count {
            m0 = x[i] > m0 ? x[i] : m0
            m1 = x[i + 1] > m1 ? x[i + 1] : m1
            m2 = x[i + 2] > m2 ? x[i + 2] : m2
            m3 = x[i + 3] > m3 ? x[i + 3] : m3
            m4 = x[i + 4] > m4 ? x[i + 4] : m4
            m5 = x[i + 5] > m5 ? x[i + 5] : m5
            m6 = x[i + 6] > m6 ? x[i + 6] : m6
            m7 = x[i + 7] > m7 ? x[i + 7] : m7
            i += 8
        }
        while i < count {
            m0 = x[i] > m0 ? x[i] : m0
            i += 1
        }
        m0 = m1 > m0 ? m1 : m0
        m2 = m3 > m2 ? m3 : m2
        m4 = m5 > m4 ? m5 : m4
        m6 = m7 > m6 ? m7 : m6
        m0 = m2 > m0 ? m2 : m0
        m4 = m6 > m4 ? m6 : m4
        return m4 > m0 ? m4 : m0
    }

    /// `x[0] + … + x[count - 1]` in eight partial sums, added pairwise at the end.
    @inlinable @inline(__always)
    static func sum(_ x: UnsafePointer<Float>, _ count: Int) -> Float {
        var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
        var s4: Float = 0, s5: Float = 0, s6: Float = 0, s7: Float = 0
        var i = 0
        while i + 8 <= count {
            s0 += x[i]
            s1 += x[i + 1]
            s2 += x[i + 2]
            s3 += x[i + 3]
            s4 += x[i + 4]
            s5 += x[i + 5]
            s6 += x[i + 6]
            s7 += x[i + 7]
            i += 8
        }
        while i < count {
            s0 += x[i]
            i += 1
        }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    }
}

/// ``FloatMapLoops/map(_:_:_:count:)`` compiled for the baseline (SSE2 on x86-64,
/// Advanced SIMD on aarch64), without fused multiply-adds.
@inline(never)
public func floatMapPortable(
    _ function: FloatFunction, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int
) {
    FloatMapLoops<SeparateMultiplyAdd>.map(function, x, y, count: count)
}

/// ``FloatMapLoops/logSoftmaxRow(_:_:count:)`` compiled for the baseline.
@inline(never)
public func logSoftmaxRowF32Portable(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    FloatMapLoops<SeparateMultiplyAdd>.logSoftmaxRow(x, y, count: count)
}

/// ``FloatMapLoops/softmaxRow(_:_:count:beta:)`` compiled for the baseline.
@inline(never)
public func softmaxRowF32Portable(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int, beta: Float)
{
    FloatMapLoops<SeparateMultiplyAdd>.softmaxRow(x, y, count: count, beta: beta)
}
