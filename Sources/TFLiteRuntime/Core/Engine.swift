import Microkernels
import TFLiteModel

/// Runs one subgraph of a ``Model``: the runtime behind `Interpreter`.
///
/// Three phases:
/// 1. **init** resolves every operator to a kernel, failing with the operator's name if
///    the runtime has none, and prepares once to surface type and shape errors early;
/// 2. **allocate** prepares every operator (shape inference, validation, precomputation,
///    weight packing; operators whose inputs are all known are evaluated right away and
///    become constants), then plans and allocates one arena;
/// 3. **invoke** runs the prepared kernels in order: no allocation, no validation, no
///    lookups.
///
/// An operator whose output shape depends on run-time values (a ``DynamicShapeKernel``)
/// ends what allocate prepares and plans; the operators after it are prepared and planned
/// at invoke, once that shape is known, and kept until it changes (`Engine+DynamicShapes.swift`).
///
/// An `Engine` is not thread-safe; several engines may share one `Model`.
public final class Engine {
    public let model: Model
    public let subgraphIndex: Int
    public let options: EngineOptions
    /// What this engine shares with the other subgraphs of its interpreter: variables,
    /// and the engines of the subgraphs its control-flow operators run.
    public let interpreterState: InterpreterState
    /// Whether a control-flow operator of another engine runs this one (its work counts
    /// toward that engine's invoke).
    let isCalledByOperator: Bool
    let subgraph: Subgraph
    /// The operators `prepare` and `invoke` run, in order: the subgraph's own after
    /// ``ActivationFusion`` (when ``EngineOptions/fusesActivations``).
    let executionOrder: [Operator]
    let parallel: Parallel
    /// The calling thread alone, for operators too small to split (``Step/serial``).
    let serialParallel = Parallel(threadCount: 1)
    /// The instruction-set level of the microkernels this engine runs
    /// (`KernelLevel.resolve(options.kernelLevel)`), fixed at creation.
    public let kernelLevel: KernelLevel

    /// Current state of every tensor: shapes as of the last prepare, and for the tensors
    /// after an operator whose output shape depends on run-time values, as of the last invoke.
    public internal(set) var tensors: [TensorState]
    /// Shapes requested by `resizeInput`, applied at the next prepare.
    private var requestedInputShapes: [Int: [Int]] = [:]

    struct Step {
        /// The operator's index in the model (for errors and profiles).
        let operatorIndex: Int
        /// Its position in `executionOrder`.
        let position: Int
        let kernel: any PreparedKernel
        let scratchStart: Int
        let scratchCount: Int
        /// Whether the operator runs on the calling thread alone (``Parallel/runsSerially(work:)``,
        /// or every operator of a graph too small for threads, ``Parallel/graphRunsSerially(work:arenaBytes:)``).
        var serial: Bool
        /// The position of an operator this step's kernel also computes (``OperatorFusion``):
        /// the step writes that operator's outputs, and the tensor between the two is never
        /// materialized.
        var absorbed: Int? = nil
        /// The input (position among the operator's inputs) whose memory its output 0 may
        /// take over (``PrepareContext/allowOutputToShareInput(_:)``).
        var sharedInput: Int? = nil
    }
    var steps: [Step] = []
    /// Steps prepared by `init` for the model's own shapes, reused by the first `allocate()`.
    private var pendingPrepared: Prepared?
    private var arena: AlignedBuffer?
    var ownedBuffers: [AlignedBuffer] = []
    var pointerTable: UnsafeMutablePointer<UnsafeMutableRawPointer>
    var scratchTable: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private var scratchTableCount = 0
    /// Each thread's own scratch region (``PrepareContext/requestThreadScratch(bytesPerThread:)``),
    /// `threadRegionBytes` each, and the table of their addresses; none at 1 thread.
    private var threadRegions: [AlignedBuffer] = []
    let threadRegionTable: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private(set) var threadRegionBytes = 0
    /// Target of pointers for tensors without storage (absent optional inputs) and for
    /// tensors not placed in any arena yet.
    let emptyStorage = AlignedBuffer(zeroedCount: 64)
    /// The value of each STRING tensor, by tensor index (nil for other types): string
    /// tensors live outside the arena, and their pointer table entries point at these.
    var stringSlots: [StringSlot?] = []
    /// The dynamic-shape operator that ends the operators allocate prepared, if any.
    var headBoundary: DynamicBoundary?
    /// The segments prepared at invoke after `headBoundary`, each for the shapes its
    /// boundary last resolved to (the second one follows the first's own boundary, ...).
    var tails: [TailSegment] = []
    /// Arena bytes of the segments before the one being prepared (0 at allocate); folding
    /// in a later segment must leave them room in the memory budget.
    var reservedArenaBytes = 0
    /// How many times a segment after a dynamic-shape operator was prepared (for tests of
    /// the cache: it grows only when a resolved shape changes).
    package internal(set) var tailPreparations = 0

