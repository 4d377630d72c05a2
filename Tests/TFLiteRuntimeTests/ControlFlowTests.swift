import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// IF, WHILE and CALL_ONCE run other subgraphs of the model; resource variables keep
/// values between invokes. The conformance corpus checks them against LiteRT
/// (`cases_control_flow.py`); these tests cover what LiteRT cannot be asked (loops that
/// never end, malformed call graphs) and the engine's bookkeeping.
@Suite struct ControlFlowTests {
    static let add = BuiltinOptions.add(activation: .none, potScaleInt16: true)
    static let mul = BuiltinOptions.mul(activation: .none)

    /// Subgraph 1: `i < limit` on loop values (i: int32, x: float32 [2]).
    static func lessThan(_ limit: Int32) -> GraphBuilder {
        var c = GraphBuilder()
        let i = c.input([], .int32)
        _ = c.input([2], .float32)
        let n = c.constant([limit], shape: [])
        let flag = c.tensor([], .bool)
        c.op(.less, inputs: [i, n], outputs: [flag])
        c.output(flag)
        return c
    }

    /// Subgraph 2: `(i + 1, x · 2)`.
    static func doubling() -> GraphBuilder {
        var b = GraphBuilder()
        let i = b.input([], .int32)
        let x = b.input([2], .float32)
        let one = b.constant([Int32(1)], shape: [])
        let two = b.constant([Float(2)], shape: [1])
        let next = b.tensor([], .int32)
        let y = b.tensor([2], .float32)
        b.op(.add, inputs: [i, one], outputs: [next], options: add)
        b.op(.mul, inputs: [x, two], outputs: [y], options: mul)
        b.output(next)
        b.output(y)
        return b
    }

    /// Main: WHILE over (i, x) with the given condition and body subgraphs.
    static func loop(cond: Int = 1, body: Int = 2) -> GraphBuilder {
        var g = GraphBuilder()
        let i = g.input([], .int32)
        let x = g.input([2], .float32)
        let i2 = g.tensor([], .int32)
        let y = g.tensor([2], .float32)
        g.op(.while, inputs: [i, x], outputs: [i2, y], options: .whileLoop(condSubgraph: cond, bodySubgraph: body))
        g.output(i2)
        g.output(y)
        return g
    }

    @Test func whileRunsUntilTheConditionFails() throws {
        let model = GraphBuilder.model([Self.loop(), Self.lessThan(5), Self.doubling()])
        for threads in [1, 2] {
            var options = EngineOptions()
            options.threadCount = threads
            let engine = try Engine(model: model, options: options)
            try engine.allocate()
            for (start, trips) in [(0, 5), (3, 2), (7, 0)] as [(Int32, Int)] {
                try engine.setInput(0, [start])
                try engine.setInput(1, [1.5, -2] as [Float])
                try engine.invoke()
                #expect(try engine.output(0, as: Int32.self) == [start + Int32(trips)])
                let scale = Float(1 << trips)
                #expect(try engine.output(1, as: Float.self) == [1.5 * scale, -2 * scale])
            }
        }
    }

    /// A loop whose condition never fails stops at the work budget with an error naming
    /// the WHILE, instead of running on.
    @Test func aLoopThatNeverEndsStopsAtTheWorkBudget() throws {
        var always = GraphBuilder()
        _ = always.input([], .int32)
        _ = always.input([2], .float32)
        let yes = always.constant([true], shape: [], .bool)
        always.output(yes)
        var options = EngineOptions()
        options.workBudget = 1_000_000
        let engine = try Engine(model: GraphBuilder.model([Self.loop(), always, Self.doubling()]), options: options)
        try engine.allocate()
        try engine.setInput(0, [Int32(0)])
        try engine.setInput(1, [1, 1] as [Float])
        do {
            try engine.invoke()
            Issue.record("the loop ended")
        } catch {
            #expect("\(error)".contains("operator 0 (WHILE)"), "\(error)")
            #expect("\(error)".contains("work budget"), "\(error)")
        }
    }

