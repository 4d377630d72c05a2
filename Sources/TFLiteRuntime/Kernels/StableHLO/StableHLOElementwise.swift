import TFLiteModel

/// STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM, STABLEHLO_MINIMUM and STABLEHLO_AND:
/// `y = a ⊕ b` elementwise over two operands of one type and one shape (StableHLO does not
/// broadcast: the converter makes any broadcast explicit).
///
/// Types, as TFLite's kernels: float16, float32, float64, int8/16/32/64, uint8/16/32/64
/// and bool for the arithmetic ones; the integers and bool for AND. Integer arithmetic
/// wraps; float16 computes in float32 and rounds to nearest even. MAXIMUM is
/// `a < b ? b : a` and MINIMUM `b < a ? b : a`: the first operand on ties and whenever
/// either is NaN. On bool,
/// ADD and MAXIMUM are `or`, MULTIPLY, MINIMUM and AND are `and` (spec/stablehlo.md).
enum StableHLOElementwise {
    enum Kind: Sendable { case add, multiply, maximum, minimum, and }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            let operands = try context.sameShapeOperands()
            guard let kernel = kernel(kind, context.tensors[operands.a].type, operands) else {
                throw context.unsupportedTypes()
            }
            return kernel
        }
    }

    static func kernel(_ kind: Kind, _ type: ElementType, _ o: BinaryElementwise.Operands) -> (any PreparedKernel)? {
        func make<Op: BinaryElementOp>(_ op: Op.Type) -> any PreparedKernel { BinaryMath.make(op, o) }
        switch (kind, type) {
        case (.add, .float16): return make(AddF16.self)
        case (.add, .float32): return make(AddFloat.self)
        case (.add, .float64): return make(AddDouble.self)
        case (.add, .int8), (.add, .uint8): return make(AddWrap8.self)
        case (.add, .int16), (.add, .uint16): return make(AddWrap16.self)
        case (.add, .int32), (.add, .uint32): return make(AddWrap32.self)
        case (.add, .int64), (.add, .uint64): return make(AddWrap64.self)
        case (.add, .bool), (.maximum, .bool): return make(OrBool.self)
        case (.multiply, .float16): return make(MulF16.self)
        case (.multiply, .float32): return make(MulFloat.self)
        case (.multiply, .float64): return make(MulDouble.self)
        case (.multiply, .int8), (.multiply, .uint8): return make(MulWrap8.self)
        case (.multiply, .int16), (.multiply, .uint16): return make(MulWrap16.self)
        case (.multiply, .int32), (.multiply, .uint32): return make(MulWrap32.self)
        case (.multiply, .int64), (.multiply, .uint64): return make(MulWrap64.self)
        case (.multiply, .bool), (.minimum, .bool), (.and, .bool): return make(AndBool.self)
        case (.maximum, .float16): return make(MaxF16.self)
        case (.maximum, .float32): return make(HLOMaxF32.self)
        case (.maximum, .float64): return make(HLOMaxF64.self)
        case (.maximum, .int8): return make(HLOMaxS8.self)
        case (.maximum, .uint8): return make(HLOMaxU8.self)
        case (.maximum, .int16): return make(HLOMaxS16.self)
        case (.maximum, .uint16): return make(HLOMaxU16.self)
        case (.maximum, .int32): return make(HLOMaxS32.self)
        case (.maximum, .uint32): return make(HLOMaxU32.self)
        case (.maximum, .int64): return make(HLOMaxS64.self)
        case (.maximum, .uint64): return make(HLOMaxU64.self)
        case (.minimum, .float16): return make(MinF16.self)
        case (.minimum, .float32): return make(HLOMinF32.self)
        case (.minimum, .float64): return make(HLOMinF64.self)
        case (.minimum, .int8): return make(HLOMinS8.self)
        case (.minimum, .uint8): return make(HLOMinU8.self)
        case (.minimum, .int16): return make(HLOMinS16.self)
        case (.minimum, .uint16): return make(HLOMinU16.self)
        case (.minimum, .int32): return make(HLOMinS32.self)
        case (.minimum, .uint32): return make(HLOMinU32.self)
        case (.minimum, .int64): return make(HLOMinS64.self)
        case (.minimum, .uint64): return make(HLOMinU64.self)
        case (.and, .int8), (.and, .uint8): return make(BitAnd8.self)
        case (.and, .int16), (.and, .uint16): return make(BitAnd16.self)
        case (.and, .int32), (.and, .uint32): return make(BitAnd32.self)
        case (.and, .int64), (.and, .uint64): return make(BitAnd64.self)
        default: return nil
        }
    }
}

extension PrepareContext {
    /// Two inputs of one type and one shape (or, `pairedByPosition`, one element count), one
    /// output of that type shaped like the first: sets the output shape.
    mutating func sameShapeOperands(pairedByPosition: Bool = false) throws(KernelError)
        -> BinaryElementwise.Operands
    {
        try expectCounts(inputs: 2, outputs: 1)
        let a = try input(0)
        let b = try input(1)
        let output = try output(0)
        guard a.type == b.type, a.type == output.type else { throw unsupportedTypes() }
        if pairedByPosition {
            guard a.elementCount == b.elementCount else {
                throw .invalid("operands must have the same element count, found \(a.shape) and \(b.shape)")
            }
        } else {
            guard a.shape == b.shape else {
                throw .invalid("operands must have the same shape, found \(a.shape) and \(b.shape)")
            }
        }
        try setOutputShape(0, a.shape)
        // Flat operands of equal length: the element pairing is by position.
        let flat = [a.elementCount]
        return BinaryElementwise.Operands(
            a: a.index, b: b.index, output: output.index, broadcast: try Broadcast(flat, flat))
    }
}