    /// Bytes of the constants computed at the last prepare (folded operator outputs). They
    /// count against `EngineOptions.memoryBudget` together with the arena.
    public internal(set) var foldedConstantBytes = 0
    /// Work the operators declared at the last prepare (``PrepareContext/declareWork(_:)``),
    /// checked against `EngineOptions.workBudget`.
    public internal(set) var work = 0

    /// True after a successful `allocate()` and until the next `resizeInput`.
    public private(set) var isAllocated = false
    /// Size in bytes of the arena `allocate()` planned (0 before). The operators after one
    /// whose output shape depends on run-time values have arenas of their own, planned at
    /// invoke and not counted here.
    public private(set) var arenaSize = 0

    /// Creates an engine for subgraph `subgraphIndex` of `model`.
    ///
    /// Give `interpreterState` to run another subgraph of an interpreter that already has an
    /// engine (a signature's subgraph): the two then share variables. Without it the
    /// engine starts an interpreter state of its own. Either way the subgraphs this one can reach
    /// through IF, WHILE and CALL_ONCE are checked first (indices, cycles, arity, types,
    /// kernels).
    public convenience init(
        model: Model, subgraphIndex: Int = 0, options: EngineOptions = EngineOptions(),
        interpreterState: InterpreterState? = nil
    ) throws(RuntimeError) {
        try self.init(
            model: model, subgraphIndex: subgraphIndex, options: options,
            interpreterState: interpreterState ?? InterpreterState(model: model, options: options), inputShapes: nil,
            calledByOperator: false)
    }

