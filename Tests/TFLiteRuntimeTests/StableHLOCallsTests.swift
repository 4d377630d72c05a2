import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// STABLEHLO_CASE, STABLEHLO_COMPOSITE, STABLEHLO_REDUCE_WINDOW and STABLEHLO_SCATTER on
/// hand-worked values, and the errors for malformed calls and computations. The
/// conformance corpus checks them against LiteRT (`cases_stablehlo_calls.py`).
@Suite struct StableHLOCallsTests {
    /// A subgraph mapping one float32 [3] input through `code` (with `options`).
    static func unary(_ code: BuiltinOperator, options: BuiltinOptions = .none) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input([3], .float32)
        let y = g.tensor([3], .float32)
        g.op(code, inputs: [x], outputs: [y], options: options)
        g.output(y)
        return g
    }

    /// Main: CASE on (index, x) over `branches`.
    static func caseGraph(_ branches: [Int]) -> GraphBuilder {
        var g = GraphBuilder()
        let i = g.input([], .int32)
        let x = g.input([3], .float32)
        let y = g.tensor([3], .float32)
        g.op(.stablehloCase, inputs: [i, x], outputs: [y], options2: .stablehloCase(branchSubgraphs: branches))
        g.output(y)
        return g
    }

    static func refusal(_ graphs: [GraphBuilder]) -> String {
        do {
            let engine = try Engine(model: GraphBuilder.model(graphs))
            try engine.allocate()
            return "created"
        } catch {
            return "\(error)"
        }
    }

    @Test func caseRunsTheIndexedBranchAndTheLastOutOfRange() throws {
        let model = GraphBuilder.model([
            Self.caseGraph([1, 2, 3]), Self.unary(.abs), Self.unary(.neg), Self.unary(.relu),
        ])
        let engine = try Engine(model: model)
        try engine.allocate()
        let x: [Float] = [-1.5, 0.25, 2]
        for (index, expected) in [
            (0, [1.5, 0.25, 2]), (1, [1.5, -0.25, -2]), (2, [0, 0.25, 2]), (3, [0, 0.25, 2]), (-1, [0, 0.25, 2]),
            (Int32.max, [0, 0.25, 2]),
        ] as [(Int32, [Float])] {
            try engine.setInput(0, [index])
            try engine.setInput(1, x)
            try engine.invoke()
            #expect(try engine.output(0, as: Float.self) == expected, "index \(index)")
        }
    }

    @Test func compositeRunsItsDecomposition() throws {
        var main = GraphBuilder()
        let a = main.input([3], .float32)
        let b = main.input([3], .float32)
        let y = main.tensor([3], .float32)
        main.op(
            .stablehloComposite, inputs: [a, b], outputs: [y],
            options2: .stablehloComposite(name: "odml.sum", decompositionSubgraph: 1, version: 1))
        main.output(y)
        var sum = GraphBuilder()
        let sa = sum.input([3], .float32)
        let sb = sum.input([3], .float32)
        let sy = sum.tensor([3], .float32)
        sum.op(.stablehloAdd, inputs: [sa, sb], outputs: [sy])
        sum.output(sy)
        let engine = try Engine(model: GraphBuilder.model([main, sum]))
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3] as [Float])
        try engine.setInput(1, [0.5, -2, 10] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [1.5, 0, 13])
    }

    @Test func malformedCaseAndCompositeCallsAreRefused() {
        #expect(
            Self.refusal([Self.caseGraph([1, 9]), Self.unary(.abs)]).contains(
                "operator 0 (STABLEHLO_CASE) of subgraph 0 calls subgraph 9 as its branch 1 subgraph, but the model has 2 subgraphs"
            ))
        #expect(Self.refusal([Self.caseGraph([]), Self.unary(.abs)]).contains("name no branch subgraph"))
        // A branch that calls the main subgraph again.
        #expect(
            Self.refusal([Self.caseGraph([1, 0]), Self.unary(.abs)]).contains(
                "which is already running: a cycle of calls (0 → 0)"))
        // A float index.
        var floatIndex = Self.caseGraph([1])
        floatIndex.replaceInputs(of: 0, with: [1, 1])
        #expect(Self.refusal([floatIndex, Self.unary(.abs)]).contains("the branch index is FLOAT32, not INT32"))
        // A decomposition that takes one input where the composite passes two.
        var main = GraphBuilder()
        let a = main.input([3], .float32)
        let b = main.input([3], .float32)
        let y = main.tensor([3], .float32)
        main.op(
            .stablehloComposite, inputs: [a, b], outputs: [y],
            options2: .stablehloComposite(name: "odml.x", decompositionSubgraph: 1, version: 1))
        main.output(y)
        #expect(
            Self.refusal([main, Self.unary(.abs)]).contains(
                "operator 0 (STABLEHLO_COMPOSITE) of subgraph 0 passes 2 tensors to its decomposition subgraph 1"))
    }

    /// A computation subgraph on two scalars of `type`: `code(a, b)`, or nothing at all.
    static func computation(_ code: BuiltinOperator?, _ type: ElementType = .float32, options: BuiltinOptions = .none)
        -> GraphBuilder
    {
        var g = GraphBuilder()
        let a = g.input([], type)
        let b = g.input([], type)
        guard let code else {
            g.output(b)
            return g
        }
        let y = g.tensor([], type)
        g.op(code, inputs: [a, b], outputs: [y], options: options)
        g.output(y)
        return g
    }

    func reduceWindow(
        _ x: [Float], initial: Float, body: GraphBuilder, window: [Int64], strides: [Int64] = [1],
        base: [Int64] = [1], dilations: [Int64] = [1], padding: [Int64] = [0, 0]
    ) throws -> [Float] {
        var g = GraphBuilder()
        let xi = g.input([x.count], .float32)
        let iv = g.constant([initial], shape: [])
        let y = g.tensor([1], .float32)
        g.op(
            .stablehloReduceWindow, inputs: [xi, iv], outputs: [y],
            options2: .stablehloReduceWindow(
                StablehloReduceWindowOptions(
                    windowDimensions: window, windowStrides: strides, baseDilations: base, windowDilations: dilations,
                    padding: padding, bodySubgraph: 1)))
        g.output(y)
        let engine = try Engine(model: GraphBuilder.model([g, body]))
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.invoke()
        return try engine.output(0, as: Float.self)
    }

    @Test func reduceWindowPadsDilatesAndFolds() throws {
        let add = Self.computation(.stablehloAdd)
        // Padded with the initial value: [10, 1, 2, 3, 4, 10]; windows of 3 every 2.
        #expect(
            try reduceWindow([1, 2, 3, 4], initial: 10, body: add, window: [3], strides: [2], padding: [1, 1]) == [
                23, 19,
            ])
        // Window dilation 2 on the same padded input: (0, 2), (1, 3), (2, 4), (3, 5).
        #expect(
            try reduceWindow([1, 2, 3, 4], initial: 10, body: add, window: [2], dilations: [2], padding: [1, 1]) == [
                22, 14, 16, 23,
            ])
        // Base dilation 2: [1, i, 5, i, 3] with i = -100; TFLite's MAXIMUM as the body.
        #expect(
            try reduceWindow([1, 5, 3], initial: -100, body: Self.computation(.maximum), window: [2], base: [2]) == [
                1, 5, 5, 3,
            ])
        // Negative padding crops: [2, 3] of [1, 2, 3, 4], multiplied from 1.
        #expect(
            try reduceWindow(
                [1, 2, 3, 4], initial: 1, body: Self.computation(.mul, options: .mul(activation: .none)), window: [2],
                padding: [-1, -1]) == [6])
    }

    @Test func unrecognisedReductionsAreRefusedNamingTheOperator() {
        func refusal(_ body: GraphBuilder, padding: [Int64] = [0, 0]) -> String {
            do {
                _ = try reduceWindow([1, 2, 3], initial: 0, body: body, window: [2], padding: padding)
                return "ran"
            } catch {
                return "\(error)"
            }
        }
        let sub = refusal(Self.computation(.sub, options: .sub(activation: .none, potScaleInt16: true)))
        #expect(sub.contains("STABLEHLO_REDUCE_WINDOW"), "\(sub)")
        #expect(sub.contains("its reduction subgraph 1 ('subgraph1') computes SUB; only"), "\(sub)")
        var twice = Self.computation(.stablehloAdd)
        let extra = twice.tensor([], .float32)
        twice.op(.stablehloAdd, inputs: [2, 2], outputs: [extra])
        #expect(refusal(twice).contains("has 2 operators; only one operator"))
        #expect(refusal(Self.computation(nil)).contains("has no operator; it must be one operator of"))
        let relu = refusal(Self.computation(.add, options: .add(activation: .relu, potScaleInt16: true)))
        #expect(relu.contains("its ADD has a fused activation"), "\(relu)")
        // An ADD of the first input with itself is not a reduction of the two.
        var same = GraphBuilder()
        let a = same.input([], .float32)
        _ = same.input([], .float32)
        let y = same.tensor([], .float32)
        same.op(.stablehloAdd, inputs: [a, a], outputs: [y])
        same.output(y)
        #expect(refusal(same).contains("does not combine the two inputs into the output"))
        #expect(refusal(Self.computation(.stablehloAdd), padding: [-2, -2]).contains("leave no element of the input"))
    }

    @Test func reduceWindowBodyOutOfRangeIsRefusedAtCreation() {
        var g = GraphBuilder()
        let x = g.input([3], .float32)
        let iv = g.constant([Float(0)], shape: [])
        let y = g.tensor([2], .float32)
        g.op(
            .stablehloReduceWindow, inputs: [x, iv], outputs: [y],
            options2: .stablehloReduceWindow(
                StablehloReduceWindowOptions(
                    windowDimensions: [2], windowStrides: [1], baseDilations: [1], windowDilations: [1],
                    padding: [0, 0], bodySubgraph: 5)))
        g.output(y)
        #expect(
            Self.refusal([g]).contains(
                "operator 0 (STABLEHLO_REDUCE_WINDOW) of subgraph 0 calls subgraph 5 as its reduction subgraph, but the model has 1 subgraphs"
            ))
    }

    /// Operand [5, 2], row indices [3, 0, 3, 7], rows of updates; `body` combines.
    func scatterRows(_ body: GraphBuilder, type: ElementType = .float32, options: StablehloScatterOptions? = nil)
        throws -> [Float]
    {
        var g = GraphBuilder()
        let x = g.input([5, 2], type)
        let i = g.constant([Int32(3), 0, 3, 7], shape: [4, 1])
        let u = g.input([4, 2], type)
        let y = g.tensor([5, 2], type)
        g.op(
            .stablehloScatter, inputs: [x, i, u], outputs: [y],
            options2: .stablehloScatter(
                options
                    ?? StablehloScatterOptions(
                        updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0],
                        indexVectorDim: 1, updateComputationSubgraph: 1)))
        g.output(y)
        let engine = try Engine(model: GraphBuilder.model([g, body]))
        try engine.allocate()
        try engine.setInput(0, (0 ..< 10).map { Float($0) })
        try engine.setInput(1, [100, 200, 300, 400, 500, 600, 700, 800] as [Float])
        try engine.invoke()
        return try engine.output(0, as: Float.self)
    }

    @Test func scatterCombinesRowsInOrderAndSkipsOutOfRange() throws {
        // Row 3 is updated twice (updates 0 and 2), row 0 once, index 7 is outside.
        #expect(try scatterRows(Self.computation(nil)) == [300, 400, 2, 3, 4, 5, 500, 600, 8, 9])
        #expect(
            try scatterRows(Self.computation(.stablehloAdd)) == [300, 401, 2, 3, 4, 5, 606, 807, 8, 9])
        #expect(try scatterRows(Self.computation(.stablehloMinimum)) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    /// 10,000 scalar updates (past one 4096-element chunk of targets) into 7 elements:
    /// sums, and for replace the last update of each element, as a plain loop gives them.
    @Test func scatterKeepsUpdateOrderAcrossChunks() throws {
        let n = 10_000
        // Targets 7 and 8 fall outside.
        var targets: [Int32] = [], values: [Int32] = []
        for k in 0 ..< n {
            let target = (k * 5 + k / 3) % 9
            targets.append(Int32(target))
            values.append(Int32(k % 101 - 50))
        }
        for body in [Self.computation(.stablehloAdd, .int32), Self.computation(nil, .int32)] {
            var g = GraphBuilder()
            let x = g.input([7], .int32)
            let i = g.constant(targets, shape: [n, 1], .int32)
            let u = g.input([n], .int32)
            let y = g.tensor([7], .int32)
            g.op(
                .stablehloScatter, inputs: [x, i, u], outputs: [y],
                options2: .stablehloScatter(
                    StablehloScatterOptions(
                        updateWindowDims: [], insertedWindowDims: [0], scatterDimsToOperandDims: [0],
                        indexVectorDim: 1, updateComputationSubgraph: 1)))
            g.output(y)
            let engine = try Engine(model: GraphBuilder.model([g, body]))
            try engine.allocate()
            let start: [Int32] = [1, 2, 3, 4, 5, 6, 7]
            try engine.setInput(0, start)
            try engine.setInput(1, values)
            try engine.invoke()
            var expected = start
            let adds = !body.operators.isEmpty
            for (t, v) in zip(targets, values) where t < 7 {
                expected[Int(t)] = adds ? expected[Int(t)] &+ v : v
            }
            #expect(try engine.output(0, as: Int32.self) == expected)
        }
    }

    @Test func malformedScattersAreRefused() {
        func refusal(_ body: GraphBuilder, _ options: StablehloScatterOptions? = nil) -> String {
            do {
                _ = try scatterRows(body, options: options)
                return "ran"
            } catch {
                return "\(error)"
            }
        }
        // TFLite's ADD is not among the computations LiteRT's scatter recognises.
        let add = refusal(Self.computation(.add, options: .add(activation: .none, potScaleInt16: true)))
        #expect(add.contains("STABLEHLO_SCATTER"), "\(add)")
        #expect(add.contains("computes ADD; only STABLEHLO_ADD, STABLEHLO_MAXIMUM"), "\(add)")
        // No operator, but the result is the current value rather than the update.
        var keep = GraphBuilder()
        let a = keep.input([], .float32)
        _ = keep.input([], .float32)
        keep.output(a)
        #expect(refusal(keep).contains("has no operator and does not return its second input"))
        let replace = Self.computation(nil)
        #expect(
            refusal(
                replace,
                StablehloScatterOptions(
                    updateWindowDims: [1], insertedWindowDims: [], scatterDimsToOperandDims: [0], indexVectorDim: 1,
                    updateComputationSubgraph: 1)
            ).contains("must together count the operand's rank 2"))
        #expect(
            refusal(
                replace,
                StablehloScatterOptions(
                    updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0, 1],
                    indexVectorDim: 1, updateComputationSubgraph: 1)
            ).contains("the index vectors hold 1 values but scatter_dims_to_operand_dims has 2"))
        #expect(
            refusal(
                replace,
                StablehloScatterOptions(
                    updateWindowDims: [0], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1,
                    updateComputationSubgraph: 1)
            ).contains("the updates' scatter dimensions [2] differ from the indices' batch dimensions [4]"))
        #expect(
            refusal(
                replace,
                StablehloScatterOptions(
                    updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 3,
                    updateComputationSubgraph: 1)
            ).contains("index_vector_dim 3 is out of range 0...2"))
    }

    @Test func subgraphCallsNameEachRole() {
        func calls(_ code: BuiltinOperator, _ options2: BuiltinOptions2) -> [String] {
            Operator(index: 0, code: OperatorCode(builtin: code), inputs: [], outputs: [], options2: options2)
                .subgraphCalls.map { "\($0.role) → \($0.subgraph)" }
        }
        #expect(calls(.stablehloCase, .stablehloCase(branchSubgraphs: [2, 1])) == ["branch 0 → 2", "branch 1 → 1"])
        #expect(
            calls(.stablehloComposite, .stablehloComposite(name: "n", decompositionSubgraph: 3, version: 1)) == [
                "decomposition → 3"
            ])
        let scatter = StablehloScatterOptions(
            updateWindowDims: [], insertedWindowDims: [], scatterDimsToOperandDims: [], indexVectorDim: 0,
            updateComputationSubgraph: 4)
        #expect(calls(.stablehloScatter, .stablehloScatter(scatter)) == ["update → 4"])
        // A table attached to another operator calls nothing.
        #expect(calls(.add, .stablehloScatter(scatter)).isEmpty)
    }
}
