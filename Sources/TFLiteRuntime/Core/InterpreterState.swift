import TFLiteModel

/// What the subgraphs of one interpreter share while it lives: the resource variables
/// (`VAR_HANDLE`, `READ_VARIABLE`, `ASSIGN_VARIABLE`) and which initialization subgraphs
/// `CALL_ONCE` has run, the engines of the subgraphs that control-flow operators call,
/// and the work one invoke has spent in them.
///
/// The ``Engine`` an interpreter creates makes the interpreter state; every engine created for
/// another subgraph of the same interpreter (a signature's, or one an IF, WHILE or
/// CALL_ONCE operator runs) is given the same one, so they all see the same variables.
/// Like an engine, an interpreter state is not thread-safe.
public final class InterpreterState {
    public let model: Model
    /// The options every engine of the interpreter state is created with.
    public let options: EngineOptions
    /// The worker threads of every engine of the interpreter state: a subgraph that an operator
    /// runs runs on the same threads as its caller, not on a pool of its own.
    let parallel: Parallel
    /// How deeply control-flow operators nest right now (an engine being created inside
    /// another's preparation counts one more level).
    var callDepth = 0
    /// The deepest nesting of called subgraphs allowed: each level prepares inside the one
    /// above it, so a file chaining thousands would overflow the stack.
    static let maximumCallDepth = 64

    /// The value of each resource variable assigned so far, by resource id.
    var variables: [Int32: ResourceVariable] = [:]
    /// The resource id of each `(container, shared_name)`, numbered in the order the
    /// subgraphs' VAR_HANDLE operators name them (subgraph 0's first), as LiteRT numbers
    /// them when it builds the interpreter.
    let resourceIDs: [ResourceName: Int32]
    /// The initialization subgraphs CALL_ONCE has run (cleared by ``resetVariables()``).
    var initializedSubgraphs = Set<Int>()
    /// The hash tables HASHTABLE has created, by table id (spec/text-ops.md).
    var tables: [Int32: LookupTable] = [:]
    /// Bytes of storage the engines' STRING tensors hold (``StringSlot``).
    var stringBytes = 0

    /// Every engine of the interpreter state, to reset their variable tensors and count their memory.
    private var engines: [WeakEngine] = []

    /// Work still allowed in the current invoke of a top-level engine (see
    /// ``charge(_:)``), counted from ``EngineOptions/workBudget`` less that engine's own
    /// declared work.
    private var workLeft = Int.max

    init(model: Model, options: EngineOptions) {
        self.model = model
        self.options = options
        self.parallel = Parallel(threadCount: options.threadCount)
        var ids: [ResourceName: Int32] = [:]
        for subgraph in model.subgraphs {
            for op in subgraph.operators {
                guard case .varHandle(let container, let sharedName) = op.options else { continue }
                let name = ResourceName(container: container, sharedName: sharedName)
                if ids[name] == nil, let id = Int32(exactly: ids.count) { ids[name] = id }
            }
        }
        resourceIDs = ids
    }

    // MARK: - Engines

    func register(_ engine: Engine) {
        engines.removeAll { $0.engine == nil }
        engines.append(WeakEngine(engine: engine))
    }

    /// An engine for subgraph `index`, run by a control-flow operator, prepared for the
    /// given input shapes (nil: the model's). It shares this interpreter state.
    func makeChildEngine(subgraph index: Int, inputShapes: [[Int]]?) throws(RuntimeError) -> Engine {
        guard callDepth < Self.maximumCallDepth else {
            throw .unsupportedModel("control-flow operators nest more than \(Self.maximumCallDepth) subgraphs deep")
        }
        callDepth += 1
        defer { callDepth -= 1 }
        return try Engine(
            model: model, subgraphIndex: index, options: options, interpreterState: self, inputShapes: inputShapes)
    }

    /// Bytes held by the interpreter state's engines other than `engine` (nil: all of them): their
    /// arenas and the constants they computed; and the resource variables' values, the hash
    /// tables and the strings of every engine's STRING tensors. An engine planning its arena
    /// must leave them room within the memory budget.
    func heldBytes(besides engine: Engine?) -> Int {
        var total = Self.add(stringBytes, tableBytes)
        for case let other? in engines.map(\.engine) where other !== engine {
            total = Self.add(total, Self.add(other.arenaSize, other.foldedConstantBytes))
        }
        for variable in variables.values { total = Self.add(total, variable.bytes.count) }
        return total
    }

    /// Bytes the hash tables hold.
    var tableBytes: Int { tables.values.reduce(0) { Self.add($0, $1.bytes) } }

    /// The arenas of every engine of the interpreter state.
    var arenaBytes: Int {
        engines.compactMap(\.engine).reduce(0) { Self.add($0, $1.arenaSize) }
    }

    static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    // MARK: - Variables

    /// Returns every variable of the interpreter to its state before the first invoke:
    /// each engine's variable tensors (``Engine/resetVariableTensors()``), and the resource
    /// variables unassigned, with the initialization subgraphs to run again at the next
    /// invoke (so variables a CALL_ONCE subgraph sets get their initial values back), and
    /// the hash tables emptied (the same initialization fills them again).
    public func resetVariables() {
        variables = [:]
        tables = [:]
        initializedSubgraphs = []
        for case let engine? in engines.map(\.engine) { engine.resetVariableTensors() }
    }

    // MARK: - Work

    /// Starts counting the work of one invoke of a top-level engine whose own operators
    /// declared `declared`.
    func beginInvoke(declared: Int) {
        workLeft = options.workBudget == .max ? .max : Swift.max(0, options.workBudget - declared)
    }

    /// Spends `amount` of the current invoke's work: a control-flow operator charges each
    /// subgraph it runs, so a loop that would run past ``EngineOptions/workBudget`` fails
    /// instead of running on.
    func charge(_ amount: Int) throws(KernelError) {
        guard workLeft != .max else { return }
        guard amount <= workLeft else {
            throw .invalid(
                "the subgraphs it runs take more than the work budget of \(options.workBudget) multiply-accumulates per invoke (EngineOptions.workBudget)"
            )
        }
        workLeft -= amount
    }
}

/// The name a VAR_HANDLE gives its variable.
struct ResourceName: Hashable {
    var container: String
    var sharedName: String
}

private struct WeakEngine {
    weak var engine: Engine?
}

extension Engine {
    /// The arena of this engine and of every other engine of its interpreter (those of the
    /// subgraphs its control-flow operators run, and its signatures').
    public var totalArenaBytes: Int { interpreterState.arenaBytes }
}
