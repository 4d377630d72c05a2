import TFLiteModel

/// A dynamic-shape operator that ends a segment of the execution order, with the state
/// the engine restores before each preparation of the operators after it.
struct DynamicBoundary {
    let step: Step
    let kernel: any DynamicShapeKernel
    /// Tensor states once the segment was prepared: shapes of everything before this
    /// operator, and the model's own states for everything after it.
    let tensors: [TensorState]
    let work: Int
    let foldedConstantBytes: Int
    let ownedBufferCount: Int
    /// Arena bytes of this segment and of every segment before it.
    let reservedBytes: Int

    typealias Step = Engine.Step
}

/// The operators after a dynamic-shape operator, prepared and planned at invoke for the
/// shapes that operator's outputs resolved to.
final class TailSegment {
    /// The resolved output shapes of the boundary before this segment.
    let shapes: [[Int]]
    let steps: [Engine.Step]
    let arena: AlignedBuffer
    let scratchTable: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// The tensors this segment gave memory (in its arena) or folded into constants.
    let placed: [Int]
    /// The next dynamic-shape operator, which ends this segment.
    let boundary: DynamicBoundary?

    init(
        shapes: [[Int]], steps: [Engine.Step], arena: AlignedBuffer,
        scratchTable: UnsafeMutablePointer<UnsafeMutableRawPointer>, placed: [Int], boundary: DynamicBoundary?
    ) {
        self.shapes = shapes
        self.steps = steps
        self.arena = arena
        self.scratchTable = scratchTable
        self.placed = placed
        self.boundary = boundary
    }

    deinit { scratchTable.deallocate() }
}

extension Engine {
    /// Where one segment's tensors and scratch buffers lie in its arena.
    struct Layout {
        var size: Int
        var tensors: [(index: Int, offset: Int)]
        /// Offsets of the segment's scratch buffers, in request order.
        var scratch: [Int]
    }

