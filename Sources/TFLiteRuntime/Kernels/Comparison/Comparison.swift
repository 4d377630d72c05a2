import TFLiteModel

/// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER and GREATER_EQUAL: `y = a ⋈ b` as bool,
/// with `a` and `b` of one type broadcast as NumPy does (``Broadcast``).
///
/// float32, int32 and int64 compare values (IEEE for floats: every relation with a NaN
/// is false except NOT_EQUAL). One-byte types go through a 256-entry table per operand
/// that maps each code to an Int32 compared instead (``Comparison/codeTable``): bool
/// bytes map to 0 or 1 (EQUAL and NOT_EQUAL only), uint8/int8 codes to TFLite's rescaled
/// value, so operands of different scales and zero points compare as real numbers would,
/// to within the rescaling's rounding.
enum Comparison {
    enum Relation: Sendable {
        case equal, notEqual, less, lessEqual, greater, greaterEqual
    }

    static func prepare(_ relation: Relation) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            let (a, b, output, broadcast) = try context.optionlessBroadcastOperands()
            guard output.type == .bool else { throw context.unsupportedTypes() }
            let operands: Operands
            switch a.type {
            case .float32: operands = .float32
            case .int32: operands = .int32
            case .int64: operands = .int64
            case .bool:
                guard relation == .equal || relation == .notEqual else { throw context.unsupportedTypes() }
                operands = .codes(CodeTables(a: boolTable, b: boolTable))
            case .uint8, .int8:
                operands = .codes(
                    CodeTables(a: try codeTable(a, role: "input 0"), b: try codeTable(b, role: "input 1")))
            default:
                throw context.unsupportedTypes()
            }
            return ComparisonKernel(
                relation: relation, operands: operands, a: a.index, b: b.index,
                output: output.index, broadcast: broadcast)
        }
    }

    /// How the operands are read.
    enum Operands: Sendable {
        case float32, int32, int64
        /// One-byte codes, each mapped through its operand's table.
        case codes(CodeTables)
    }

    /// Bool bytes as 0 (false) or 1 (any nonzero byte).
    static let boolTable: [Int32] = (0 ..< 256).map { $0 == 0 ? 0 : 1 }
}

/// The compared value of every code of each operand, indexed by the code's bit pattern.
struct CodeTables: Sendable {
    let a: [Int32]
    let b: [Int32]
}

/// `output = a ⋈ b` as bool bytes (0 or 1) over the broadcast output. Each element is
/// computed on its own, so the result does not depend on the thread count.
struct ComparisonKernel: PreparedKernel {
    let relation: Comparison.Relation
    let operands: Comparison.Operands
    let a: Int
    let b: Int
    let output: Int
    let broadcast: Broadcast

    func eval(_ context: EvalContext) throws(KernelError) {
        let y = context.pointer(output, as: UInt8.self)
        switch operands {
        case .float32: compare(context, Float.self, y)
        case .int32: compare(context, Int32.self, y)
        case .int64: compare(context, Int64.self, y)
        case .codes(let tables): compareCodes(context, tables, y)
        }
    }

    /// Values of `T` compared directly; `T` is concrete at each call site above, so the
    /// loops are specialized.
    @inline(__always)
    private func compare<T: Comparable>(_ context: EvalContext, _: T.Type, _ y: UnsafeMutablePointer<UInt8>) {
        let pa = UnsafePointer(context.pointer(a, as: T.self))
        let pb = UnsafePointer(context.pointer(b, as: T.self))
        run(context, y) { ia, ib in (pa[ia], pb[ib]) }
    }

    private func compareCodes(_ context: EvalContext, _ tables: CodeTables, _ y: UnsafeMutablePointer<UInt8>) {
        let pa = UnsafePointer(context.pointer(a, as: UInt8.self))
        let pb = UnsafePointer(context.pointer(b, as: UInt8.self))
        tables.a.withUnsafeBufferPointer { ta in
            tables.b.withUnsafeBufferPointer { tb in
                let ta = ta.baseAddress.unsafelyUnwrapped, tb = tb.baseAddress.unsafelyUnwrapped
                run(context, y) { ia, ib in (ta[Int(pa[ia])], tb[Int(pb[ib])]) }
            }
        }
    }

    /// Calls `load` for the operand elements of each output element and stores the
    /// relation's truth as 0 or 1. The relation is chosen once per call, outside the loops.
    @inline(__always)
    private func run<T: Comparable>(
        _ context: EvalContext, _ y: UnsafeMutablePointer<UInt8>,
        _ load: (Int, Int) -> (T, T)
    ) {
        let (sa, sb) = broadcast.innerStrides
        let broadcast = self.broadcast
        @inline(__always)
        func loop(_ holds: (T, T) -> Bool) {
            context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: 1 << 14) { range in
                broadcast.forEachRun(in: range) { o, ia, ib, n in
                    for k in 0 ..< n {
                        let (u, v) = load(ia + k * sa, ib + k * sb)
                        y[o + k] = holds(u, v) ? 1 : 0
                    }
                }
            }
        }
        switch relation {
        case .equal: loop { $0 == $1 }
        case .notEqual: loop { $0 != $1 }
        case .less: loop { $0 < $1 }
        case .lessEqual: loop { $0 <= $1 }
        case .greater: loop { $0 > $1 }
        case .greaterEqual: loop { $0 >= $1 }
        }
    }
}