    /// A loop value that starts with no rows and gains one each iteration (the loop's
    /// shapes change every time, so its subgraphs are planned per shape).
    @Test func aLoopGrowsItsValueFromEmpty() throws {
        var cond = GraphBuilder()
        let ci = cond.input([], .int32)
        _ = cond.input([0, 2], .float32)
        let limit = cond.constant([Int32(4)], shape: [])
        let flag = cond.tensor([], .bool)
        cond.op(.less, inputs: [ci, limit], outputs: [flag])
        cond.output(flag)
        var body = GraphBuilder()
        let bi = body.input([], .int32)
        let rows = body.input([0, 2], .float32)
        let one = body.constant([Int32(1)], shape: [])
        let row = body.constant([Float(7), 8], shape: [1, 2])
        let next = body.tensor([], .int32)
        let grown = body.tensor([], .float32)
        body.op(.add, inputs: [bi, one], outputs: [next], options: Self.add)
        body.op(
            .concatenation, inputs: [rows, row], outputs: [grown], options: .concatenation(axis: 0, activation: .none))
        body.output(next)
        body.output(grown)
        var main = GraphBuilder()
        let i = main.input([], .int32)
        let empty = main.constant([Float](), shape: [0, 2])
        let i2 = main.tensor([], .int32)
        let out = main.tensor([0, 2], .float32)
        main.op(.while, inputs: [i, empty], outputs: [i2, out], options: .whileLoop(condSubgraph: 1, bodySubgraph: 2))
        main.output(out)
        let engine = try Engine(model: GraphBuilder.model([main, cond, body]))
        try engine.allocate()
        for start in [0, 2, 4] as [Int32] {
            try engine.setInput(0, [start])
            try engine.invoke()
            let n = Int(4 - start)
            #expect(engine.outputShape(0) == [n, 2])
            #expect(try engine.output(0, as: Float.self) == Array(repeating: [Float(7), 8], count: n).flatMap { $0 })
        }
    }

