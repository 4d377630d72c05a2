import Microkernels

extension UnaryActivation {
    static func float32(_ kind: Kind, _ operands: Operands, alpha: Float, level: KernelLevel) -> any PreparedKernel {
        func make<Op: UnaryF32Op>(_ op: Op) -> any PreparedKernel {
            UnaryF32Kernel(input: operands.input, output: operands.output, count: operands.count, op: op)
        }
        let math = FloatVectorMath(level)
        switch kind {
        case .leakyRelu: return make(LeakyReluF32(alpha: alpha))
        case .logistic: return make(FloatFunctionF32(function: .sigmoid, math: math))
        case .tanh: return make(FloatFunctionF32(function: .tanh, math: math))
        case .hardSwish: return make(HardSwishF32())
        case .exp: return make(FloatFunctionF32(function: .exp, math: math))
        case .sqrt: return make(SqrtF32())
        case .rsqrt: return make(FloatFunctionF32(function: .reciprocalSquareRoot, math: math))
        }
    }
}

/// A float function applied elementwise, written for one scalar: the loop over a tensor
/// is a plain pointer loop, which LLVM vectorizes where the function allows (LEAKY_RELU,
/// HARD_SWISH, SQRT). Hand-written `SIMD8` forms using `replacing(with:where:)`
/// were measured several times slower than the vectorized loop.
protocol UnaryF32Op: Sendable {
    func apply(_ x: Float) -> Float
    /// Elements per thread below which splitting is not worth it.
    static var minimumChunk: Int { get }
    /// `y[i] = apply(x[i])` for `i` in `range`. A requirement (with the default below)
    /// so each op's conformance carries a loop specialized for it.
    func run(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ range: Range<Int>)
}

extension UnaryF32Op {
    static var minimumChunk: Int { 1 << 12 }

    func run(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ range: Range<Int>) {
        for i in range { y[i] = apply(x[i]) }
    }
}

/// `output[i] = op(input[i])`, split over threads in contiguous chunks.
struct UnaryF32Kernel<Op: UnaryF32Op>: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    let op: Op

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let op = self.op
        context.parallel.forEachChunk(count, minimumChunk: Op.minimumChunk) { range in
            op.run(x, y, range)
        }
    }
}

/// `x > 0 ? x : alpha * x`
struct LeakyReluF32: UnaryF32Op {
    let alpha: Float
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { x > 0 ? x : x * alpha }
}

/// `x * min(max(x + 3, 0), 6) / 6`, in that order of operations.
struct HardSwishF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float {
        let shifted = x + 3
        let low: Float = 0 < shifted ? shifted : 0
        return x * (low < 6 ? low : 6) / 6
    }
}

/// `√x` (NaN for negative x, as in TFLite).
struct SqrtF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { vectorizableSquareRoot(x) }
}

/// `x.squareRoot()`, bit for bit (checked for all 2^32 inputs), in a form whose loops
/// vectorize. `squareRoot()` on Linux is `sqrtss` plus a call to libm's `sqrtf` for
/// negative and NaN operands (to set errno), which kept the loops scalar. Negative `x`
/// is replaced by the NaN `sqrtss` returns for it (the default NaN, `0xFFC00000`, which
/// its root leaves unchanged); knowing the operand is not negative, LLVM drops the call
/// and emits `sqrtps`.
@inline(__always)
func vectorizableSquareRoot(_ x: Float) -> Float {
    (x < 0 ? Float(bitPattern: 0xFFC0_0000) : x).squareRoot()
}