    /// Plans the arena of one segment, the operators from execution position `start` on:
    /// the tensors with arena storage that no earlier segment placed and that its steps
    /// touch, `incoming` (the outputs of the dynamic-shape operator before it, alive from
    /// the start), and the graph outputs its operators write (even those left out as
    /// empty); at allocate (`isHead`), also the graph inputs, variables and the outputs no
    /// operator writes. The outputs of the dynamic-shape operator that ends the segment are
    /// left to the next one. Tensors that later operators read stay alive to the end.
    func layout(_ prepared: Prepared, start: Int, incoming: [Int], isHead: Bool) throws(RuntimeError) -> Layout {
        // The tensors each step touches as it runs, then the boundary's (at index
        // `steps.count`), which writes its outputs only in the next segment. A step that
        // absorbed a second operator touches both but not the tensor between them.
        var touchedBySteps: [[Int]] = prepared.steps.map { step in
            let op = executionOrder[step.position]
            guard let absorbed = step.absorbed else { return op.inputs + op.outputs + op.intermediates }
            let second = executionOrder[absorbed]
            return op.inputs + op.intermediates + second.inputs.filter { !op.outputs.contains($0) }
                + second.outputs + second.intermediates
        }
        if let boundary = prepared.boundary {
            let op = executionOrder[boundary.step.position]
            touchedBySteps.append(op.inputs + op.intermediates)
        }
        let end = Swift.max(touchedBySteps.count, 1)
        var first = [Int](repeating: Int.max, count: tensors.count)
        var last = [Int](repeating: Int.min, count: tensors.count)
        for (s, touched) in touchedBySteps.enumerated() {
            for t in touched where t >= 0 && t < tensors.count {
                first[t] = Swift.min(first[t], s)
                last[t] = Swift.max(last[t], s)
            }
        }
        for t in incoming where t >= 0 && t < tensors.count {
            first[t] = -1
            last[t] = Swift.max(last[t], -1)
        }
        // What this segment's operators write, and what operators after the boundary read or write.
        let stop = prepared.boundary?.step.position ?? executionOrder.count
        var writtenHere = Set<Int>(incoming)
        for op in executionOrder[start ..< Swift.max(start, stop)] { writtenHere.formUnion(op.outputs) }
        var usedLater = Set<Int>()
        var writtenLater = Set<Int>()
        if let boundary = prepared.boundary {
            writtenLater.formUnion(executionOrder[boundary.step.position].outputs)
            for op in executionOrder[(boundary.step.position + 1)...] {
                usedLater.formUnion(op.inputs)
                usedLater.formUnion(op.intermediates)
                usedLater.formUnion(op.outputs)
                writtenLater.formUnion(op.outputs)
            }
        }
        var lives: [Int: ArenaPlanner.Request] = [:]
        var order: [Int] = []
        for t in tensors.indices where stringSlots[t] == nil {
            guard case .arena = tensors[t].storage, pointerTable[t] == emptyStorage.pointer else { continue }
            let fixed = subgraph.inputs.contains(t) || tensors[t].isVariable
            let output = subgraph.outputs.contains(t)
            let pinned =
                (isHead && fixed) || (output && !writtenLater.contains(t) && (isHead || writtenHere.contains(t)))
            guard pinned || first[t] != Int.max else { continue }
            guard let bytes = tensors[t].byteCount else {
                throw .unsupportedModel(
                    "tensor \(t) ('\(tensors[t].name)') has type \(tensors[t].type) and shape \(tensors[t].shape), whose size cannot be computed"
                )
            }
            let life: (first: Int, last: Int)
            if pinned || fixed || output {
                life = (-1, end)
            } else if usedLater.contains(t) {
                life = (first[t], end)
            } else {
                life = (first[t], last[t])
            }
            lives[t] = .init(size: bytes, first: life.first, last: life.last)
            order.append(t)
        }
        // In-place operators: an output that takes its input's memory joins that input's
        // request, which then lives as long as both.
        let sharing = sharedMemory(prepared, lives: lives, last: last, usedLater: usedLater)
        for (t, root) in sharing {
            guard let a = lives[root], let b = lives[t] else { continue }
            lives[root] = .init(
                size: Swift.max(a.size, b.size), first: Swift.min(a.first, b.first), last: Swift.max(a.last, b.last))
        }
        var requests: [ArenaPlanner.Request] = []
        var owners: [Int] = []
        for t in order where sharing[t] == nil {
            if let life = lives[t] {
                requests.append(life)
                owners.append(t)
            }
        }
        let tensorCount = requests.count
        var s = 0
        for k in prepared.scratchSizes.indices {
            // Scratch requests follow the steps' order; the boundary's come last.
            while s < prepared.steps.count, k >= prepared.steps[s].scratchStart + prepared.steps[s].scratchCount {
                s += 1
            }
            requests.append(.init(size: prepared.scratchSizes[k], first: s, last: s))
        }
        guard let plan = ArenaPlanner.plan(requests) else {
            throw .memoryBudgetExceeded(required: Int.max, budget: options.memoryBudget)
        }
        var required = plan.size
        var overflow = false
        for held in [foldedConstantBytes, reservedArenaBytes, interpreterState.heldBytes(besides: self)] where !overflow
        {
            (required, overflow) = required.addingReportingOverflow(held)
        }
        guard !overflow, required <= options.memoryBudget else {
            throw .memoryBudgetExceeded(required: overflow ? Int.max : required, budget: options.memoryBudget)
        }
        var placed = owners.enumerated().map { ($0.element, plan.offsets[$0.offset]) }
        var offsets: [Int: Int] = [:]
        for (t, offset) in placed { offsets[t] = offset }
        for t in order {
            if let root = sharing[t], let offset = offsets[root] { placed.append((t, offset)) }
        }
        return Layout(size: plan.size, tensors: placed, scratch: Array(plan.offsets[tensorCount...]))
    }

    /// The outputs that take over an input's memory in this segment, each mapped to the
    /// tensor whose request holds both (the first of a chain of in-place operators).
    /// A step's output shares its input `k` when the kernel allows it and the input is an
    /// activation planned here (in `lives`), of the output's size, read by no later step
    /// or segment (`last`, `usedLater`), not read twice by the step, and no graph input,
    /// graph output or variable; the output must be no graph input or variable either.
    func sharedMemory(
        _ prepared: Prepared, lives: [Int: ArenaPlanner.Request], last: [Int], usedLater: Set<Int>
    ) -> [Int: Int] {
        var root: [Int: Int] = [:]
        for (s, step) in prepared.steps.enumerated() {
            guard let k = step.sharedInput, step.absorbed == nil else { continue }
            let op = executionOrder[step.position]
            guard k >= 0, k < op.inputs.count, let output = op.outputs.first else { continue }
            let input = op.inputs[k]
            guard input >= 0, output >= 0, input != output, op.inputs.filter({ $0 == input }).count == 1,
                let a = lives[input], let b = lives[output], a.size == b.size,
                last[input] == s, !usedLater.contains(input),
                !subgraph.inputs.contains(input), !subgraph.outputs.contains(input), !tensors[input].isVariable,
                !subgraph.inputs.contains(output), !tensors[output].isVariable
            else { continue }
            root[output] = root[input] ?? input
        }
        return root
    }

