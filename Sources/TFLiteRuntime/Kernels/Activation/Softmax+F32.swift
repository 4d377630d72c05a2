#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Rows per thread chunk so that each chunk has a few thousand elements.
@inline(__always)
private func minimumRows(depth: Int) -> Int { Swift.max(1, 4096 / Swift.max(depth, 1)) }

/// Largest element of `x[0 ..< n]` (n ≥ 1), `a > b ? a : b` as in TFLite.
@inline(__always)
private func rowMax(_ x: UnsafePointer<Float>, _ n: Int) -> Float {
    var m = x[0]
    for i in 1 ..< n where x[i] > m { m = x[i] }
    return m
}

/// Float SOFTMAX, one row of the last dimension at a time, through the level's vector
/// loop (``FloatVectorMath/softmaxRow(_:_:count:beta:)``: a polynomial `exp`, partial sums
/// in a fixed order, one reciprocal). Each row is computed the same way whichever thread
/// takes it, so results do not depend on the thread count.
struct SoftmaxF32: PreparedKernel {
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int
    let beta: Float
    let math: FloatVectorMath

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let (depth, beta, math) = (self.depth, self.beta, self.math)
        context.parallel.forEachChunk(rows, minimumChunk: minimumRows(depth: depth)) { range in
            for r in range { math.softmaxRow(x + r * depth, y + r * depth, count: depth, beta: beta) }
        }
    }
}

/// Float LOG_SOFTMAX, one row of the last dimension at a time.
struct LogSoftmaxF32: PreparedKernel {
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let depth = self.depth
        context.parallel.forEachChunk(rows, minimumChunk: minimumRows(depth: depth)) { range in
            for r in range {
                let xr = x + r * depth, yr = y + r * depth
                let m = rowMax(xr, depth)
                var sum: Float = 0
                for i in 0 ..< depth { sum += exp(xr[i] - m) }
                let logSum = log(sum)
                for i in 0 ..< depth { yr[i] = xr[i] - m - logSum }
            }
        }
    }
}
