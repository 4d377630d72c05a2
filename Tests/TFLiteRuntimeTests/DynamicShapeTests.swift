import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Operators after one whose output shape depends on run-time values (WHERE): prepared
/// at invoke, cached while the shape stays, with their memory under the budget.
@Suite struct DynamicShapeTests {
    /// mask [2, 3] → WHERE → [n, 2] int64 → CAST float → ADD y [1, 2] → output.
    static func whereCastAdd() -> (GraphBuilder, where: Int) {
        var g = GraphBuilder()
        let mask = g.input([2, 3], .bool)
        let y = g.input([1, 2], .float32)
        let w = g.tensor([1, 2], .int64)
        let f = g.tensor([1, 2], .float32)
        let z = g.tensor([1, 2], .float32)
        g.op(.where, inputs: [mask], outputs: [w])
        g.op(.cast, inputs: [w], outputs: [f], options: .cast(inType: .int64, outType: .float32))
        g.op(.add, inputs: [f, y], outputs: [z], options: .add(activation: .none, potScaleInt16: true))
        g.output(z)
        return (g, w)
    }

    static func expectedSums(_ mask: [Bool], shape: [Int], plus y: [Float]) -> [Float] {
        let rows = referenceCoordinates(mask, shape: shape) { $0 }.rows
        return rows.enumerated().map { Float($0.element) + y[$0.offset % 2] }
    }

    @Test func operatorsAfterWhereRunAndFollowTheShape() throws {
        let engine = try Self.whereCastAdd().0.engine()
        try engine.allocate()
        // Nothing after WHERE has memory or a shape before the first invoke.
        #expect(engine.buffer(forTensor: engine.outputs[0]) == nil)
        let y: [Float] = [0.5, -10]
        try engine.setInput(1, y)
        let masks: [[Bool]] = [
            [true, false, true, false, false, true], // 3 rows
            [false, true, false, true, true, false], // 3 rows: the cached tail is reused
            [true, true, true, false, true, true], // 5 rows: prepared again
            [false, false, false, false, false, false], // no rows
            [true, false, false, false, false, false], // 1 row
        ]
        let preparations = [1, 1, 2, 3, 4]
        for (mask, prepared) in zip(masks, preparations) {
            try engine.setInput(0, mask)
            try engine.invoke()
            let n = mask.filter { $0 }.count
            #expect(engine.outputShape(0) == [n, 2])
            #expect(try engine.output(0, as: Float.self) == Self.expectedSums(mask, shape: [2, 3], plus: y))
            #expect(engine.tailPreparations == prepared)
        }
        // A resize and allocate start over: the tail is prepared again at the next invoke.
        try engine.resizeInput(1, to: [1, 1])
        try engine.allocate()
        #expect(engine.buffer(forTensor: engine.outputs[0]) == nil)
        try engine.setInput(0, [false, true, false, false, false, true])
        try engine.setInput(1, [2] as [Float])
        try engine.invoke()
        #expect(engine.tailPreparations == 5)
        #expect(try engine.output(0, as: Float.self) == [2, 3, 3, 4])
    }

    /// params → GATHER_ND at the coordinates WHERE gives for mask: `tf.boolean_mask`.
    static func whereGatherND(params: [Int], mask: [Int]) -> GraphBuilder {
        var g = GraphBuilder()
        let p = g.input(params, .float32)
        let m = g.input(mask, .bool)
        let w = g.tensor([1, mask.count], .int64)
        let out = g.tensor([1], .float32)
        g.op(.where, inputs: [m], outputs: [w])
        g.op(.gatherND, inputs: [p, w], outputs: [out])
        g.output(out)
        return g
    }

    @Test func whereFeedsGatherND() throws {
        let engine = try Self.whereGatherND(params: [3, 4], mask: [3, 4]).engine()
        try engine.allocate()
        let values = (0 ..< 12).map { Float($0) * 1.5 - 4 }
        try engine.setInput(0, values)
        var random = TestRandom(seed: 7)
        for _ in 0 ..< 6 {
            let m = (0 ..< 12).map { _ in random.next() % 2 == 0 }
            try engine.setInput(1, m)
            try engine.invoke()
            let want = zip(values, m).filter { $0.1 }.map(\.0)
            #expect(engine.outputShape(0) == [want.count])
            #expect(try engine.output(0, as: Float.self) == want)
        }
    }

