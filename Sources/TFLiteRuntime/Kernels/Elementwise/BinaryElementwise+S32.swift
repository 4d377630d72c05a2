import TFLiteModel

extension BinaryElementwise {
    /// The int32 kernel of `kind`, or nil if int32 is not supported for it (DIV).
    /// Arithmetic wraps on overflow (two's complement, what TFLite's C++ does in
    /// practice) instead of trapping.
    static func int32(_ kind: Kind, _ operands: Operands, activation: FusedActivation) throws(KernelError) -> (
        any PreparedKernel
    )? {
        let clamp = try int32Clamp(activation)
        func make<Op: BinaryElementOp>(_: Op.Type) -> any PreparedKernel where Op.Scalar == Int32 {
            BroadcastBinaryKernel<Op>(
                a: operands.a, b: operands.b, output: operands.output,
                broadcast: operands.broadcast, clamp: clamp)
        }
        switch kind {
        case .add: return make(AddS32.self)
        case .sub: return make(SubS32.self)
        case .mul: return make(MulS32.self)
        case .squaredDifference: return make(SquaredDifferenceS32.self)
        case .maximum: return make(MaximumS32.self)
        case .minimum: return make(MinimumS32.self)
        case .div: return nil
        }
    }

    /// Integer bounds of a fused activation: RELU `[0, max]`, RELU6 `[0, 6]`,
    /// RELU_N1_TO_1 `[-1, 1]`; nil (no clamp) for NONE.
    static func int32Clamp(_ activation: FusedActivation) throws(KernelError) -> OutputClamp<Int32>? {
        switch activation {
        case .none: return nil
        case .relu: return OutputClamp(lower: 0, upper: .max)
        case .relu6: return OutputClamp(lower: 0, upper: 6)
        case .reluN1To1: return OutputClamp(lower: -1, upper: 1)
        case .tanh, .signBit, .unknown:
            throw .invalid("fused activation \(activation.name) is not supported")
        }
    }
}

/// `a + b`, wrapping.
enum AddS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { a &+ b }
}

/// `a - b`, wrapping.
enum SubS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { a &- b }
}

/// `a * b`, wrapping.
enum MulS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { a &* b }
}

/// `(a - b)²`, wrapping.
enum SquaredDifferenceS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { let d = a &- b; return d &* d }
}

enum MaximumS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { a > b ? a : b }
}

enum MinimumS32: BinaryElementOp {
    @inline(__always) static func apply(_ a: Int32, _ b: Int32) -> Int32 { a < b ? a : b }
}
