import TFLiteModel

/// BROADCAST_ARGS: the broadcast of two shapes given as 1-D int32 or int64 tensors (of
/// one type): right-aligned, each dimension pair must be equal or contain a 1, and the
/// result takes the other one. The output has `max(len(s0), len(s1))` elements.
enum BroadcastArgsKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let a = try context.input(0), b = try context.input(1)
        let output = try context.output(0)
        guard a.type == b.type, a.type == output.type, a.type == .int32 || a.type == .int64 else {
            throw context.unsupportedTypes()
        }
        guard a.rank == 1, b.rank == 1 else {
            throw .invalid("the shapes must be 1-D, found \(a.shape) and \(b.shape)")
        }
        try context.setOutputShape(0, [Swift.max(a.shape[0], b.shape[0])])
        return BroadcastArgs(
            wide: a.type == .int64, a: a.index, b: b.index, output: output.index,
            countA: a.shape[0], countB: b.shape[0])
    }
}

struct BroadcastArgs: PreparedKernel {
    let wide: Bool
    let a: Int
    let b: Int
    let output: Int
    let countA: Int
    let countB: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        if wide { try run(context, Int64.self) } else { try run(context, Int32.self) }
    }

    private func run<T: FixedWidthInteger>(_ context: EvalContext, _: T.Type) throws(KernelError) {
        let x = context.pointer(a, as: T.self), y = context.pointer(b, as: T.self)
        let out = context.pointer(output, as: T.self)
        let n = Swift.max(countA, countB)
        for i in 0 ..< n {
            // Right-aligned: position i of the output is position i − (n − count) of each.
            let da: T = i >= n - countA ? x[i - (n - countA)] : 1
            let db: T = i >= n - countB ? y[i - (n - countB)] : 1
            guard da == db || da == 1 || db == 1 else {
                throw .invalid("shapes are not broadcastable: dimension \(i) is \(da) in one and \(db) in the other")
            }
            out[i] = da == 1 ? db : da
        }
    }
}
