import TFLiteModel

/// WHILE: loop values start as the operator's inputs; while the `cond` subgraph, given
/// them, returns true, the `body` subgraph maps them to their next values; the operator's
/// outputs are the values when `cond` returns false (its inputs, when it does at once).
///
/// Both subgraphs are prepared for the inputs' shapes. When the body gives back values of
/// the shapes it takes, the loop keeps them and the outputs have them from prepare
/// (``WhileStatic``); otherwise each iteration may reshape the values, the subgraphs are
/// planned again for each new shape, and the outputs take the final shapes
/// (``WhileDynamic``). Each run of either subgraph is charged to the invoke's work
/// budget, so a loop that would not end fails once it has spent it.
enum WhileKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .whileLoop(let condIndex, let bodyIndex) = context.op.options else {
            throw .invalid("missing WhileOptions")
        }
        guard context.outputCount == context.inputCount else {
            throw .invalid(
                "it has \(context.inputCount) inputs and \(context.outputCount) outputs; a loop needs as many of each")
        }
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        let shapes = try context.passedShapes(from: 0)
        let cond = try CalledSubgraph(condIndex, role: "cond", interpreterState: interpreterState, inputShapes: shapes)
        let body = try CalledSubgraph(bodyIndex, role: "body", interpreterState: interpreterState, inputShapes: shapes)
        guard cond.inputCount == shapes.count, cond.outputCount == 1, cond.outputState(0).type == .bool else {
            throw .invalid("its \(cond.label) must take the \(shapes.count) loop values and give one BOOL")
        }
        guard body.inputCount == shapes.count, body.outputCount == shapes.count else {
            throw .invalid("its \(body.label) must take and give the \(shapes.count) loop values")
        }
        for i in shapes.indices where body.outputState(i).type != body.inputState(i).type {
            throw .invalid(
                "its \(body.label) takes loop value \(i) as \(body.inputState(i).type) and gives it back as \(body.outputState(i).type)"
            )
        }
        let loop = try LoopValues(
            inputs: context.op.inputs, outputs: context.op.outputs, shapes: shapes, cond: cond, body: body)
        let keepsShapes = shapes.indices.allSatisfy { body.outputState($0).shape == shapes[$0] }
        if body.engine.hasRunTimeShapes || !keepsShapes { return WhileDynamic(loop: loop) }
        for (i, shape) in shapes.enumerated() { try context.setOutputShape(i, shape) }
        return WhileStatic(loop: loop)
    }
}

/// What both forms of the loop share: the tensors and subgraphs, and which values need
/// copying where.
struct LoopValues {
    let inputs: [Int]
    let outputs: [Int]
    /// The shapes and byte sizes of the operator's inputs, fixed at prepare.
    let shapes: [[Int]]
    let sizes: [Int]
    let cond: CalledSubgraph
    let body: CalledSubgraph
    /// The loop values `cond` reads; it is given only those.
    let condReads: [Int]
    /// Values the body passes through unchanged (its output is its input tensor): they
    /// keep the value the body was first given, so they are never copied again.
    let passedThrough: [Bool]
    /// Values whose body output is another value's input tensor (the body swaps two
    /// values): they are read before any input is written.
    let crossing: [Int]

    init(inputs: [Int], outputs: [Int], shapes: [[Int]], cond: CalledSubgraph, body: CalledSubgraph)
        throws(KernelError)
    {
        self.inputs = inputs
        self.outputs = outputs
        self.shapes = shapes
        self.cond = cond
        self.body = body
        sizes = try shapes.indices.map { i throws(KernelError) in
            guard let size = body.inputState(i).type.byteSize, let bytes = Shape.byteCount(shapes[i], elementSize: size)
            else {
                throw .types(
                    "loop value \(i) has type \(body.inputState(i).type); WHILE passes values of fixed-size types only (STRING loop values are not supported)"
                )
            }
            return bytes
        }
        let condGraph = cond.engine.model.subgraphs[cond.engine.subgraphIndex]
        var read = Set(condGraph.outputs)
        for op in condGraph.operators { read.formUnion(op.inputs) }
        condReads = condGraph.inputs.indices.filter { read.contains(condGraph.inputs[$0]) }
        let (bodyInputs, bodyOutputs) = (body.engine.inputs, body.engine.outputs)
        let same = bodyInputs.indices.map { bodyOutputs[$0] == bodyInputs[$0] }
        passedThrough = same
        crossing = bodyInputs.indices.filter { !same[$0] && bodyInputs.contains(bodyOutputs[$0]) }
    }

    /// Runs `cond` on the values it was last given and reads its verdict.
    func condition() throws(KernelError) -> Bool {
        try cond.invoke()
        let verdict = try cond.output(0)
        guard verdict.count == 1, let base = verdict.baseAddress else {
            throw .invalid("its \(cond.label) gave \(verdict.count) values instead of one BOOL")
        }
        return base.load(as: Bool.self)
    }
}

