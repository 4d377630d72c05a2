import TFLiteModel

/// A subgraph that a control-flow operator runs, with the engine that runs it.
///
/// The engine shares the caller's ``InterpreterState`` (variables, threads, the invoke's work) and
/// is prepared and planned for the shapes of the tensors the caller passes; it keeps its
/// plan until those shapes change, so a loop whose shapes hold plans its body once.
/// Errors of the engine come back as the caller's, naming the subgraph and its operator.
final class CalledSubgraph {
    let engine: Engine
    /// Where the subgraph stands in messages: `body subgraph 2 ('while_body')`.
    let label: String
    let interpreterState: InterpreterState
    /// Work charged per invoke (``InterpreterState/charge(_:)``): the operators' declared work plus
    /// a fixed amount per operator, so that even a loop of cheap operators runs into a
    /// finite budget.
    private(set) var cost = 0

    init(_ index: Int, role: String, interpreterState: InterpreterState, inputShapes: [[Int]]) throws(KernelError) {
        guard index >= 0, index < interpreterState.model.subgraphs.count else {
            throw .invalid("its \(role) subgraph \(index) does not exist")
        }
        label = "\(role) subgraph \(index) ('\(interpreterState.model.subgraphs[index].name)')"
        self.interpreterState = interpreterState
        do {
            engine = try interpreterState.makeChildEngine(subgraph: index, inputShapes: inputShapes)
            try engine.allocate()
        } catch {
            throw .invalid("\(label): \(error)")
        }
        updateCost()
    }

    private func updateCost() {
        let (perOperator, o1) = 64.multipliedReportingOverflow(
            by: engine.model.subgraphs[engine.subgraphIndex].operators.count + 1)
        let (sum, o2) = engine.work.addingReportingOverflow(perOperator)
        cost = o1 || o2 ? .max : sum
    }

    var inputCount: Int { engine.inputs.count }
    var outputCount: Int { engine.outputs.count }

    /// The tensor state of input (or output) `i`.
    func inputState(_ i: Int) -> TensorState { engine.tensors[engine.inputs[i]] }
    func outputState(_ i: Int) -> TensorState { engine.tensors[engine.outputs[i]] }

    /// Gives the inputs new shapes and plans the subgraph for them; nothing happens for
    /// the shapes it already has.
    /// Returns whether the subgraph was planned again (its inputs then hold nothing).
    @discardableResult
    func resizeInputs(_ shapes: [[Int]]) throws(KernelError) -> Bool {
        do {
            for (i, shape) in shapes.enumerated() where inputState(i).shape != shape {
                try engine.resizeInput(i, to: shape)
            }
            guard !engine.isAllocated else { return false }
            try engine.allocate()
            updateCost()
            return true
        } catch {
            throw .invalid("\(label): \(error)")
        }
    }

    /// The slot of input (or output) `i` when it is a STRING tensor: strings pass between
    /// engines by copying their buffers, checked again on arrival.
    func inputSlot(_ i: Int) -> StringSlot? { engine.stringSlots[engine.inputs[i]] }
    func outputSlot(_ i: Int) -> StringSlot? { engine.stringSlots[engine.outputs[i]] }

    /// The memory of input `i` (planned by allocate, so always there).
    func input(_ i: Int) throws(KernelError) -> UnsafeMutableRawBufferPointer {
        guard let buffer = engine.buffer(forTensor: engine.inputs[i]) else {
            throw .invalid("\(label): input \(i) has no memory")
        }
        return buffer
    }

    /// The memory of output `i` after an invoke.
    func output(_ i: Int) throws(KernelError) -> UnsafeRawBufferPointer {
        guard let buffer = engine.buffer(forTensor: engine.outputs[i]) else {
            throw .invalid("\(label): output \(i) was not computed")
        }
        return UnsafeRawBufferPointer(buffer)
    }

    /// Runs the subgraph once, charging its work to the caller's invoke.
    func invoke() throws(KernelError) {
        try interpreterState.charge(cost)
        do {
            try engine.invoke()
        } catch {
            throw .invalid("\(label): \(error)")
        }
    }
}

/// Copies `count` bytes between tensors of equal size, as control-flow operators pass
/// values in and out of subgraphs.
@inline(__always)
func copyTensor(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, bytes count: Int) {
    if count > 0, source != UnsafeRawPointer(destination) {
        destination.copyMemory(from: source, byteCount: count)
    }
}

extension PrepareContext {
    /// The shapes of the operator's inputs from position `start` on, each required
    /// present: control-flow operators pass them to a subgraph.
    func passedShapes(from start: Int) throws(KernelError) -> [[Int]] {
        var shapes: [[Int]] = []
        for i in start ..< inputCount {
            guard inputIndex(i) != nil else { throw .invalid("input \(i) is absent") }
            shapes.append(try input(i).shape)
        }
        return shapes
    }
}
