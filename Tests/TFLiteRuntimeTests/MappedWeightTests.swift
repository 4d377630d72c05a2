import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// 8-bit weights read from a memory-mapped model file. The GEMM kernels pack them at
/// prepare and release the file's pages (``ConstantBytes/releasePages()``); reading the
/// weights again (another engine on the same `Model`, concurrently or later) maps them
/// in again from the file, so every result must equal the in-memory model's.
@Suite struct MappedWeightTests {
    /// A conv, an FC over 3 rows (GEMM kernels: their pages are released) and an FC over
    /// one row (``GemvQ8``: reads the weights at every invoke), each with weights
    /// spanning several pages.
    static func graphs(_ type: ElementType) -> [(String, GraphBuilder, [UInt8])] {
        var rng = SplitMix64(seed: type == .uint8 ? 1 : 2)
        var result: [(String, GraphBuilder, [UInt8])] = []
        do {
            let input = [1, 6, 6, 48], filter = [64, 3, 3, 48]
            let q = QuantizedWeights(
                type: type, count: filter.reduce(1, *), channels: 64, axis: 0, depth: 3 * 3 * 48,
                perChannel: true, bias: true, rng: &rng)
            var g = GraphBuilder()
            let x = g.input(input, type, quantization: q.inputQuantization)
            let (w, b) = q.add(to: &g, shape: filter, constant: true)
            let y = g.tensor([1], type, quantization: q.outputQuantization)
            g.op(
                .conv2D, inputs: [x, w, b], outputs: [y],
                options: .conv2D(
                    Conv2DOptions(
                        padding: .same, strideWidth: 1, strideHeight: 1, activation: .relu,
                        dilationWidth: 1, dilationHeight: 1)))
            g.output(y)
            result.append(("conv", g, QTest.bytes(QTest.randomCodes(input.reduce(1, *), type, &rng))))
        }
        for rows in [3, 1] {
            let units = 120, depth = 700
            let q = QuantizedWeights(
                type: type, count: units * depth, channels: units, axis: 0, depth: depth,
                perChannel: false, bias: true, rng: &rng)
            var g = GraphBuilder()
            let x = g.input([rows, depth], type, quantization: q.inputQuantization)
            let (w, b) = q.add(to: &g, shape: [units, depth], constant: true)
            let y = g.tensor([1], type, quantization: q.outputQuantization)
            g.op(
                .fullyConnected, inputs: [x, w, b], outputs: [y],
                options: .fullyConnected(FullyConnectedOptions(activation: .none, keepNumDims: false)))
            g.output(y)
            result.append(("FC \(rows) rows", g, QTest.bytes(QTest.randomCodes(rows * depth, type, &rng))))
        }
        return result
    }

    static func run(_ model: Model, _ input: [UInt8], threads: Int = 1) throws -> [UInt8] {
        var options = EngineOptions()
        options.threadCount = threads
        let engine = try Engine(model: model, options: options)
        try engine.allocate()
        try engine.setInput(0, input)
        try engine.invoke()
        return try engine.output(0, as: UInt8.self)
    }

    static func constantBytes(_ model: Model) -> [[UInt8]] {
        model.subgraphs[0].tensors.compactMap { $0.constantData.map { Array($0.bytes) } }
    }

    @Test(arguments: [ElementType.uint8, .int8])
    func mappedModelMatchesInMemory(type: ElementType) throws {
        let directory = FileManager.default.temporaryDirectory
        for (name, g, input) in Self.graphs(type) {
            let path = directory.appendingPathComponent("mapped-weights-\(UUID().uuidString).bin").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let expected = try Self.run(g.model(), input)
            let mapped = try g.mappedModel(path: path)
            let constants = Self.constantBytes(mapped)
            #expect(try Self.run(mapped, input) == expected, "\(name): first engine")
            // The first engine released the pages it packed; they read back unchanged.
            #expect(Self.constantBytes(mapped) == constants, "\(name): constants after release")
            #expect(try Self.run(mapped, input, threads: 2) == expected, "\(name): second engine")

            // Engines preparing (packing and releasing) and running on several threads at once.
            let results = ResultList()
            DispatchQueue.concurrentPerform(iterations: 6) { i in
                results.append(Result(catching: { try Self.run(mapped, input, threads: 1 + i % 2) == expected }))
            }
            for r in results.values {
                switch r {
                case .success(let same): #expect(same, "\(name): concurrent engine")
                case .failure(let error): Issue.record("\(name): \(error)")
                }
            }
        }
    }

