/// Rows per thread chunk so that each chunk has a few thousand elements.
@inline(__always)
private func minimumRows(depth: Int) -> Int { Swift.max(1, 4096 / Swift.max(depth, 1)) }

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

/// Float LOG_SOFTMAX, one row of the last dimension at a time, through the level's vector
/// loop (``FloatVectorMath/logSoftmaxRow(_:_:count:)``: polynomial `exp` and `ln`, partial
/// sums in a fixed order), so results do not depend on the thread count.
struct LogSoftmaxF32: PreparedKernel {
    let input: Int
    let output: Int
    let rows: Int
    let depth: Int
    let math: FloatVectorMath

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let (depth, math) = (self.depth, self.math)
        context.parallel.forEachChunk(rows, minimumChunk: minimumRows(depth: depth)) { range in
            for r in range { math.logSoftmaxRow(x + r * depth, y + r * depth, count: depth) }
        }
    }
}
