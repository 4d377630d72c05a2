import TFLiteModel

/// An operator whose preparation needs the value of a tensor computed at run time (a
/// SLICE's size from a loop counter, a RESHAPE's shape from a SHAPE of a run-time
/// tensor): prepared at invoke instead, once per distinct value of those tensors.
///
/// The engine makes one when a kernel's prepare reports ``KernelError/Kind/valueNeeded(tensor:)``
/// for a tensor that is not constant. It is a ``DynamicShapeKernel``: at invoke,
/// ``outputShapes(_:)`` reads the needed tensors, prepares the operator with them as
/// constants (adding any further tensor that preparation asks for), and gives the
/// output shapes that preparation set; `eval` then runs the prepared kernel. The last
/// few preparations are kept, keyed by the needed values, so a loop that slices by its
/// counter prepares each distinct slice once.
final class LatePreparedKernel: DynamicShapeKernel {
    private struct Prepared {
        let kernel: any PreparedKernel
        let shapes: [[Int]]
        let scratch: [AlignedBuffer]
        let table: UnsafeMutablePointer<UnsafeMutableRawPointer>
    }

    let op: Operator
    let prepare: KernelPrepare
    /// The tensors whose values preparation reads.
    private var needed: [Int]
    /// Tensor states as the engine had them when it reached the operator.
    private let tensors: [TensorState]
    private let threadCount: Int
    private let requantization: Requantization
    private let kernelLevel: Microkernels.KernelLevel
    private let interpreterState: InterpreterState?
    private let memoryBudget: Int
    /// Preparations by the needed tensors' bytes, most recent last.
    private var cache: [(key: [UInt8], prepared: Prepared)] = []
    /// The preparation `outputShapes` chose, which `eval` runs.
    private var current: Prepared?
    /// What the scratch table holds when a preparation asks for no scratch.
    private let placeholder = AlignedBuffer(zeroedCount: 64)
    static let cacheSize = 16

    init(
        op: Operator, prepare: @escaping KernelPrepare, needed: [Int], tensors: [TensorState],
        context: PrepareContext, memoryBudget: Int
    ) {
        self.op = op
        self.prepare = prepare
        self.needed = needed
        self.tensors = tensors
        self.threadCount = context.threadCount
        self.requantization = context.requantization
        self.kernelLevel = context.kernelLevel
        self.interpreterState = context.interpreterState
        self.memoryBudget = memoryBudget
    }

    deinit {
        for entry in cache { entry.prepared.table.deallocate() }
    }

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let prepared: Prepared
        if let hit = cache.firstIndex(where: { $0.key == key(context) }) {
            prepared = cache[hit].prepared
        } else {
            prepared = try prepareNow(context)
            if cache.count == Self.cacheSize { cache.removeFirst().prepared.table.deallocate() }
            cache.append((key(context), prepared))
        }
        current = prepared
        // A kernel whose shapes depend on other inputs' values (WHERE) resolves them anew.
        if let dynamic = prepared.kernel as? any DynamicShapeKernel {
            return try dynamic.outputShapes(inner(context, prepared))
        }
        return prepared.shapes
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        guard let current else { throw .invalid("the operator was not prepared for this invoke") }
        try current.kernel.eval(inner(context, current))
    }

    /// The needed tensors' current bytes.
    private func key(_ context: EvalContext) -> [UInt8] {
        var bytes: [UInt8] = []
        for t in needed {
            let count = tensors[t].byteCount ?? 0
            bytes += UnsafeRawBufferPointer(start: context.raw(t), count: count)
        }
        return bytes
    }

    private func inner(_ context: EvalContext, _ prepared: Prepared) -> EvalContext {
        EvalContext(
            tensors: context.tensors, scratch: prepared.table, scratchCount: prepared.scratch.count,
            parallel: context.parallel)
    }

    /// Prepares the operator with the needed tensors' current values as constants,
    /// widening the set when preparation asks for another run-time tensor.
    private func prepareNow(_ context: EvalContext) throws(KernelError) -> Prepared {
        while true {
            var states = tensors
            for t in needed {
                let count = tensors[t].byteCount ?? 0
                let copy = AlignedBuffer(copying: UnsafeRawBufferPointer(start: context.raw(t), count: count))
                states[t].storage = .constant(ConstantBytes(owned: copy))
            }
            var prepareContext = PrepareContext(
                op: op, tensors: states, threadCount: threadCount, requantization: requantization,
                kernelLevel: kernelLevel, interpreterState: interpreterState)
            let kernel: any PreparedKernel
            do {
                kernel = try prepare(&prepareContext)
            } catch {
                if case .valueNeeded(let t) = error.kind, t >= 0, t < tensors.count, !needed.contains(t),
                    !tensors[t].isConstant
                {
                    needed.append(t)
                    continue
                }
                throw error
            }
            var total = 0
            for size in prepareContext.scratchSizes {
                let (sum, overflow) = total.addingReportingOverflow(size)
                guard !overflow, sum <= memoryBudget else {
                    throw .invalid("its scratch memory, planned at invoke, exceeds the memory budget")
                }
                total = sum
            }
            let scratch = prepareContext.scratchSizes.map { AlignedBuffer(zeroedCount: $0) }
            let table = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: Swift.max(scratch.count, 1))
            table.initialize(repeating: placeholder.pointer, count: Swift.max(scratch.count, 1))
            for (k, buffer) in scratch.enumerated() { table[k] = buffer.pointer }
            let shapes = op.outputs.map { $0 >= 0 ? prepareContext.tensors[$0].shape : [] }
            return Prepared(kernel: kernel, shapes: shapes, scratch: scratch, table: table)
        }
    }
}