    /// Creates an engine; a control-flow operator's (`calledByOperator`) is prepared for
    /// `inputShapes` (one per subgraph input) instead of the shapes the file declares.
    init(
        model: Model, subgraphIndex: Int, options: EngineOptions, interpreterState: InterpreterState,
        inputShapes: [[Int]]?,
        calledByOperator: Bool = true
    ) throws(RuntimeError) {
        guard subgraphIndex >= 0, subgraphIndex < model.subgraphs.count else {
            throw .unsupportedModel("the model has no subgraph \(subgraphIndex)")
        }
        self.model = model
        self.subgraphIndex = subgraphIndex
        self.options = options
        self.interpreterState = interpreterState
        self.isCalledByOperator = calledByOperator
        self.subgraph = model.subgraphs[subgraphIndex]
        self.parallel =
            interpreterState.parallel.threadCount == options.threadCount
            ? interpreterState.parallel : Parallel(threadCount: options.threadCount)
        self.kernelLevel = KernelLevel.resolve(options.kernelLevel)
        self.tensors = []
        guard subgraph.operators.count <= options.maxOperators, subgraph.tensors.count <= options.maxTensors else {
            throw .unsupportedModel(
                "subgraph \(subgraphIndex) has \(subgraph.operators.count) operators and \(subgraph.tensors.count) tensors, more than the limits of \(options.maxOperators) and \(options.maxTensors)"
            )
        }
        self.executionOrder = options.fusesActivations ? ActivationFusion.plan(subgraph) : subgraph.operators
        let count = Swift.max(subgraph.tensors.count, 1)
        pointerTable = .allocate(capacity: count)
        scratchTable = .allocate(capacity: 1)
        threadRegionTable = .allocate(capacity: parallel.threadCount)
        pointerTable.initialize(repeating: emptyStorage.pointer, count: count)
        scratchTable.initialize(to: emptyStorage.pointer)
        threadRegionTable.initialize(repeating: emptyStorage.pointer, count: parallel.threadCount)
        if !calledByOperator {
            _ = try SubgraphCallGraph.validate(model, root: subgraphIndex, extra: options.customKernels)
        }
        tensors = try Self.initialTensors(subgraph)
        stringSlots = tensors.map { $0.type == .string ? StringSlot(interpreterState: interpreterState) : nil }
        pointStrings()
        if let inputShapes {
            guard inputShapes.count == subgraph.inputs.count else {
                throw .unsupportedModel(
                    "subgraph \(subgraphIndex) takes \(subgraph.inputs.count) inputs, not \(inputShapes.count)")
            }
            for (position, shape) in inputShapes.enumerated() { try resizeInput(position, to: shape) }
        }
        interpreterState.register(self)
        // Surface type and shape errors at creation; memory is only planned at allocate.
        pendingPrepared = try prepareSteps()
    }

    deinit {
        for slot in stringSlots { slot?.release() }
        pointerTable.deallocate()
        scratchTable.deallocate()
        threadRegionTable.deallocate()
    }

    /// Tensor indices of the graph's inputs and outputs.
    public var inputs: [Int] { subgraph.inputs }
    public var outputs: [Int] { subgraph.outputs }

    // MARK: - Resize

    /// Requests a new shape for graph input `position`; takes effect at the next `allocate()`.
    public func resizeInput(_ position: Int, to shape: [Int]) throws(RuntimeError) {
        guard position >= 0, position < subgraph.inputs.count else {
            throw .invalidInput(
                "input index \(position) is out of range (the model has \(subgraph.inputs.count) inputs)")
        }
        let t = subgraph.inputs[position]
        guard let size = tensors[t].type.byteSize ?? (tensors[t].type == .string ? 1 : nil) else {
            throw .invalidInput("input \(position) has type \(tensors[t].type), which cannot be resized")
        }
        guard shape.count <= 8, Shape.byteCount(shape, elementSize: size) != nil else {
            throw .invalidInput("input \(position): shape \(shape) is invalid (negative, rank above 8, or too large)")
        }
        if tensors[t].shape == shape && isAllocated { return }
        requestedInputShapes[t] = shape
        tensors[t].shape = shape
        isAllocated = false
        pendingPrepared = nil
    }

    // MARK: - Allocate

    /// Prepares every operator for the current input shapes and allocates the arena.
    public func allocate() throws(RuntimeError) {
        if isAllocated { return }
        arena = nil
        arenaSize = 0
        headBoundary = nil
        tails = []
        reservedArenaBytes = 0
        let prepared: Prepared
        if let pending = pendingPrepared {
            prepared = pending
            pendingPrepared = nil
        } else {
            tensors = try Self.initialTensors(subgraph)
            for (t, shape) in requestedInputShapes { tensors[t].shape = shape }
            prepared = try prepareSteps()
        }
        try plan(prepared)
        isAllocated = true
        resetVariableTensors()
    }

    /// Creates the tensor states the model declares, with constants wrapped.
    static func initialTensors(_ subgraph: Subgraph) throws(RuntimeError) -> [TensorState] {
        subgraph.tensors.map { t in
            // Natural alignment: the element size (a power of two up to 8), 16 for types without one.
            let alignment = t.type.byteSize.map { Swift.min(Swift.max($0, 1), 8) } ?? 16
            let storage: TensorState.Storage =
                t.constantData.map { .constant(ConstantBytes(view: $0, alignment: alignment)) } ?? .arena
            return TensorState(
                index: t.index, name: t.name, type: t.type, shape: t.shape,
                quantization: t.quantization, storage: storage, isVariable: t.isVariable,
                sparsity: t.sparsity, shapeSignature: t.shapeSignature)
        }
    }

