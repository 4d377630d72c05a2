import TFLiteModel

/// Elementwise functions of two broadcast operands that have no fused activation: POW,
/// FLOOR_DIV, FLOOR_MOD, LOGICAL_AND and LOGICAL_OR. Operands and output share a type;
/// shapes broadcast as NumPy does (``Broadcast``), and the loops are the ones of ADD and
/// friends (``BroadcastBinaryKernel``).
///
/// Integer FLOOR_DIV and FLOOR_MOD (int8, int16, int32; FLOOR_MOD also int64) fail at
/// invoke when a divisor is zero, and int32 POW when an exponent is negative, as TFLite's
/// kernels do (``CheckedOperandKernel``).
enum BinaryMath {
    enum Kind: Sendable {
        case pow, floorDiv, floorMod, logicalAnd, logicalOr
    }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            let (a, b, output, broadcast) = try context.optionlessBroadcastOperands()
            guard a.type == output.type else { throw context.unsupportedTypes() }
            let operands = BinaryElementwise.Operands(
                a: a.index, b: b.index, output: output.index, broadcast: broadcast)
            let kernel: (any PreparedKernel)?
            switch a.type {
            case .float32: kernel = float32(kind, operands)
            case .int32: kernel = int32(kind, operands, divisorCount: b.elementCount)
            case .int64: kernel = int64(kind, operands, divisorCount: b.elementCount)
            case .bool: kernel = bool(kind, operands)
            case .int8, .int16: kernel = narrow(kind, a.type, operands, divisorCount: b.elementCount)
            default: kernel = nil
            }
            guard let kernel else { throw context.unsupportedTypes() }
            return kernel
        }
    }

    static func make<Op: BinaryElementOp>(_: Op.Type, _ operands: BinaryElementwise.Operands) -> BroadcastBinaryKernel<
        Op
    > {
        BroadcastBinaryKernel<Op>(
            a: operands.a, b: operands.b, output: operands.output,
            broadcast: operands.broadcast, clamp: nil)
    }

    static func float32(_ kind: Kind, _ operands: BinaryElementwise.Operands) -> (any PreparedKernel)? {
        switch kind {
        case .pow: return make(PowF32.self, operands)
        case .floorDiv: return make(FloorDivF32.self, operands)
        case .floorMod: return make(FloorModF32.self, operands)
        case .logicalAnd, .logicalOr: return nil
        }
    }

    static func int32(_ kind: Kind, _ operands: BinaryElementwise.Operands, divisorCount: Int) -> (any PreparedKernel)?
    {
        switch kind {
        case .pow:
            return CheckedOperandKernel(
                inner: make(PowI32.self, operands), operand: operands.b, count: divisorCount, rule: .nonNegative)
        case .floorDiv:
            return CheckedOperandKernel(
                inner: make(FloorDivI32.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
        case .floorMod:
            return CheckedOperandKernel(
                inner: make(FloorModI32.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
        case .logicalAnd, .logicalOr:
            return nil
        }
    }

    static func int64(_ kind: Kind, _ operands: BinaryElementwise.Operands, divisorCount: Int) -> (any PreparedKernel)?
    {
        guard kind == .floorMod else { return nil }
        return CheckedOperandKernel(
            inner: make(FloorModI64.self, operands), operand: operands.b, count: divisorCount, rule: .nonZero)
    }

    static func bool(_ kind: Kind, _ operands: BinaryElementwise.Operands) -> (any PreparedKernel)? {
        switch kind {
        case .logicalAnd: return make(LogicalAndU8.self, operands)
        case .logicalOr: return make(LogicalOrU8.self, operands)
        default: return nil
        }
    }
}

extension PrepareContext {
    /// The operands and output of a binary operator without options whose operands have
    /// one type and broadcast together; sets the output shape.
    mutating func optionlessBroadcastOperands() throws(KernelError)
        -> (a: TensorState, b: TensorState, output: TensorState, broadcast: Broadcast)
    {
        try expectCounts(inputs: 2, outputs: 1)
        let a = try input(0)
        let b = try input(1)
        let output = try output(0)
        guard a.type == b.type else { throw unsupportedTypes() }
        switch op.options {
        case .none, .empty: break
        default: throw .invalid("unexpected options \(op.options)")
        }
        let broadcast = try Broadcast(a.shape, b.shape)
        try setOutputShape(0, broadcast.outputShape)
        return (a, b, output, broadcast)
    }
}

// Bool tensors are handled as bytes (0 false, anything else true); Int64 for FLOOR_MOD.
extension UInt8: ClampableScalar {}
extension Int64: ClampableScalar {}

/// An integer broadcast kernel whose second operand must satisfy `rule` everywhere
/// (checked at invoke, since the operand may be computed): TFLite refuses zero
/// divisors and negative integer exponents.
struct CheckedOperandKernel<Op: BinaryElementOp>: PreparedKernel where Op.Scalar: FixedWidthInteger {
    enum Rule { case nonZero, nonNegative }
    let inner: BroadcastBinaryKernel<Op>
    let operand: Int
    let count: Int
    let rule: Rule

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(operand, as: Op.Scalar.self))
        switch rule {
        case .nonZero:
            for i in 0 ..< count where x[i] == 0 { throw .invalid("division by zero (divisor element \(i))") }
        case .nonNegative:
            for i in 0 ..< count where x[i] < 0 {
                throw .invalid("integer POW needs non-negative exponents; element \(i) is \(x[i])")
            }
        }
        try inner.eval(context)
    }
}