    /// x [6] int32 → WHERE → w1 [n, 1] → WHERE → w2 [m, 2] → CAST → ADD h, where h is
    /// computed before the first WHERE and read only after the second: it must keep its
    /// memory through both segments. w1 is also a graph output.
    @Test func aSecondDynamicOperatorAfterTheFirst() throws {
        var g = GraphBuilder()
        let x = g.input([6], .int32)
        let z = g.input([1, 2], .float32)
        let u = g.input([1, 2], .float32)
        let h = g.tensor([1, 2], .float32)
        let t1 = g.tensor([1, 2], .float32)
        let t2 = g.tensor([1, 2], .float32)
        let w1 = g.tensor([1, 1], .int64)
        let w2 = g.tensor([1, 2], .int64)
        let f = g.tensor([1, 2], .float32)
        let out = g.tensor([1, 2], .float32)
        g.op(.relu, inputs: [z], outputs: [h])
        g.op(.relu6, inputs: [u], outputs: [t1])
        g.op(.relu, inputs: [t1], outputs: [t2])
        g.op(.where, inputs: [x], outputs: [w1])
        g.op(.where, inputs: [w1], outputs: [w2])
        g.op(.cast, inputs: [w2], outputs: [f], options: .cast(inType: .int64, outType: .float32))
        g.op(.add, inputs: [f, h], outputs: [out], options: .add(activation: .none, potScaleInt16: true))
        g.output(out)
        g.output(w1)
        g.output(t2)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(1, [5, -3] as [Float])
        try engine.setInput(2, [7, 9] as [Float])
        // Nonzero x at 0, 2, 3: w1 = [[0], [2], [3]]; its nonzero entries are rows 1 and 2.
        try engine.setInput(0, [4, 0, -1, 2, 0, 0] as [Int32])
        try engine.invoke()
        #expect(try engine.output(1, as: Int64.self) == [0, 2, 3])
        #expect(engine.outputShape(0) == [2, 2])
        #expect(try engine.output(0, as: Float.self) == [6, 0, 7, 0])
        #expect(try engine.output(2, as: Float.self) == [6, 6])
        #expect(engine.tailPreparations == 2)
        // Same first shape, new second shape: only the second segment is prepared again.
        try engine.setInput(0, [0, 1, 0, 0, 3, 5] as [Int32])
        try engine.invoke()
        #expect(try engine.output(1, as: Int64.self) == [1, 4, 5])
        #expect(try engine.output(0, as: Float.self) == [5, 0, 6, 0, 7, 0])
        #expect(engine.tailPreparations == 3)
        let profile = try engine.invokeProfiled()
        #expect(profile.map(\.operatorIndex) == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test func aShapeBeyondTheMemoryBudgetIsATypedErrorAndTheEngineRecovers() throws {
        var g = GraphBuilder()
        let mask = g.input([4096], .bool)
        let w = g.tensor([1, 1], .int64)
        let f = g.tensor([1, 1], .float32)
        g.op(.where, inputs: [mask], outputs: [w])
        g.op(.cast, inputs: [w], outputs: [f], options: .cast(inType: .int64, outType: .float32))
        g.output(f)
        var options = EngineOptions()
        options.memoryBudget = 16 << 10
        let engine = try Engine(model: g.model(), options: options)
        try engine.allocate()
        // 4096 rows need 32 KiB of coordinates and 16 KiB of floats.
        try engine.setInput(0, [Bool](repeating: true, count: 4096))
        do {
            try engine.invoke()
            Issue.record("expected the invoke to fail")
        } catch let error {
            guard case .invokeFailed(let index, let op, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(index == 0 && op == "WHERE")
            #expect(reason.contains("budget of 16384 bytes"), "\(reason)")
        }
        #expect(engine.buffer(forTensor: f) == nil)
        // A smaller result fits: the engine prepares the tail for it.
        var sparse = [Bool](repeating: false, count: 4096)
        for i in stride(from: 0, to: 4096, by: 64) { sparse[i] = true }
        try engine.setInput(0, sparse)
        try engine.invoke()
        #expect(engine.outputShape(0) == [64, 1])
        #expect(try engine.output(0, as: Float.self) == stride(from: 0, to: 4096, by: 64).map { Float($0) })
    }

    /// Random masks of random density against a small budget: every invoke either gives
    /// the reference coordinates or a typed error naming WHERE, and never traps.
    @Test func randomShapesUnderASmallBudget() throws {
        var g = GraphBuilder()
        let mask = g.input([40, 50], .uint8)
        let w = g.tensor([1, 2], .int64)
        let f = g.tensor([1, 2], .float32)
        g.op(.where, inputs: [mask], outputs: [w])
        g.op(.cast, inputs: [w], outputs: [f], options: .cast(inType: .int64, outType: .float32))
        g.output(f)
        g.output(w)
        var options = EngineOptions()
        options.memoryBudget = 24 << 10
        let engine = try Engine(model: g.model(), options: options)
        try engine.allocate()
        var random = TestRandom(seed: 42)
        var failures = 0
        for _ in 0 ..< 40 {
            let threshold = random.next() % 101
            let values = (0 ..< 2000).map { _ in UInt8(random.next() % 100 < threshold ? 1 + random.next() % 255 : 0) }
            try engine.setInput(0, values)
            do {
                try engine.invoke()
                let want = referenceCoordinates(values, shape: [40, 50]) { $0 != 0 }
                #expect(engine.outputShape(1) == want.shape)
                #expect(try engine.output(1, as: Int64.self) == want.rows)
                #expect(try engine.output(0, as: Float.self) == want.rows.map { Float($0) })
            } catch let error as RuntimeError {
                guard case .invokeFailed(0, "WHERE", _) = error else { throw error }
                failures += 1
            }
        }
        // 24 KiB holds the input and about 900 rows of coordinates and floats.
        #expect(failures > 0 && failures < 40)
    }

    @Test func anOperatorThatCannotTakeTheResolvedShapeIsNamed() throws {
        // Coordinates of a rank-2 mask index 2 axes; params has only one.
        let engine = try Self.whereGatherND(params: [5], mask: [2, 3]).engine()
        try engine.allocate()
        try engine.setInput(1, [true, false, false, false, false, true])
        #expect {
            try engine.invoke()
        } throws: { error in
            guard case .invalidOperator(1, "GATHER_ND", _) = error as? RuntimeError else { return false }
            return true
        }
    }

