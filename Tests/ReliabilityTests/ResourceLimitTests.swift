import Foundation
import FlatBufferTestSupport
import Testing
import TensorFlowLite
import TFLiteFuzzing
import TFLiteModel
import TFLiteRuntime

/// Models that declare more memory or work than allowed fail at allocate with an error,
/// before anything large is allocated; nothing makes the runtime hang.
@Suite("Resource limits")
struct ResourceLimitTests {
    static let budget = 64 << 20

    /// `model` loads and prepares, and `allocate()` fails with `memoryBudgetExceeded`.
    static func expectBudgetExceeded(_ model: FileModel, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let engine = try Engine(model: try model.model(), options: engineOptions())
        do {
            try engine.allocate()
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch {
            guard case .memoryBudgetExceeded = error else {
                Issue.record("got \(error)", sourceLocation: sourceLocation); return
            }
        }
    }

    static func engineOptions(budget: Int = budget) -> EngineOptions {
        var options = EngineOptions()
        options.memoryBudget = budget
        return options
    }

    /// x → RELU → y with `shape` for both.
    static func relu(_ shape: [Int32]) -> FileModel {
        var m = FileModel()
        let x = m.input(shape)
        let y = m.tensor(shape)
        m.ops = [.init(builtin: 19, inputs: [x], outputs: [y])]
        m.outputs = [y]
        return m
    }

    @Test func enormousTensorsFailAtAllocateNotBefore() throws {
        // 16 GiB per tensor: at the loader's per-tensor limit, so it loads; the default
        // 4 GiB budget rejects the 32 GiB plan without allocating any of it.
        let model = try Self.relu([65536, 65536]).model()
        let engine = try Engine(model: model)
        #expect(throws: RuntimeError.memoryBudgetExceeded(required: 2 << 34, budget: 4 << 30)) { try engine.allocate() }
        #expect(!engine.isAllocated && engine.arenaSize == 0)

        let interpreter = try Interpreter(model: model)
        #expect(throws: InterpreterError.failedToAllocateTensors) { try interpreter.allocateTensors() }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
    }

    @Test func configurableBudget() throws {
        let model = try Self.relu([1024, 1024]).model() // 4 MiB in + 4 MiB out
        var options = Interpreter.Options()
        options.memoryBudget = (8 << 20) - 1
        #expect(throws: InterpreterError.failedToAllocateTensors) {
            try Interpreter(model: model, options: options).allocateTensors()
        }
        options.memoryBudget = 8 << 20
        let interpreter = try Interpreter(model: model, options: options)
        try interpreter.allocateTensors()
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).data.count == 4 << 20)
    }

    @Test func tooLargeForTheLoaderIsALoadError() {
        #expect(throws: (any Error).self) { try Self.relu([65536, 65536, 8]).model() } // 128 GiB
        #expect(throws: InterpreterError.failedToLoadModel) {
            try Interpreter(modelData: Data(Self.relu([Int32.max, Int32.max, Int32.max]).bytes))
        }
    }

    /// PAD of a 4-byte constant to `count` floats, `copies` times, every copy a graph output.
    static func padAmplifier(count: Int32, copies: Int) -> FileModel {
        var m = FileModel()
        let c = m.tensor([1], data: [Float(1)].littleEndianBytes, name: "c")
        let paddings = m.tensor([1, 2], type: 2, data: [0, count - 1].littleEndianBytes, name: "paddings")
        for _ in 0 ..< copies {
            let y = m.tensor([count])
            m.ops.append(.init(builtin: 34, inputs: [c, paddings], outputs: [y]))
            m.outputs.append(y)
        }
        return m
    }

    /// Constant folding allocates at prepare; it must stay within the budget: a 300-byte
    /// file asking for 4 × 40 MB of folded constants under a 64 MB budget.
    @Test func foldedConstantsCountAgainstTheBudget() throws {
        let model = try Self.padAmplifier(count: 10 << 20, copies: 4).model()
        #expect(model.bytes.count < 1024)
        let engine = try Engine(model: model, options: Self.engineOptions())
        #expect(engine.foldedConstantBytes == 40 << 20, "only the first PAD fits the budget")
        #expect(throws: RuntimeError.memoryBudgetExceeded(required: 4 * (40 << 20), budget: Self.budget)) {
            try engine.allocate()
        }

        // Within budget, the same graph folds what it may and runs the rest.
        let small = try Engine(
            model: try Self.padAmplifier(count: 1 << 20, copies: 4).model(), options: Self.engineOptions())
        try small.allocate()
        #expect(small.foldedConstantBytes + small.arenaSize <= Self.budget)
        try small.invoke()
        for t in small.outputs {
            let y = try #require(small.buffer(forTensor: t)).bindMemory(to: Float.self)
            #expect(y.count == 1 << 20 && y[0] == 1 && y[1] == 0 && y[y.count - 1] == 0)
        }
    }

    @Test func maxFoldedConstantBytesLeavesLargeResultsToInvoke() throws {
        var options = Self.engineOptions()
        options.maxFoldedConstantBytes = 1 << 20
        let engine = try Engine(model: try Self.padAmplifier(count: 2 << 20, copies: 1).model(), options: options)
        #expect(engine.foldedConstantBytes == 0)
        try engine.allocate()
        #expect(engine.arenaSize >= 8 << 20)
        try engine.invoke()
        let y = try #require(engine.buffer(forTensor: engine.outputs[0])).bindMemory(to: Float.self)
        #expect(y[0] == 1 && y[1] == 0)
    }

    /// A chain of `depth` RELUs.
    static func chain(depth: Int) -> FileModel {
        var m = FileModel()
        var x = m.input([1, 4])
        for _ in 0 ..< depth {
            let y = m.tensor([1, 4])
            m.ops.append(.init(builtin: 19, inputs: [x], outputs: [y]))
            x = y
        }
        m.outputs = [x]
        return m
    }

    /// Preparing is linear in the depth (it was quadratic: each kernel's first output
    /// shape copied every tensor state); planning is quadratic in the tensor count, which
    /// `EngineOptions.maxOperators` / `maxTensors` bound.
    @Test func deepGraphsLoadPlanAndRun() throws {
        let depth = 2_000
        let interpreter = try Interpreter(modelData: Data(Self.chain(depth: depth).bytes))
        try interpreter.allocateTensors()
        try interpreter.copy(
            [Float](arrayLiteral: -1, 2, -3, 4).withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 0)
        try interpreter.invoke()
        let y = try interpreter.output(at: 0).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(y == [0, 2, 0, 4])
    }

    @Test func graphSizeLimitsApplyAtCreation() throws {
        let model = try Self.chain(depth: 600).model() // 600 operators, 601 tensors
        var options = EngineOptions()
        options.maxOperators = 599
        #expect(
            throws: RuntimeError.unsupportedModel(
                "subgraph 0 has 600 operators and 601 tensors, more than the limits of 599 and 250000")
        ) {
            try Engine(model: model, options: options)
        }
        options = EngineOptions()
        options.maxTensors = 600
        #expect(throws: (any Error).self) { try Engine(model: model, options: options) }
        options.maxTensors = 601
        _ = try Engine(model: model, options: options)
    }

    /// TFLite_Detection_PostProcess with `max_detections` near Int32.max: the outputs it
    /// implies exceed the budget; allocation fails instead of looping or allocating.
    @Test func hugeDetectionCountFailsAtAllocate() throws {
        let options = FlexBufferWriter.encode(
            .map([
                ("max_detections", .int(Int64(Int32.max))), ("max_classes_per_detection", .int(1)),
                ("nms_score_threshold", .float(0.1)), ("nms_iou_threshold", .float(0.5)), ("num_classes", .int(2)),
                ("y_scale", .float(10)), ("x_scale", .float(10)), ("h_scale", .float(5)), ("w_scale", .float(5)),
            ]), width: 8)
        var m = FileModel()
        let boxes = m.input([1, 4, 4])
        let scores = m.input([1, 4, 3])
        let anchors = m.input([4, 4])
        let outs = [m.tensor([1, 1, 4]), m.tensor([1, 1]), m.tensor([1, 1]), m.tensor([1])]
        m.ops = [
            .init(
                builtin: 32, custom: "TFLite_Detection_PostProcess", inputs: [boxes, scores, anchors],
                outputs: outs, customOptions: options)
        ]
        m.outputs = outs
        try Self.expectBudgetExceeded(m)
    }

    /// CONV_2D, SAME, stride 1, of a `[1, 256, 256, 1]` input with a `[1, 256, 256, 1]`
    /// filter: 512 KB of tensors, 2^32 multiply-accumulates. The memory budget cannot bound
    /// such work; the work budget does, before anything runs.
    static func wholeImageFilter() -> FileModel {
        var m = FileModel()
        let x = m.input([1, 256, 256, 1])
        let w = m.tensor([1, 256, 256, 1], data: [UInt8](repeating: 0, count: 256 * 256 * 4))
        let y = m.tensor([1, 256, 256, 1])
        m.ops = [
            .init(
                builtin: 3, inputs: [x, w], outputs: [y], optionsType: 1,
                options: FBTable([0: .i8(0), 1: .i32(1), 2: .i32(1)]))
        ]
        m.outputs = [y]
        return m
    }

    @Test func quadraticWorkIsBoundedByTheWorkBudget() throws {
        let model = try Self.wholeImageFilter().model()
        // Unbounded by default: a large model may be slow. The work is counted.
        let engine = try Engine(model: model)
        try engine.allocate()
        #expect(engine.work == 1 << 32)

        var options = Self.engineOptions()
        options.workBudget = 1 << 30
        let expected = RuntimeError.workBudgetExceeded(required: 1 << 32, budget: 1 << 30)
        #expect(throws: expected) { try Engine(model: model, options: options).allocate() }

        var interpreterOptions = Interpreter.Options()
        interpreterOptions.workBudget = 1 << 30
        interpreterOptions.isErrorLoggingEnabled = false
        // Prepared while the interpreter is created, so the message starts as
        // TensorFlowLiteSwift's creation failure does.
        #expect(
            throws: InterpreterError.tensorFlowLiteError("Failed to create the interpreter. " + expected.description)
        ) {
            try Interpreter(model: model, options: interpreterOptions).allocateTensors()
        }
        // The fuzz harness sets a work budget, so such an input is rejected, not run.
        let outcome = FuzzEntryPoints.modelInvoke(Self.wholeImageFilter().bytes)
        #expect(outcome.contains("work budget"), "\(outcome)")
        #expect(expected.description.contains("4294967296 multiply-accumulates"))
    }

    /// Prepare builds nothing proportional to an output that planning will reject:
    /// BATCH_MATMUL of 2^28 broadcast 1x1 matrices (a 1 GiB output) used to tabulate 4 GiB
    /// of operand offsets first (RELIABILITY.md finding 15); MIRROR_PAD alike (finding 14).
    @Test func hugeBatchFailsAtAllocateWithoutTables() throws {
        var m = FileModel()
        let x = m.input([1 << 28, 1, 1])
        let y = m.input([1, 1])
        let z = m.tensor([1 << 28, 1, 1])
        m.ops = [.init(builtin: 126, inputs: [x, y], outputs: [z])]
        m.outputs = [z]
        let peakBefore = peakResidentBytes()
        try Self.expectBudgetExceeded(m)
        #expect(peakResidentBytes() - peakBefore < 1 << 30, "prepare allocated tables for the rejected output")
    }

    @Test func zeroSizeTensorsRunOrFailCleanly() throws {
        // A zero-size graph input through an element-wise op runs and yields no data.
        let engine = try Engine(model: try Self.relu([0, 4]).model())
        try engine.allocate()
        try engine.invoke()
        #expect(engine.buffer(forTensor: engine.outputs[0])?.count == 0)

        // Empty batch / image through a real model: an error naming the operator or an
        // empty output, never a crash.
        for shape: [Int] in [[0, 32, 32, 3], [1, 0, 32, 3], [1, 32, 0, 3], [1, 32, 32, 0]] {
            let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
            try interpreter.resizeInput(at: 0, to: Tensor.Shape(shape))
            do {
                try interpreter.allocateTensors()
                try interpreter.invoke()
                let output = try interpreter.output(at: 0)
                #expect(output.data.count == output.shape.dimensions.reduce(4, *), "\(shape)")
            } catch let error as InterpreterError {
                guard case .tensorFlowLiteError(let message) = error else {
                    Issue.record("\(shape): \(error)"); continue
                }
                #expect(message.contains("operator"), "\(shape): \(message)")
            }
        }
    }

    /// An operator with only empty outputs is skipped: RESIZE_BILINEAR to `[2^24, 3, 4, 0]`
    /// used to walk its 2^24 x 12 output pixels of zero channels (fuzz target
    /// `model-invoke`, `Tests/FuzzRegressions/model-invoke/empty-output-resize-d62817e7`).
    @Test func emptyOutputsCostNoWork() throws {
        let path = Fixtures.root.appendingPathComponent("Fixtures/conformance/RESIZE_BILINEAR/f32_down/model.tflite")
            .path
        let engine = try Engine(model: try Model(contentsOfFile: path))
        try engine.resizeInput(0, to: [1 << 24, 8, 7, 0])
        try engine.allocate()
        #expect(engine.tensors[engine.outputs[0]].shape == [1 << 24, 3, 4, 0])
        #expect(try engine.invokeProfiled().isEmpty, "the resize still runs")
        // With channels the same operator runs.
        try engine.resizeInput(0, to: [2, 8, 7, 1])
        try engine.allocate()
        #expect(try engine.invokeProfiled().map(\.operatorIndex) == [0])
    }

    @Test func absurdResizeRequests() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        let rejected: [[Int]] = [
            [Int.max, 2, 2, 3], // element count overflows
            [1 << 31, 1 << 31, 1 << 31, 3], // byte size overflows
            [1, -1, 32, 3], // negative
            Array(repeating: 1, count: 9), // rank above 8
        ]
        for shape in rejected {
            #expect(throws: InterpreterError.failedToResizeInputTensor(index: 0), "\(shape)") {
                try interpreter.resizeInput(at: 0, to: Tensor.Shape(shape))
            }
        }
        // Representable but enormous: accepted by resize, refused by allocate (against the
        // budget, or by a kernel's own size limit, naming it), and the interpreter stays usable.
        try interpreter.resizeInput(at: 0, to: [1, 1 << 20, 1 << 20, 3]) // 12 TB
        // What refuses first depends on the kernel level: the first CONV_2D's BLAS limit
        // on the portable level; where the convolutions and FULLY_CONNECTED run on the
        // level's own GEMMs, the memory budget.
        let error = #expect(throws: InterpreterError.self) { try interpreter.allocateTensors() }
        switch error {
        case .tensorFlowLiteError(let message)?:
            #expect(
                message.contains("GEMM size") && message.contains("does not fit the 32-bit BLAS interface"),
                "\(message)")
        case .failedToAllocateTensors?:
            break
        default:
            Issue.record("expected the GEMM size or the memory budget, got \(String(describing: error))")
        }
        try interpreter.resizeInput(at: 0, to: [1 << 12, 256, 256, 3]) // 3 GB in, ~100 GB of activations
        #expect(throws: InterpreterError.failedToAllocateTensors) { try interpreter.allocateTensors() }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        try interpreter.resizeInput(at: 0, to: [1, 32, 32, 3])
        try interpreter.allocateTensors()
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).shape == [1, 10])
    }

    @Test func rankAboveEightIsALoadError() {
        #expect(throws: InterpreterError.failedToLoadModel) {
            try Interpreter(modelData: Data(Self.relu(Array(repeating: 1, count: 9)).bytes))
        }
    }
}

/// This process's peak resident memory (Linux `ru_maxrss`, KiB → bytes).
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss)
    #else
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) * 1024
    #endif
}
