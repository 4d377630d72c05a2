import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct EngineTests {
    @Test func runsAChainAndReusesMemory() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .float32)
        let a = g.tensor([2, 3], .float32)
        let b = g.tensor([2, 3], .float32)
        let c = g.tensor([2, 3], .float32)
        let y = g.tensor([2, 3], .float32)
        g.op(.relu, inputs: [x], outputs: [a])
        g.op(.relu6, inputs: [a], outputs: [b])
        g.op(.relu, inputs: [b], outputs: [c])
        g.op(.reluN1To1, inputs: [c], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [-2, -0.5, 0, 0.25, 1.5, 7] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [0, 0, 0, 0.25, 1, 1])
        // x and y live throughout; a (steps 0-1) and c (steps 2-3) never meet, so they share.
        #expect(engine.arenaSize == 4 * 64)
    }

    @Test func unsupportedOperatorIsNamedAtCreation() {
        var g = GraphBuilder()
        let x = g.input([1], .float32)
        let y = g.tensor([1], .float32)
        g.op(.concatEmbeddings, inputs: [x], outputs: [y])
        g.output(y)
        #expect(throws: RuntimeError.unsupportedOperator(index: 0, op: "CONCAT_EMBEDDINGS")) { try g.engine() }
    }

    @Test func everyUnsupportedOperatorIsNamedAtCreation() {
        var g = GraphBuilder()
        let x = g.input([1], .float32)
        let a = g.tensor([1], .float32), b = g.tensor([1], .float32), c = g.tensor([1], .float32)
        let d = g.tensor([1], .float32), e = g.tensor([1], .float32)
        g.op(.concatEmbeddings, inputs: [x], outputs: [a])
        g.op(.relu, inputs: [a], outputs: [b])
        g.op(.call, inputs: [b], outputs: [c])
        g.op(.concatEmbeddings, inputs: [c], outputs: [d])
        _ = g.customOp("MyCustomOp", inputs: [d], outputs: [e], options: [])
        g.output(e)
        let expected = RuntimeError.unsupportedOperators([
            UnsupportedOperator(index: 0, op: "CONCAT_EMBEDDINGS"), UnsupportedOperator(index: 2, op: "CALL"),
            UnsupportedOperator(index: 4, op: "CUSTOM:MyCustomOp"),
        ])
        #expect(throws: expected) { try g.engine() }
        #expect(
            expected.description
                == "operators 0 (CONCAT_EMBEDDINGS), 2 (CALL) and 4 (CUSTOM:MyCustomOp) are not supported by this runtime; register a kernel for each custom operator's name (Interpreter.Options.registerCustomOperator)"
        )
        #expect(expected.unsupportedOperators.map(\.op) == ["CONCAT_EMBEDDINGS", "CALL", "CUSTOM:MyCustomOp"])
    }

    @Test func unsupportedTypesAreNamedAtCreation() throws {
        var g = GraphBuilder()
        let x = g.input([4], .int32)
        let y = g.tensor([4], .int32)
        g.op(.relu, inputs: [x], outputs: [y])
        g.output(y)
        do {
            _ = try g.engine()
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(
                error.description == "operator 0 (RELU) does not support the types inputs (INT32) -> outputs (INT32)")
        }
    }

    @Test func invokeBeforeAllocateFails() throws {
        var g = GraphBuilder()
        let x = g.input([1], .float32)
        let y = g.tensor([1], .float32)
        g.op(.relu, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        #expect(throws: RuntimeError.notAllocated) { try engine.invoke() }
    }

    @Test func resizeReplansAndKernelsSeeNewShapes() throws {
        var g = GraphBuilder()
        let x = g.input([1, 2], .float32)
        let y = g.tensor([1, 2], .float32)
        g.op(.relu6, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.resizeInput(0, to: [3, 2])
        #expect(engine.isAllocated == false)
        try engine.allocate()
        #expect(engine.outputShape(0) == [3, 2])
        try engine.setInput(0, [-1, 1, 2, 3, 8, 9] as [Float])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [0, 1, 2, 3, 6, 6])
    }

    @Test func constantInputsAreFoldedAtPrepare() throws {
        var g = GraphBuilder()
        let c = g.constant([-3, 2, 9] as [Float], shape: [3])
        let y = g.tensor([3], .float32)
        g.op(.relu6, inputs: [c], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        #expect(engine.arenaSize == 0)
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [0, 2, 6])
    }

    @Test func memoryBudgetIsCheckedBeforeAllocating() throws {
        var g = GraphBuilder()
        let x = g.input([1 << 20, 1024], .float32)
        let y = g.tensor([1 << 20, 1024], .float32)
        g.op(.relu, inputs: [x], outputs: [y])
        g.output(y)
        var options = EngineOptions()
        options.memoryBudget = 1 << 30
        let engine = try Engine(model: g.model(), options: options)
        #expect(throws: RuntimeError.memoryBudgetExceeded(required: 8 << 30, budget: 1 << 30)) { try engine.allocate() }
    }
}

/// Operators that declare too little work to repay a second thread run on the caller alone;
/// larger ones, and operators that declare none, get the engine's threads.
@Suite struct SerialStepTests {
    @Test func smallConvolutionsRunSerially() throws {
        #expect(!Parallel.runsSerially(work: 0))
        #expect(Parallel.runsSerially(work: 1))
        #expect(Parallel.runsSerially(work: 4 * Parallel.minimumWorkPerThread - 1))
        #expect(!Parallel.runsSerially(work: 4 * Parallel.minimumWorkPerThread))

        var g = GraphBuilder()
        // 4x4 pixels x 8 x 8 = 1,024 multiply-accumulates, then 64x64 x 32 x 32 = 4.2 M.
        let x = g.input([1, 4, 4, 8], .float32)
        let small = g.tensor([1, 4, 4, 8], .float32)
        g.op(
            .conv2D, inputs: [x, g.constant([Float](repeating: 0.5, count: 64), shape: [8, 1, 1, 8])],
            outputs: [small],
            options: .conv2D(Conv2DOptions(padding: .valid, strideWidth: 1, strideHeight: 1, activation: .none)))
        let big = g.input([1, 64, 64, 32], .float32)
        let large = g.tensor([1, 64, 64, 32], .float32)
        g.op(
            .conv2D, inputs: [big, g.constant([Float](repeating: 0.25, count: 1024), shape: [32, 1, 1, 32])],
            outputs: [large],
            options: .conv2D(Conv2DOptions(padding: .valid, strideWidth: 1, strideHeight: 1, activation: .none)))
        let sum = g.tensor([1, 4, 4, 8], .float32)
        g.op(.add, inputs: [small, small], outputs: [sum], options: .add(activation: .none, potScaleInt16: false))
        g.output(sum)
        g.output(large)
        let engine = try g.engine(threads: 2)
        try engine.allocate()
        #expect(engine.steps.map(\.serial) == [true, false, false])
        try engine.setInput(0, [Float](repeating: 1, count: 128))
        try engine.setInput(1, [Float](repeating: 2, count: 64 * 64 * 32))
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [Float](repeating: 8, count: 128))
        #expect(try engine.output(1, as: Float.self) == [Float](repeating: 16, count: 64 * 64 * 32))
    }
}