    /// The prepared operators of one segment and their scratch requests.
    struct Prepared {
        var steps: [Step]
        var scratchSizes: [Int]
        /// The largest per-thread scratch of the steps and the boundary.
        var threadScratchBytes = 0
        /// The dynamic-shape operator that ends the segment, if any (its scratch requests
        /// follow the steps').
        var boundary: (step: Step, kernel: any DynamicShapeKernel)?
    }

    private func prepareSteps() throws(RuntimeError) -> Prepared {
        ownedBuffers = []
        foldedConstantBytes = 0
        work = 0
        reservedArenaBytes = 0
        return try prepareSegment(from: 0)
    }

    /// Prepares the operators from execution position `start` on, through the first one
    /// whose output shapes are known only at invoke.
    func prepareSegment(from start: Int) throws(RuntimeError) -> Prepared {
        var result = Prepared(steps: [], scratchSizes: [])
        let packer = ConstantPacker()
        for (position, op) in executionOrder.enumerated().dropFirst(start) {
            guard let prepare = KernelRegistry.prepare(for: op.code, extra: options.customKernels) else {
                throw .unsupportedOperator(index: op.index, op: op.code.name)
            }
            // The context takes the tensor states over (and gives them back) instead of
            // sharing them: a shared array would be copied by the kernel's first
            // `setOutputShape`, making preparation quadratic in the graph size.
            var context = PrepareContext(
                op: op, tensors: [], threadCount: parallel.threadCount,
                requantization: options.requantization, kernelLevel: kernelLevel,
                packer: packer, interpreterState: interpreterState)
            swap(&context.tensors, &tensors)
            var kernel: any PreparedKernel
            do {
                kernel = try prepare(&context)
                swap(&context.tensors, &tensors)
            } catch {
                swap(&context.tensors, &tensors)
                switch error.kind {
                case .unsupportedTypes: throw .unsupportedTypes(index: op.index, op: op.code.name, types: error.message)
                case .invalid: throw .invalidOperator(index: op.index, op: op.code.name, reason: error.message)
                case .valueNeeded(let t):
                    guard t >= 0, t < tensors.count, !tensors[t].isConstant else {
                        throw .invalidOperator(index: op.index, op: op.code.name, reason: error.message)
                    }
                    context = PrepareContext(
                        op: op, tensors: [], threadCount: parallel.threadCount,
                        requantization: options.requantization, kernelLevel: kernelLevel,
                        interpreterState: interpreterState)
                    kernel = LatePreparedKernel(
                        op: op, prepare: prepare, needed: [t], tensors: tensors, context: context,
                        memoryBudget: options.memoryBudget)
                }
            }
            let (total, overflow) = work.addingReportingOverflow(context.work)
            work = overflow ? .max : total
            guard work <= options.workBudget else {
                throw .workBudgetExceeded(required: work, budget: options.workBudget)
            }
            if let dynamic = kernel as? any DynamicShapeKernel {
                let step = Step(
                    operatorIndex: op.index, position: position, kernel: dynamic,
                    scratchStart: result.scratchSizes.count, scratchCount: context.scratchSizes.count,
                    serial: Parallel.runsSerially(work: context.work))
                result.boundary = (step, dynamic)
                result.scratchSizes += context.scratchSizes
                result.threadScratchBytes = Swift.max(result.threadScratchBytes, context.threadScratchBytes)
                break
            }
            // An operator whose outputs are all empty has nothing to compute, but its loops
            // may still run over the other dimensions (a [3586, H, W, 0] resize walks
            // 3586 x H x W pixels of no channels): work no byte of the budget pays for.
            if !op.outputs.isEmpty, op.outputs.allSatisfy({ $0 >= 0 && tensors[$0].byteCount == 0 }) { continue }
            if try fold(op, kernel: kernel, scratchSizes: context.scratchSizes, packer: packer) { continue }
            result.steps.append(
                Step(
                    operatorIndex: op.index, position: position, kernel: kernel,
                    scratchStart: result.scratchSizes.count, scratchCount: context.scratchSizes.count,
                    serial: Parallel.runsSerially(work: context.work), sharedInput: context.sharedInput))
            result.scratchSizes += context.scratchSizes
            result.threadScratchBytes = Swift.max(result.threadScratchBytes, context.threadScratchBytes)
        }
        packer.finish()
        if options.fusesExpansions {
            result.steps = OperatorFusion.fuseExpansions(
                result.steps, order: executionOrder, subgraph: subgraph, tensors: tensors,
                threadCount: parallel.threadCount)
        }
        return result
    }

