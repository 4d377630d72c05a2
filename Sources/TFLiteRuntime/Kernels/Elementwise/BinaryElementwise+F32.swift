import TFLiteModel

extension BinaryElementwise {
    /// The float32 kernel of `kind`; the fused activation becomes a clamp (none for NONE).
    static func float32(_ kind: Kind, _ operands: Operands, activation: FusedActivation) throws(KernelError)
        -> any PreparedKernel
    {
        let range = try FloatActivationRange.of(activation)
        let clamp = activation == .none ? nil : OutputClamp(lower: range.lower, upper: range.upper)
        func make<Op: BinaryElementOp>(_: Op.Type) -> any PreparedKernel where Op.Scalar == Float {
            BroadcastBinaryKernel<Op>(
                a: operands.a, b: operands.b, output: operands.output,
                broadcast: operands.broadcast, clamp: clamp)
        }
        switch kind {
        case .add: return make(AddF32.self)
        case .sub: return make(SubF32.self)
        case .mul: return make(MulF32.self)
        case .div: return make(DivF32.self)
        case .squaredDifference: return make(SquaredDifferenceF32.self)
        case .maximum: return make(MaximumF32.self)
        case .minimum: return make(MinimumF32.self)
        }
    }
}

/// `a + b`
enum AddF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a + b }
}

/// `a - b`
enum SubF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a - b }
}

/// `a * b`
enum MulF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a * b }
}

/// `a / b` (IEEE: division by zero gives ±inf or NaN, as in TFLite).
enum DivF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a / b }
}

/// `(a - b)²`
enum SquaredDifferenceF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { let d = a - b; return d * d }
}

/// `a > b ? a : b` (so a NaN in `b` wins and a NaN in `a` loses, as in TFLite).
enum MaximumF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a > b ? a : b }
}

/// `a < b ? a : b`
enum MinimumF32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a < b ? a : b }
}