    /// A WHERE that writes the tensor it reads would overwrite its input while listing it.
    @Test func aDynamicOutputPlacedBeforeTheBoundaryIsRefused() throws {
        var g = GraphBuilder()
        let x = g.input([4], .int32)
        let t = g.tensor([4], .int64)
        g.op(.cast, inputs: [x], outputs: [t], options: .cast(inType: .int32, outType: .int64))
        g.op(.where, inputs: [t], outputs: [t])
        g.output(t)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 0, 2, 3] as [Int32])
        #expect {
            try engine.invoke()
        } throws: { error in
            guard case .unsupportedModel(let message) = error as? RuntimeError else { return false }
            return message.contains("known only at invoke")
        }
    }

    /// FULLY_CONNECTED after WHERE declares `rows × 4 × 1` multiply-accumulates, which the
    /// work budget checks once the row count is known.
    @Test func theWorkBudgetCoversOperatorsPreparedAtInvoke() throws {
        var g = GraphBuilder()
        let mask = g.input([64], .bool)
        let w = g.tensor([1, 1], .int64)
        let f = g.tensor([1, 1], .float32)
        let y = g.tensor([1, 4], .float32)
        let weights = g.constant([1, 2, 3, 4] as [Float], shape: [4, 1])
        g.op(.where, inputs: [mask], outputs: [w])
        g.op(.cast, inputs: [w], outputs: [f], options: .cast(inType: .int64, outType: .float32))
        g.op(
            .fullyConnected, inputs: [f, weights, -1], outputs: [y],
            options: .fullyConnected(FullyConnectedOptions(activation: .none, keepNumDims: false)))
        g.output(y)
        var options = EngineOptions()
        options.workBudget = 100
        let engine = try Engine(model: g.model(), options: options)
        try engine.allocate()
        try engine.setInput(0, [Bool](repeating: true, count: 64))
        #expect {
            try engine.invoke()
        } throws: { error in
            guard case .invokeFailed(0, "WHERE", let reason) = error as? RuntimeError else { return false }
            return reason.contains("work budget of 100")
        }
        var few = [Bool](repeating: false, count: 64)
        few[5] = true
        few[60] = true
        try engine.setInput(0, few)
        try engine.invoke()
        #expect(engine.outputShape(0) == [2, 4])
        #expect(try engine.output(0, as: Float.self) == [5, 10, 15, 20, 60, 120, 180, 240])
    }
}