    /// Evaluates `op` now if all its inputs are known, turning its outputs into constants.
    /// Returns false (leaving the op for invoke) when an input is only known at run time.
    private func fold(_ op: Operator, kernel: any PreparedKernel, scratchSizes: [Int], packer: ConstantPacker)
        throws(RuntimeError) -> Bool
    {
        let inputs = op.inputs.filter { $0 >= 0 }
        guard !op.outputs.isEmpty, !(kernel is any StatefulKernel), inputs.allSatisfy({ tensors[$0].isConstant })
        else { return false }
        // String values live in slots, not in the buffers folding hands the kernel.
        guard !(inputs + op.outputs).contains(where: { $0 >= 0 && tensors[$0].type == .string }) else { return false }
        let outputs = op.outputs
        guard outputs.allSatisfy({ $0 >= 0 && !subgraph.inputs.contains($0) && !tensors[$0].isVariable }) else {
            return false
        }
        // Folding allocates now, so it must fit the budget now: the outputs within
        // `maxFoldedConstantBytes`, and the outputs plus this op's scratch within what the
        // constants folded so far left of `memoryBudget`. An op that does not fit stays in
        // the graph, where the arena plan checks its memory against the budget.
        var outputBytes = 0
        var sizes: [Int] = []
        for t in outputs {
            guard let bytes = tensors[t].byteCount, bytes <= options.maxFoldedConstantBytes else { return false }
            let (sum, overflow) = outputBytes.addingReportingOverflow(bytes)
            guard !overflow, sum <= options.maxFoldedConstantBytes else { return false }
            outputBytes = sum
            sizes.append(bytes)
        }
        var transient = outputBytes
        for size in scratchSizes {
            let (sum, overflow) = transient.addingReportingOverflow(size)
            guard !overflow else { return false }
            transient = sum
        }
        let (held, heldOverflow) = foldedConstantBytes.addingReportingOverflow(reservedArenaBytes)
        guard !heldOverflow, transient <= options.memoryBudget - Swift.min(held, options.memoryBudget) else {
            return false
        }
        packer.finish() // the kernel's packed constants, before it runs
        let buffers = sizes.map { AlignedBuffer(zeroedCount: $0) }
        let scratch = scratchSizes.map { AlignedBuffer(zeroedCount: $0) }
        let table = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: Swift.max(tensors.count, 1))
        defer { table.deallocate() }
        table.initialize(repeating: emptyStorage.pointer, count: Swift.max(tensors.count, 1))
        for t in inputs {
            if let c = tensors[t].constant, let base = c.bytes.baseAddress {
                table[t] = UnsafeMutableRawPointer(mutating: base)
            }
        }
        for (t, b) in zip(outputs, buffers) { table[t] = b.pointer }
        let scratchPointers = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(
            capacity: Swift.max(scratch.count, 1))
        defer { scratchPointers.deallocate() }
        scratchPointers.initialize(repeating: emptyStorage.pointer, count: Swift.max(scratch.count, 1))
        for (i, b) in scratch.enumerated() { scratchPointers[i] = b.pointer }
        let context = EvalContext(
            tensors: table, scratch: scratchPointers, scratchCount: scratch.count, parallel: parallel)
        setBLASThreadCount(1) // as in invoke()
        do {
            // `scratchPointers` points into `scratch`, whose last use is above: an optimized
            // build may free it there, before the kernel writes its scratch (heap corruption).
            try withExtendedLifetime(scratch) { () throws(KernelError) in try kernel.eval(context) }
        } catch {
            throw .invokeFailed(index: op.index, op: op.code.name, reason: error.message)
        }
        for (t, b) in zip(outputs, buffers) {
            tensors[t].storage = .constant(ConstantBytes(owned: b))
            ownedBuffers.append(b)
        }
        foldedConstantBytes += outputBytes
        return true
    }

    // MARK: - Plan

    private func plan(_ prepared: Prepared) throws(RuntimeError) {
        // Rebuild the pointer tables for the new plan.
        pointerTable.update(repeating: emptyStorage.pointer, count: Swift.max(tensors.count, 1))
        let layout = try layout(prepared, start: 0, incoming: [], isHead: true)
        let buffer = AlignedBuffer(zeroedCount: layout.size)
        scratchTable.deallocate()
        scratchTableCount = prepared.scratchSizes.count
        scratchTable = .allocate(capacity: Swift.max(scratchTableCount, 1))
        scratchTable.initialize(repeating: emptyStorage.pointer, count: Swift.max(scratchTableCount, 1))
        for (t, offset) in layout.tensors { pointerTable[t] = buffer.pointer + offset }
        for (k, offset) in layout.scratch.enumerated() { scratchTable[k] = buffer.pointer + offset }
        pointConstants()
        pointStrings()
        arena = buffer
        arenaSize = layout.size
        try planStrings(tensors.indices)
        placeThreadRegions(bytes: prepared.threadScratchBytes, arenaBytes: layout.size)
        steps = prepared.steps
        if prepared.boundary == nil, Parallel.graphRunsSerially(work: work, arenaBytes: layout.size) {
            for i in steps.indices { steps[i].serial = true }
        }
        headBoundary = prepared.boundary.map { boundary(of: $0, reservedBytes: layout.size) }
    }

    /// Gives each thread a scratch region of `bytes` when the engine runs more than one
    /// thread and the regions fit in the memory budget beside the arena (`arenaBytes`) and
    /// the folded constants; otherwise kernels use their arena slots.
    private func placeThreadRegions(bytes: Int, arenaBytes: Int) {
        let threads = parallel.threadCount
        let (total, o1) = bytes.multipliedReportingOverflow(by: threads)
        let (withArena, o2) = total.addingReportingOverflow(arenaBytes)
        let (required, o3) = withArena.addingReportingOverflow(foldedConstantBytes)
        guard threads > 1, bytes > 0, !(o1 || o2 || o3), required <= options.memoryBudget else {
            threadRegions = []
            threadRegionBytes = 0
            threadRegionTable.update(repeating: emptyStorage.pointer, count: threads)
            return
        }
        if bytes != threadRegionBytes {
            threadRegions = (0 ..< threads).map { _ in AlignedBuffer(zeroedCount: bytes) }
            threadRegionBytes = bytes
            for (t, region) in threadRegions.enumerated() { threadRegionTable[t] = region.pointer }
        }
    }

    /// Points every constant tensor's entry at its bytes (a constant string's at its slot).
    func pointConstants() {
        for t in tensors.indices where stringSlots[t] == nil {
            if let c = tensors[t].constant, let base = c.bytes.baseAddress {
                pointerTable[t] = UnsafeMutableRawPointer(mutating: base)
            }
        }
    }

    // MARK: - Invoke

    /// Runs every prepared operator in order.
    public func invoke() throws(RuntimeError) {
        guard isAllocated else { throw .notAllocated }
        if !isCalledByOperator { interpreterState.beginInvoke(declared: work) }
        // Kernels split GEMMs over `parallel` themselves, in tiles fixed by the shapes, so
        // that results do not depend on the thread count; BLAS's own threading would not.
        setBLASThreadCount(1)
        for step in steps { try evaluate(step, scratch: scratchTable) }
        if let headBoundary { _ = try invokeAfter(headBoundary, profiled: false) }
    }

    /// Runs one prepared step whose scratch slots start in `scratch`.
    @inline(__always)
    func evaluate(_ step: Step, scratch: UnsafeMutablePointer<UnsafeMutableRawPointer>) throws(RuntimeError) {
        let context = EvalContext(
            tensors: pointerTable, scratch: scratch + step.scratchStart, scratchCount: step.scratchCount,
            parallel: step.serial ? serialParallel : parallel,
            threadRegions: threadRegionBytes > 0 ? UnsafePointer(threadRegionTable) : nil,
            threadRegionBytes: threadRegionBytes)
        do {
            try step.kernel.eval(context)
        } catch {
            let op = subgraph.operators[step.operatorIndex]
            throw .invokeFailed(index: op.index, op: op.code.name, reason: error.message)
        }
    }

    /// Runs every prepared operator like `invoke()`, timing each one.
    ///
    /// Returns, per executed step, the operator's index and its duration in seconds.
    /// Operators folded at prepare do not appear: they cost nothing at run time. An operator
    /// run inside another's step (``fusedOperators``) is counted in that step.
    public func invokeProfiled() throws(RuntimeError) -> [(operatorIndex: Int, seconds: Double)] {
        guard isAllocated else { throw .notAllocated }
        if !isCalledByOperator { interpreterState.beginInvoke(declared: work) }
        setBLASThreadCount(1)
        var timings: [(operatorIndex: Int, seconds: Double)] = []
        timings.reserveCapacity(steps.count)
        let clock = ContinuousClock()
        for step in steps {
            let start = clock.now
            try evaluate(step, scratch: scratchTable)
            let d = clock.now - start
            timings.append(
                (step.operatorIndex, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18))
        }
        if let headBoundary { timings += try invokeAfter(headBoundary, profiled: true) }
        return timings
    }

    /// Whether some operator's output shapes are known only at invoke (the graph has
    /// segments prepared then).
    package var hasRunTimeShapes: Bool { headBoundary != nil }

    /// The kernels that `invoke` runs, in order (for tests that check which one a shape selects).
    var preparedKernels: [any PreparedKernel] { steps.map(\.kernel) }

    /// Operators that run inside another operator's step (``EngineOptions/fusesExpansions``),
    /// keyed by the index of the operator whose step runs them: `invokeProfiled()` reports
    /// the pair's time under the key. Empty before `allocate()`.
    public var fusedOperators: [Int: Int] {
        var result: [Int: Int] = [:]
        for step in steps {
            if let p = step.absorbed, p >= 0, p < executionOrder.count {
                result[step.operatorIndex] = executionOrder[p].index
            }
        }
        return result
    }

    // MARK: - Data access

    /// The bytes of tensor `index` for the current shape, or nil before `allocate()`, for
    /// tensors without storage, and for tensors whose shape is not known yet (those after
    /// an operator whose output shape depends on run-time values, until an `invoke()` has
    /// reached them). Valid until the next `allocate()`, or for those tensors, until the
    /// next `invoke()`.
    public func buffer(forTensor index: Int) -> UnsafeMutableRawBufferPointer? {
        guard isAllocated, index >= 0, index < tensors.count else { return nil }
        switch tensors[index].storage {
        case .none: return nil
        case .arena where pointerTable[index] == emptyStorage.pointer: return nil
        case .arena, .constant:
            guard let n = tensors[index].byteCount else { return nil }
            return UnsafeMutableRawBufferPointer(start: pointerTable[index], count: n)
        }
    }
}
