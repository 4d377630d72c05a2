import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

extension BinaryElementwise {
    /// The float32 kernel of `kind`; the fused activation becomes a clamp (none for NONE).
    /// At `avx2` and up, ADD, SUB and MUL run the level's loops (``BinaryF32Kernel``).
    static func float32(
        _ kind: Kind, _ operands: Operands, activation: FusedActivation, level: KernelLevel = .portable
    ) throws(KernelError) -> any PreparedKernel {
        let range = try FloatActivationRange.of(activation)
        let clamp = activation == .none ? nil : OutputClamp(lower: range.lower, upper: range.upper)
        #if arch(x86_64)
        if level >= .avx2, level.hasVectorKernels {
            let operation: BinaryF32Operation? =
                switch kind {
                case .add: .add
                case .sub: .subtract
                case .mul: .multiply
                default: nil
                }
            if let operation {
                return BinaryF32Kernel(
                    operation: operation, a: operands.a, b: operands.b, output: operands.output,
                    broadcast: operands.broadcast, clamp: clamp.map { ($0.lower, $0.upper) })
            }
        }
        #endif
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

#if arch(x86_64)
/// Float ADD, SUB or MUL through `binaryF32RowsAVX2`: a two-dimensional broadcast split
/// over threads by whole rows, each thread's rows in one call; other broadcasts run by run.
/// The same IEEE operation and clamp as ``BroadcastBinaryKernel``, so the same bits.
struct BinaryF32Kernel: PreparedKernel {
    let operation: BinaryF32Operation
    let a: Int, b: Int, output: Int
    let broadcast: Broadcast
    let clamp: (Float, Float)?

    func eval(_ context: EvalContext) throws(KernelError) {
        let pa = UnsafePointer(context.pointer(a, as: Float.self))
        let pb = UnsafePointer(context.pointer(b, as: Float.self))
        let py = context.pointer(output, as: Float.self)
        let (sa, sb) = broadcast.innerStrides
        let (broadcast, clamp, op) = (self.broadcast, self.clamp, operation)
        let minimum = BroadcastBinaryKernel<AddF32>.minimumChunk
        if let (rows, columns, rowA, rowB) = broadcast.rows {
            context.parallel.forEachChunk(rows, minimumChunk: Swift.max(1, minimum / Swift.max(columns, 1))) { range in
                let r = range.lowerBound
                binaryF32RowsAVX2(
                    op, pa + r * rowA, sa, rowA, pb + r * rowB, sb, rowB, py + r * columns, rows: range.count,
                    columns: columns, clamp: clamp)
            }
            return
        }
        context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: minimum) { range in
            broadcast.forEachRun(in: range) { o, ia, ib, n in
                binaryF32RowsAVX2(op, pa + ia, sa, 0, pb + ib, sb, 0, py + o, rows: 1, columns: n, clamp: clamp)
            }
        }
    }
}
#endif