    @Test func malformedCallsAreRefusedAtCreation() {
        func refusal(_ graphs: [GraphBuilder]) -> String {
            do {
                _ = try Engine(model: GraphBuilder.model(graphs))
                return "created"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            refusal([Self.loop(cond: 1, body: 7), Self.lessThan(3), Self.doubling()]).contains(
                "operator 0 (WHILE) of subgraph 0 calls subgraph 7 as its body subgraph, but the model has 3 subgraphs")
        )
        #expect(
            refusal([Self.loop(cond: 1, body: 1), Self.lessThan(3)]).contains("as both its condition and its body"))
        // Subgraph 2's body is the main subgraph again.
        #expect(
            refusal([Self.loop(), Self.lessThan(3), Self.loop(cond: 1, body: 0)]).contains(
                "which is already running: a cycle of calls (0 → 2 → 0)"))
        // A body giving back one value of a loop of two.
        var short = GraphBuilder()
        let i = short.input([], .int32)
        _ = short.input([2], .float32)
        short.output(i)
        #expect(refusal([Self.loop(), Self.lessThan(3), short]).contains("expects 2 outputs from its body subgraph 2"))
        // A condition that gives an int32 instead of a bool.
        var notBool = GraphBuilder()
        let ni = notBool.input([], .int32)
        _ = notBool.input([2], .float32)
        notBool.output(ni)
        #expect(refusal([Self.loop(), notBool, Self.doubling()]).contains("must give one BOOL output"))
        // A body that takes the float value as int32.
        var mistyped = GraphBuilder()
        let mi = mistyped.input([], .int32)
        let mx = mistyped.input([2], .int32)
        mistyped.output(mi)
        mistyped.output(mx)
        #expect(
            refusal([Self.loop(), Self.lessThan(3), mistyped]).contains(
                "passes a FLOAT32 tensor as input 1 of its body subgraph 2"))
    }

    /// An operator without a kernel in a called subgraph is named with its subgraph.
    @Test func aMissingKernelInACalledSubgraphIsNamed() {
        var body = Self.doubling()
        let extra = body.tensor([2], .float32)
        body.op(.concatEmbeddings, inputs: [1], outputs: [extra])
        do {
            _ = try Engine(model: GraphBuilder.model([Self.loop(), Self.lessThan(3), body]))
            Issue.record("created")
        } catch {
            #expect(error.unsupportedOperators == [UnsupportedOperator(index: 2, op: "CONCAT_EMBEDDINGS", subgraph: 2)])
            #expect("\(error)".contains("operators 2 of subgraph 2 (CONCAT_EMBEDDINGS) are not supported"))
        }
    }

    /// IF chained 70 subgraphs deep is refused instead of preparing subgraph after
    /// subgraph on the stack.
    @Test func deepNestingIsRefused() {
        var graphs: [GraphBuilder] = []
        for k in 0 ..< 70 {
            var g = GraphBuilder()
            let x = g.input([1], .float32)
            let y = g.tensor([1], .float32)
            let yes = g.constant([true], shape: [], .bool)
            g.op(.if, inputs: [yes, x], outputs: [y], options: .ifBranches(thenSubgraph: k + 1, elseSubgraph: k + 1))
            g.output(y)
            graphs.append(g)
        }
        var last = GraphBuilder()
        let x = last.input([1], .float32)
        last.output(x)
        graphs.append(last)
        do {
            _ = try Engine(model: GraphBuilder.model(graphs))
            Issue.record("created")
        } catch {
            #expect("\(error)".contains("nest more than 64 subgraphs deep"), "\(error)")
        }
    }

    // MARK: - Variables

    /// Main: VAR_HANDLE 'v'; v ← v + x (READ, ADD, ASSIGN); output READ v. With `initial`
    /// a CALL_ONCE first runs subgraph 1, which assigns v the constant [10, 20].
    static func accumulator(initial: Bool) -> Model {
        var g = GraphBuilder()
        let x = g.input([2], .float32)
        let handle = g.tensor([], .resource)
        let old = g.tensor([2], .float32)
        let sum = g.tensor([2], .float32)
        let now = g.tensor([2], .float32)
        if initial { g.op(.callOnce, inputs: [], outputs: [], options: .callOnce(initSubgraph: 1)) }
        g.op(.varHandle, inputs: [], outputs: [handle], options: .varHandle(container: "", sharedName: "v"))
        g.op(.readVariable, inputs: [handle], outputs: [old])
        g.op(.add, inputs: [old, x], outputs: [sum], options: add)
        g.op(.assignVariable, inputs: [handle, sum], outputs: [])
        g.op(.readVariable, inputs: [handle], outputs: [now])
        g.output(now)
        var start = GraphBuilder()
        let h = start.tensor([], .resource)
        let value = start.constant([Float(10), 20], shape: [2])
        start.op(.varHandle, inputs: [], outputs: [h], options: .varHandle(container: "", sharedName: "v"))
        start.op(.assignVariable, inputs: [h, value], outputs: [])
        return GraphBuilder.model(initial ? [g, start] : [g])
    }

    @Test func variablesKeepTheirValuesUntilReset() throws {
        let engine = try Engine(model: Self.accumulator(initial: true))
        try engine.allocate()
        var expected: [Float] = [10, 20]
        for step in 1 ... 4 {
            try engine.setInput(0, [Float(step), 1])
            try engine.invoke()
            expected = [expected[0] + Float(step), expected[1] + 1]
            #expect(try engine.output(0, as: Float.self) == expected)
        }
        engine.interpreterState.resetVariables()
        try engine.setInput(0, [1, 1] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [11, 21])
    }

    @Test func readingAVariableBeforeAnyAssignmentFails() throws {
        let engine = try Engine(model: Self.accumulator(initial: false))
        try engine.allocate()
        try engine.setInput(0, [1, 1] as [Float])
        do {
            try engine.invoke()
            Issue.record("the read succeeded")
        } catch {
            #expect(
                "\(error)"
                    == "operator 1 (READ_VARIABLE) failed: variable 'v' is read before any value was assigned to it")
        }
    }
}