/// Copies a value into a tensor of the same size.
@inline(__always)
func transfer(_ source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawBufferPointer) throws(KernelError) {
    guard source.count == destination.count else {
        throw .invalid("a value of \(source.count) bytes does not fit its \(destination.count)-byte tensor")
    }
    guard let from = source.baseAddress, let to = destination.baseAddress else { return }
    copyTensor(from: from, to: to, bytes: source.count)
}

/// Copies a value held in an array into a tensor of the same size.
func transfer(_ bytes: [UInt8], to destination: UnsafeMutableRawBufferPointer) throws(KernelError) {
    guard bytes.count == destination.count else {
        throw .invalid("a value of \(bytes.count) bytes does not fit its \(destination.count)-byte tensor")
    }
    bytes.withUnsafeBytes { raw in
        if let from = raw.baseAddress, let to = destination.baseAddress {
            copyTensor(from: from, to: to, bytes: raw.count)
        }
    }
}

extension EvalContext {
    /// `bytes` of tensor `index`.
    func bytes(_ index: Int, count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: raw(index), count: count)
    }
}

/// WHILE whose body keeps the values' shapes: the values move between the subgraphs'
/// own tensors, and reach the operator's outputs once the loop ends.
struct WhileStatic: StatefulKernel {
    let loop: LoopValues

    func eval(_ context: EvalContext) throws(KernelError) {
        let (cond, body) = (loop.cond, loop.body)
        let given = loop.inputs.indices.map { context.bytes(loop.inputs[$0], count: loop.sizes[$0]) }
        for i in loop.condReads { try transfer(UnsafeRawBufferPointer(given[i]), to: cond.input(i)) }
        guard try loop.condition() else {
            for (i, t) in loop.outputs.enumerated() where t >= 0 {
                try transfer(UnsafeRawBufferPointer(given[i]), to: context.bytes(t, count: loop.sizes[i]))
            }
            return
        }
        for i in given.indices { try transfer(UnsafeRawBufferPointer(given[i]), to: body.input(i)) }
        while true {
            try body.invoke()
            for i in loop.condReads where !loop.passedThrough[i] { try transfer(body.output(i), to: cond.input(i)) }
            guard try loop.condition() else { break }
            try feedBack()
        }
        for (i, t) in loop.outputs.enumerated() where t >= 0 {
            try transfer(body.output(i), to: context.bytes(t, count: loop.sizes[i]))
        }
    }

    /// Copies the body's outputs into its inputs for the next iteration, reading the
    /// crossing values before writing any input.
    private func feedBack() throws(KernelError) {
        let body = loop.body
        let staged = try loop.crossing.map { i throws(KernelError) in (i, Array(try body.output(i))) }
        for i in body.engine.outputs.indices where !loop.passedThrough[i] && !loop.crossing.contains(i) {
            try transfer(body.output(i), to: body.input(i))
        }
        for (i, bytes) in staged { try transfer(bytes, to: body.input(i)) }
    }
}

/// WHILE whose values may change shape from one iteration to the next: they are kept in
/// buffers of the kernel's own between the subgraphs' runs, the subgraphs are planned for
/// each new shape, and `outputShapes` runs the whole loop (the final shapes are the
/// outputs'), after which `eval` copies the values out.
final class WhileDynamic: DynamicShapeKernel, StatefulKernel {
    let loop: LoopValues
    /// The current values and their shapes. Each array keeps its storage from one
    /// iteration to the next while its size holds.
    private var values: [(shape: [Int], bytes: [UInt8])] = []

    init(loop: LoopValues) { self.loop = loop }

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let (cond, body) = (loop.cond, loop.body)
        values = loop.inputs.indices.map {
            (loop.shapes[$0], Array(UnsafeRawBufferPointer(context.bytes(loop.inputs[$0], count: loop.sizes[$0]))))
        }
        // Whether the body's input tensor still holds the value (a passed-through value is
        // written once, until the body is planned again for new shapes).
        var bodyHolds = [Bool](repeating: false, count: values.count)
        while true {
            try cond.resizeInputs(values.map(\.shape))
            for i in loop.condReads { try transfer(values[i].bytes, to: cond.input(i)) }
            guard try loop.condition() else { break }
            if try body.resizeInputs(values.map(\.shape)) { bodyHolds = bodyHolds.map { _ in false } }
            for i in values.indices where !bodyHolds[i] {
                try transfer(values[i].bytes, to: body.input(i))
                bodyHolds[i] = loop.passedThrough[i]
            }
            try body.invoke()
            for i in values.indices where !loop.passedThrough[i] {
                let output = try body.output(i)
                values[i].shape = body.outputState(i).shape
                if values[i].bytes.count == output.count {
                    values[i].bytes.withUnsafeMutableBytes { $0.copyMemory(from: output) }
                } else {
                    values[i].bytes = Array(output)
                }
            }
        }
        return values.map(\.shape)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        for (i, t) in loop.outputs.enumerated() where t >= 0 && i < values.count {
            try transfer(values[i].bytes, to: context.bytes(t, count: values[i].bytes.count))
        }
        values = []
    }
}