    /// An operator folded at prepare (all inputs constant) runs with its packed weights,
    /// and so do the operators prepared before and after it (their packs are placed in
    /// two regions around the fold).
    @Test(arguments: [ElementType.uint8, .int8])
    func foldedConvolutionUsesPackedWeights(type: ElementType) throws {
        var rng = SplitMix64(seed: 3)
        let shape = [1, 5, 5, 24], filter = [40, 3, 3, 24]
        let q = QuantizedWeights(
            type: type, count: filter.reduce(1, *), channels: 40, axis: 0, depth: 3 * 3 * 24,
            perChannel: true, bias: true, rng: &rng)
        let codes = (0 ..< 3).map { _ in QTest.randomCodes(shape.reduce(1, *), type, &rng) }
        let options = Conv2DOptions(
            padding: .same, strideWidth: 1, strideHeight: 1, activation: .none,
            dilationWidth: 1, dilationHeight: 1)
        // Three convolutions over `codes[0...2]`; the middle one's input is a constant
        // when `fold` is set, else the graph's second input.
        func build(fold: Bool) -> GraphBuilder {
            var g = GraphBuilder()
            let first = g.input(shape, type, quantization: q.inputQuantization)
            let middle =
                fold
                ? g.constant(QTest.bytes(codes[1]), shape: shape, type, quantization: q.inputQuantization)
                : g.input(shape, type, quantization: q.inputQuantization)
            let last = g.input(shape, type, quantization: q.inputQuantization)
            for x in [first, middle, last] {
                let (w, b) = q.add(to: &g, shape: filter, constant: true)
                let y = g.tensor([1], type, quantization: q.outputQuantization)
                g.op(.conv2D, inputs: [x, w, b], outputs: [y], options: .conv2D(options))
                g.output(y)
            }
            return g
        }
        func outputs(_ g: GraphBuilder, _ inputs: [[Int]]) throws -> [[UInt8]] {
            let engine = try g.engine()
            try engine.allocate()
            for (i, x) in inputs.enumerated() { try engine.setInput(i, QTest.bytes(x)) }
            try engine.invoke()
            return try (0 ..< 3).map { try engine.output($0, as: UInt8.self) }
        }
        let folded = build(fold: true)
        let engine = try folded.engine()
        try engine.allocate()
        #expect(engine.preparedKernels.count == 2, "the middle convolution is folded")
        #expect(try outputs(folded, [codes[0], codes[2]]) == outputs(build(fold: false), codes))
    }

    /// Releasing pages never changes the bytes, mapped or in memory, whatever the range.
    @Test func releasePagesKeepsBytes() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = (0 ..< 5 * page + 123).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("release-\(UUID().uuidString).bin")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let stores = [try ModelBytes(contentsOfFile: path), ModelBytes(data: Data(bytes)), ModelBytes(bytes)]
        for storage in stores {
            #expect(Array(storage.buffer) == bytes)
            for range in [0 ..< bytes.count, 100 ..< 4 * page + 5, page ..< 3 * page, 10 ..< 20, 0 ..< 0] {
                storage.releasePages(range)
                #expect(Array(storage.buffer) == bytes, "\(range)")
            }
            // Out-of-range requests are ignored.
            storage.releasePages(0 ..< bytes.count + 10 * page)
            #expect(Array(storage.buffer) == bytes)
        }
    }
}

/// Results appended from several threads.
final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<Bool, any Error>] = []
    func append(_ r: Result<Bool, any Error>) {
        lock.lock(); defer { lock.unlock() }
        stored.append(r)
    }
    var values: [Result<Bool, any Error>] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }
}