    /// The boundary record of a segment just prepared and planned.
    func boundary(of prepared: (step: Step, kernel: any DynamicShapeKernel), reservedBytes: Int) -> DynamicBoundary {
        DynamicBoundary(
            step: prepared.step, kernel: prepared.kernel, tensors: tensors, work: work,
            foldedConstantBytes: foldedConstantBytes, ownedBufferCount: ownedBuffers.count,
            reservedBytes: reservedBytes)
    }

    // MARK: - Invoke

    /// Runs the dynamic-shape operator `boundary` and everything after it: resolves its
    /// output shapes, prepares and plans the next segment when they differ from the
    /// cached one's, then runs the operator and the segment, and so on down the chain.
    /// Returns per-operator timings when `profiled`.
    func invokeAfter(_ first: DynamicBoundary, profiled: Bool) throws(RuntimeError) -> [(
        operatorIndex: Int, seconds: Double
    )] {
        var timings: [(operatorIndex: Int, seconds: Double)] = []
        let clock = ContinuousClock()
        var boundary = first
        var scratch = scratchTable
        var level = 0
        while true {
            let start = profiled ? clock.now : nil
            let step = boundary.step
            let op = executionOrder[step.position]
            let context = EvalContext(
                tensors: pointerTable, scratch: scratch + step.scratchStart, scratchCount: step.scratchCount,
                parallel: parallel, threadRegions: threadRegionBytes > 0 ? UnsafePointer(threadRegionTable) : nil,
                threadRegionBytes: threadRegionBytes)
            let shapes: [[Int]]
            do {
                shapes = try boundary.kernel.outputShapes(context)
            } catch {
                throw .invokeFailed(index: op.index, op: op.code.name, reason: error.message)
            }
            let tail: TailSegment
            if level < tails.count, tails[level].shapes == shapes {
                tail = tails[level]
            } else {
                tail = try prepareTail(at: level, after: boundary, shapes: shapes)
            }
            do {
                try boundary.kernel.eval(context)
            } catch {
                throw .invokeFailed(index: op.index, op: op.code.name, reason: error.message)
            }
            if let start { timings.append((op.index, Self.seconds(clock.now - start))) }
            for step in tail.steps {
                let start = profiled ? clock.now : nil
                try evaluate(step, scratch: tail.scratchTable)
                if let start { timings.append((step.operatorIndex, Self.seconds(clock.now - start))) }
            }
            guard let next = tail.boundary else { return timings }
            boundary = next
            scratch = tail.scratchTable
            level += 1
        }
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    // MARK: - Preparing at invoke

    /// Prepares and plans the segment after `boundary` (the `level`-th after allocate's)
    /// for its outputs' `shapes`, replacing that segment and every later one. On failure
    /// the engine is left as allocate left it for this boundary (the tensors after it
    /// have no memory), so the next invoke tries again.
    private func prepareTail(at level: Int, after boundary: DynamicBoundary, shapes: [[Int]]) throws(RuntimeError)
        -> TailSegment
    {
        dropTails(from: level)
        restore(boundary)
        let op = executionOrder[boundary.step.position]
        do {
            try setResolvedShapes(shapes, of: op)
            let prepared = try prepareSegment(from: boundary.step.position + 1)
            try requireConsistentSizes(since: boundary, resolved: zip(op.outputs, shapes))
            let layout = try layout(
                prepared, start: boundary.step.position + 1,
                incoming: op.outputs.filter { $0 >= 0 && $0 < tensors.count }, isHead: false)
            let buffer = AlignedBuffer(zeroedCount: layout.size)
            let table = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(
                capacity: Swift.max(layout.scratch.count, 1))
            table.initialize(repeating: emptyStorage.pointer, count: Swift.max(layout.scratch.count, 1))
            for (k, offset) in layout.scratch.enumerated() { table[k] = buffer.pointer + offset }
            var placed: [Int] = []
            for (t, offset) in layout.tensors {
                pointerTable[t] = buffer.pointer + offset
                placed.append(t)
            }
            try planStrings(tensors.indices)
            for t in tensors.indices where boundary.tensors[t].constant == nil && stringSlots[t] == nil {
                if let c = tensors[t].constant, let base = c.bytes.baseAddress {
                    pointerTable[t] = UnsafeMutableRawPointer(mutating: base)
                    placed.append(t)
                }
            }
            let reserved = boundary.reservedBytes + layout.size // both within the budget
            let tail = TailSegment(
                shapes: shapes, steps: prepared.steps, arena: buffer, scratchTable: table, placed: placed,
                boundary: prepared.boundary.map { self.boundary(of: $0, reservedBytes: reserved) })
            tails.append(tail)
            tailPreparations += 1
            return tail
        } catch {
            restore(boundary)
            switch error {
            case .memoryBudgetExceeded, .workBudgetExceeded, .allocationFailed:
                throw .invokeFailed(
                    index: op.index, op: op.code.name,
                    reason:
                        "its output shapes \(shapes), known only at run time, leave the rest of the graph unable to run: \(error)"
                )
            default:
                throw error
            }
        }
    }

    /// Gives the boundary operator's outputs their resolved shapes, checking each against
    /// its element type's size (a kernel's count is still data from the file).
    private func setResolvedShapes(_ shapes: [[Int]], of op: Operator) throws(RuntimeError) {
        guard shapes.count == op.outputs.count else {
            throw .invokeFailed(
                index: op.index, op: op.code.name,
                reason: "resolved \(shapes.count) output shapes for \(op.outputs.count) outputs")
        }
        for (t, shape) in zip(op.outputs, shapes) where t >= 0 && t < tensors.count {
            guard let size = tensors[t].type.byteSize ?? (stringSlots[t] != nil ? 1 : nil), shape.count <= 8,
                Shape.byteCount(shape, elementSize: size) != nil
            else {
                throw .invokeFailed(
                    index: op.index, op: op.code.name,
                    reason: "output shape \(shape) is invalid or too large for type \(tensors[t].type)")
            }
            tensors[t].shape = shape
        }
    }

    /// Rejects a segment whose memory would not match what its operators write: the
    /// boundary's outputs must get memory of the resolved shapes in this segment (not be
    /// placed already, as a tensor the boundary also reads would be, and keep those shapes
    /// through the segment's preparation, which a second writer could change), and a
    /// tensor an earlier segment placed must keep its size (a variable written after the
    /// boundary, say).
    private func requireConsistentSizes(
        since boundary: DynamicBoundary, resolved: Zip2Sequence<[Int], [[Int]]>
    ) throws(RuntimeError) {
        for (t, shape) in resolved where t >= 0 && t < tensors.count {
            let unplaced = stringSlots[t] != nil || pointerTable[t] == emptyStorage.pointer
            guard unplaced, tensors[t].shape == shape, !tensors[t].isConstant else {
                throw .unsupportedModel(
                    "tensor \(t) ('\(tensors[t].name)'), an output whose shape is known only at invoke, is also placed or reshaped by another operator"
                )
            }
        }
        for t in tensors.indices {
            guard case .arena = boundary.tensors[t].storage, pointerTable[t] != emptyStorage.pointer else { continue }
            guard tensors[t].byteCount == boundary.tensors[t].byteCount else {
                throw .unsupportedModel(
                    "tensor \(t) ('\(tensors[t].name)') was planned with shape \(boundary.tensors[t].shape) before a dynamic-shape operator, and an operator after it gives it shape \(tensors[t].shape)"
                )
            }
        }
    }

    /// Forgets the segments from `level` on: their tensors lose their memory.
    private func dropTails(from level: Int) {
        guard level < tails.count else { return }
        for tail in tails[level...] {
            for t in tail.placed { pointerTable[t] = emptyStorage.pointer }
        }
        tails.removeSubrange(level...)
    }

    /// Puts the engine's prepare state back to where it was after `boundary`'s segment.
    private func restore(_ boundary: DynamicBoundary) {
        tensors = boundary.tensors
        work = boundary.work
        foldedConstantBytes = boundary.foldedConstantBytes
        if ownedBuffers.count > boundary.ownedBufferCount {
            ownedBuffers.removeSubrange(boundary.ownedBufferCount...)
        }
        reservedArenaBytes = boundary.reservedBytes
    }
}
