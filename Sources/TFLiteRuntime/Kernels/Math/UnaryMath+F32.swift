#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Microkernels

extension UnaryMath {
    /// The float32 kernel of `kind` (nil for LOGICAL_NOT, which takes bool).
    static func float32(_ kind: Kind, _ operands: Operands, approximateGelu: Bool, level: KernelLevel)
        -> (any PreparedKernel)?
    {
        func make<Op: UnaryF32Op>(_ op: Op) -> any PreparedKernel {
            UnaryF32Kernel(input: operands.input, output: operands.output, count: operands.count, op: op)
        }
        let math = FloatVectorMath(level)
        switch kind {
        case .abs: return make(AbsF32())
        case .neg: return make(NegF32())
        case .log: return make(FloatFunctionF32(function: .log, math: math))
        case .sin: return make(FloatFunctionF32(function: .sin, math: math))
        case .cos: return make(FloatFunctionF32(function: .cos, math: math))
        case .floor: return make(FloorF32())
        case .ceil: return make(CeilF32())
        case .round: return make(RoundHalfEvenF32())
        case .sign: return make(SignF32())
        case .square: return make(SquareF32())
        case .elu: return make(FloatFunctionF32(function: .elu, math: math))
        case .gelu: return make(FloatFunctionF32(function: approximateGelu ? .geluTanh : .gelu, math: math))
        case .logicalNot: return nil
        }
    }
}

/// `|x|` (clears the sign bit, so `-0` and `-NaN` lose theirs too).
struct AbsF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { x.magnitude }
}

/// `-x`
struct NegF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { -x }
}

struct FloorF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { x.rounded(.down) }
}

struct CeilF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { x.rounded(.up) }
}

/// ROUND: halves go to the even neighbour (2.5 → 2, 3.5 → 4, -2.5 → -2), computed as
/// TFLite does from `f = floor(x)` and `d = x - f`: `f` when `d < 0.5` or when `d` is
/// exactly 0.5 and `f` is even, else `f + 1`. The same values as `.toNearestOrEven`,
/// except that a negative input rounding up to zero gives `+0`.
struct RoundHalfEvenF32: UnaryF32Op {
    @inline(__always) func apply(_ x: Float) -> Float {
        let f = x.rounded(.down)
        let d = x - f
        if d < 0.5 || (d == 0.5 && f.truncatingRemainder(dividingBy: 2) == 0) { return f }
        return f + 1
    }
}

/// `1` above zero, `-1` below, `0` at ±0 and for NaN.
struct SignF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { x > 0 ? 1 : (x < 0 ? -1 : 0) }
}

/// `x · x`
struct SquareF32: UnaryF32Op {
    static var minimumChunk: Int { 1 << 14 }
    @inline(__always) func apply(_ x: Float) -> Float { x * x }
}

/// Exact GELU with libm, `x · Φ(x) = ½ · x · erfc(−x/√2)`: the function the 8-bit GELU
/// tables are built from (they must be TFLite's bits; float tensors use ``FloatMath``).
struct GeluErfF32: UnaryF32Op {
    @inline(__always) func apply(_ x: Float) -> Float { 0.5 * x * erfcf(x * -Float(0.5).squareRoot()) }
}

/// GELU's tanh approximation with libm, `½ · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`,
/// for the 8-bit tables.
struct GeluTanhF32: UnaryF32Op {
    static let sqrtTwoOverPi = Float((2 / Double.pi).squareRoot())
    @inline(__always) func apply(_ x: Float) -> Float {
        0.5 * x * (1 + tanhf(Self.sqrtTwoOverPi * (x + 0.044715 * x * x * x)))
    }
}
