import Foundation
import Testing
import TensorFlowLite

/// Interpreters sharing one `Model` on many threads, and thread-count independence.
///
/// `Model` is an immutable, `Sendable` value whose constant tensors are views into one
/// `ModelBytes`; each `Interpreter` owns its arena, prepared kernels and folded constants.
/// These tests (also run under `scripts/test-tsan.sh`) check that nothing is shared
/// mutably: every concurrent result must be bit-identical to a single-threaded run.
@Suite("Concurrency")
struct ConcurrencyTests {
    /// Threads and invocations per thread of `sharedModelOnEightThreads`: 8 × 1,000 runs
    /// of the 32×32 MobileNet-style fixture, a few seconds in a debug build on 2 cores
    /// (RELIABILITY.md records the measured time).
    static let threadCount = 8
    static let invocationsPerThread = 1_000
    /// Distinct inputs, so that a thread reading another's arena would be noticed.
    static let inputVariants = 4

    static func input(variant: Int, count: Int) -> Data {
        let values = (0 ..< count).map { Float(sin(0.1 * Double($0) + Double(variant))) }
        return values.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// Outputs of one single-threaded interpreter for each input variant.
    static func reference(_ model: Model, inputs: [Data]) throws -> [[Data]] {
        let interpreter = try Interpreter(model: model)
        try interpreter.allocateTensors()
        return try inputs.map { input in
            try interpreter.copy(input, toInputAt: 0)
            try interpreter.invoke()
            return try (0 ..< interpreter.outputTensorCount).map { try interpreter.output(at: $0).data }
        }
    }

    @Test func sharedModelOnEightThreads() throws {
        let model = try Model(contentsOfFile: Fixtures.model("mobilenet_float"))
        let probe = try Interpreter(model: model)
        try probe.allocateTensors()
        let inputBytes = try probe.input(at: 0).data.count
        let inputs = (0 ..< Self.inputVariants).map { Self.input(variant: $0, count: inputBytes / 4) }
        let expected = try Self.reference(model, inputs: inputs)
        #expect(Set(expected.map { $0[0] }).count == Self.inputVariants, "inputs should give distinct outputs")

        let results = ResultBox()
        let group = DispatchGroup()
        for t in 0 ..< Self.threadCount {
            group.enter()
            // Threads, not a concurrent queue: Dispatch would cap concurrency at the core count.
            let thread = Thread {
                defer { group.leave() }
                do {
                    var options = Interpreter.Options()
                    options.threadCount = t % 2 == 0 ? 1 : 2 // half also split work internally
                    let interpreter = try Interpreter(model: model, options: options)
                    try interpreter.allocateTensors()
                    for i in 0 ..< Self.invocationsPerThread {
                        let v = (t + i) % Self.inputVariants
                        try interpreter.copy(inputs[v], toInputAt: 0)
                        try interpreter.invoke()
                        let outputs = try (0 ..< interpreter.outputTensorCount).map {
                            try interpreter.output(at: $0).data
                        }
                        results.record(matches: outputs == expected[v])
                    }
                } catch {
                    results.record(error: "thread \(t): \(error)")
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        let (runs, mismatches, errors) = results.snapshot()
        #expect(errors.isEmpty, "\(errors)")
        #expect(runs == Self.threadCount * Self.invocationsPerThread)
        #expect(mismatches == 0)
    }

    /// `threadCount` 1, 2 and 4 give bit-identical outputs on every float fixture model.
    @Test(arguments: ["mobilenet_float", "float16_weights", "face_detection_short_range", "ssd_postprocess"])
    func threadCountDoesNotChangeResults(name: String) throws {
        let model = try Model(contentsOfFile: Fixtures.model(name))
        var outputs: [Int: [Data]] = [:]
        for threads in [1, 2, 4] {
            var options = Interpreter.Options()
            options.threadCount = threads
            let interpreter = try Interpreter(model: model, options: options)
            try interpreter.allocateTensors()
            for i in 0 ..< interpreter.inputTensorCount {
                let count = try interpreter.input(at: i).data.count
                try interpreter.copy(Self.input(variant: i, count: count / 4), toInputAt: i)
            }
            try interpreter.invoke()
            outputs[threads] = try (0 ..< interpreter.outputTensorCount).map { try interpreter.output(at: $0).data }
        }
        #expect(outputs[1] == outputs[2], "\(name): 1 vs 2 threads")
        #expect(outputs[1] == outputs[4], "\(name): 1 vs 4 threads")
    }
}

/// Counts results from many threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var runs = 0
    private var mismatches = 0
    private var errors: [String] = []

    func record(matches: Bool) {
        lock.lock(); defer { lock.unlock() }
        runs += 1
        if !matches { mismatches += 1 }
    }

    func record(error: String) {
        lock.lock(); defer { lock.unlock() }
        errors.append(error)
    }

    func snapshot() -> (runs: Int, mismatches: Int, errors: [String]) {
        lock.lock(); defer { lock.unlock() }
        return (runs, mismatches, errors)
    }
}
