import TFLiteModel

extension UnaryMath {
    /// The int32 kernel of `kind`: ABS, NEG and SIGN, as in TFLite (nil otherwise).
    /// ABS and NEG wrap at `Int32.min` (two's complement, what TFLite's C++ gives).
    static func int32(_ kind: Kind, _ operands: Operands) -> (any PreparedKernel)? {
        switch kind {
        case .abs: return UnaryIntegerKernel<AbsI32>(operands)
        case .neg: return UnaryIntegerKernel<NegI32>(operands)
        case .sign: return UnaryIntegerKernel<SignI32>(operands)
        default: return nil
        }
    }

    /// The int64 kernel of `kind`: NEG only, as in TFLite.
    static func int64(_ kind: Kind, _ operands: Operands) -> (any PreparedKernel)? {
        kind == .neg ? UnaryIntegerKernel<NegI64>(operands) : nil
    }

    /// int8 and int16 NEG: TFLite negates the stored value whether or not the tensor is
    /// quantized (its parameters are not consulted), wrapping at `T.min`.
    static func negateStored(_ type: ElementType, _ operands: Operands) -> any PreparedKernel {
        type == .int8 ? UnaryIntegerKernel<NegS8>(operands) : UnaryIntegerKernel<NegS16>(operands)
    }
}

/// An integer function applied elementwise.
protocol UnaryIntegerOp {
    associatedtype Scalar: FixedWidthInteger
    static func apply(_ x: Scalar) -> Scalar
    /// `y[i] = apply(x[i])` for `i` in `range`; a requirement so each op carries a loop
    /// specialized for it.
    static func run(_ x: UnsafePointer<Scalar>, _ y: UnsafeMutablePointer<Scalar>, _ range: Range<Int>)
}

extension UnaryIntegerOp {
    static func run(_ x: UnsafePointer<Scalar>, _ y: UnsafeMutablePointer<Scalar>, _ range: Range<Int>) {
        for i in range { y[i] = apply(x[i]) }
    }
}

/// `output[i] = Op(input[i])`, split over threads in contiguous chunks.
struct UnaryIntegerKernel<Op: UnaryIntegerOp>: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int

    init(_ operands: UnaryMath.Operands) {
        input = operands.input
        output = operands.output
        count = operands.count
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Op.Scalar.self))
        let y = context.pointer(output, as: Op.Scalar.self)
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in Op.run(x, y, range) }
    }
}

enum AbsI32: UnaryIntegerOp {
    @inline(__always) static func apply(_ x: Int32) -> Int32 { x < 0 ? 0 &- x : x }
}

enum NegI32: UnaryIntegerOp {
    @inline(__always) static func apply(_ x: Int32) -> Int32 { 0 &- x }
}

enum SignI32: UnaryIntegerOp {
    @inline(__always) static func apply(_ x: Int32) -> Int32 { x > 0 ? 1 : (x < 0 ? -1 : 0) }
}

enum NegI64: UnaryIntegerOp {
    @inline(__always) static func apply(_ x: Int64) -> Int64 { 0 &- x }
}

enum NegS8: UnaryIntegerOp {
    @inline(__always) static func apply(_ x: Int8) -> Int8 { 0 &- x }
}

enum NegS16: UnaryIntegerOp {
    @inline(__always) static func apply(_ x: Int16) -> Int16 { 0 &- x }
}
