import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// The float transcendental loops (``FloatMath``) of one kernel level, chosen at prepare:
/// `avx2` and up run the AVX2 module's loops (eight lanes, fused multiply-adds), every
/// other level the baseline module's (four lanes on SSE2 and Advanced SIMD). Kernels that
/// apply `exp`, `σ`, `tanh`, GELU, ELU, `ln`, `sin`, `cos` or `1/√x` to many elements (the
/// activations, the math ops, SOFTMAX and LOG_SOFTMAX, a recurrent cell's gates) call
/// these instead of libm, whose calls keep a loop scalar.
struct FloatVectorMath: Sendable {
    private let vector: Bool

    init(_ level: KernelLevel) {
        #if arch(x86_64)
        vector = level >= .avx2 && level.hasVectorKernels
        #else
        vector = false
        #endif
    }

    /// `y[i] = function(x[i])` for `i < count`; `y` may be `x`.
    @inline(__always)
    func map(_ function: FloatFunction, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
        #if arch(x86_64)
        if vector { return floatMapAVX2(function, x, y, count: count) }
        #endif
        floatMapPortable(function, x, y, count: count)
    }

    /// One LOG_SOFTMAX row, `y = (x - max x) - ln Σ e^(x - max x)`; `y` may be `x`.
    @inline(__always)
    func logSoftmaxRow(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
        #if arch(x86_64)
        if vector { return logSoftmaxRowF32AVX2(x, y, count: count) }
        #endif
        logSoftmaxRowF32Portable(x, y, count: count)
    }

    /// One softmax row, `y = e^(β·(x - max x)) / Σ e^(β·(x - max x))`; `y` may be `x`.
    @inline(__always)
    func softmaxRow(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int, beta: Float) {
        #if arch(x86_64)
        if vector { return softmaxRowF32AVX2(x, y, count: count, beta: beta) }
        #endif
        softmaxRowF32Portable(x, y, count: count, beta: beta)
    }
}

/// A ``FloatFunction`` as an elementwise operator: the chunks of a tensor go through the
/// level's map loop.
struct FloatFunctionF32: UnaryF32Op {
    let function: FloatFunction
    let math: FloatVectorMath

    /// One element in the baseline form (what the level loops compute up to FMA rounding).
    func apply(_ x: Float) -> Float {
        var y: Float = 0
        withUnsafePointer(to: x) { floatMapPortable(function, $0, &y, count: 1) }
        return y
    }

    func run(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ range: Range<Int>) {
        math.map(function, x + range.lowerBound, y + range.lowerBound, count: range.count)
    }
}
