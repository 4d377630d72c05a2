import TFLiteModel

/// Elementwise math functions of one tensor: ABS, NEG, LOG, SIN, COS, FLOOR, CEIL, ROUND,
/// SIGN, SQUARE, ELU, GELU and LOGICAL_NOT. The output has the input's shape and type.
///
/// Prepare checks the types against what TFLite accepts for each op and picks the
/// kernel: float32 (`+F32`), int32/int64 and int8/int16 NEG (`+Integer`), int8/uint8 as a
/// 256-entry table computed at prepare (`+Quantized`), and bool (LOGICAL_NOT, also a table).
enum UnaryMath {
    enum Kind: Sendable {
        case abs, neg, log, sin, cos, floor, ceil, round, sign, square, elu, gelu, logicalNot
    }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 1, outputs: 1)
            let input = try context.input(0)
            let output = try context.output(0)
            guard input.type == output.type else { throw context.unsupportedTypes() }
            let approximate = try geluApproximate(kind, context.op.options)
            try context.setOutputShape(0, input.shape)
            let operands = Operands(input: input.index, output: output.index, count: input.elementCount)
            let kernel: (any PreparedKernel)?
            switch input.type {
            case .float32:
                kernel = float32(kind, operands, approximateGelu: approximate, level: context.kernelLevel)
            case .int32:
                kernel = int32(kind, operands)
            case .int64:
                kernel = int64(kind, operands)
            case .int8 where kind == .neg, .int16 where kind == .neg:
                kernel = negateStored(input.type, operands)
            case .int8:
                kernel = try quantized(
                    Int8.self, kind, operands, approximateGelu: approximate, input: input, output: output,
                    level: context.kernelLevel)
            case .uint8:
                kernel = try quantized(
                    UInt8.self, kind, operands, approximateGelu: approximate, input: input, output: output,
                    level: context.kernelLevel)
            case .bool:
                kernel =
                    kind == .logicalNot
                    ? LookupTableKernel(
                        input: operands.input, output: operands.output,
                        count: operands.count, table: logicalNotTable) : nil
            default:
                kernel = nil
            }
            guard let kernel else { throw context.unsupportedTypes() }
            return kernel
        }
    }

    typealias Operands = UnaryActivation.Operands

    /// GELU's `approximate` flag (false when the options table is absent, as in TFLite);
    /// the other kinds take no options or an empty table.
    static func geluApproximate(_ kind: Kind, _ options: BuiltinOptions) throws(KernelError) -> Bool {
        switch (kind, options) {
        case (.gelu, .gelu(let approximate)): return approximate
        case (_, .none), (_, .empty): return false
        default: throw .invalid("unexpected options \(options)")
        }
    }

    /// NOT over bool bytes: 0 becomes 1 and every other byte 0 (a bool tensor read from a
    /// file may hold any byte; TFLite treats nonzero as true).
    static let logicalNotTable: [UInt8] = (0 ..< 256).map { $0 == 0 ? 1 : 0 }
}
