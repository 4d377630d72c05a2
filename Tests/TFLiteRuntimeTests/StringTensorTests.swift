import Testing
import TFLiteModel

@testable import TFLiteRuntime

/// STRING tensors in the engine: slots outside the arena, their checks, their budget, and
/// the operators that read and write them.
@Suite struct StringTensorTests {
    static func layout(_ strings: [String]) -> [UInt8] {
        StringTensorLayout.encode(strings.map { Array($0.utf8) }) ?? []
    }

    static func text(_ engine: Engine, _ tensor: Int) -> [String] {
        (engine.strings(forTensor: tensor) ?? []).map { String(decoding: $0, as: UTF8.self) }
    }

    static func skipGramGraph(ngram: Int = 2, skip: Int = 0, all: Bool = false) -> (GraphBuilder, Int) {
        var g = GraphBuilder()
        let x = g.input([1], .string)
        let y = g.tensor([0], .string)
        g.op(
            .skipGram, inputs: [x], outputs: [y],
            options: .skipGram(ngramSize: ngram, maxSkipSize: skip, includeAllNgrams: all))
        g.output(y)
        return (g, y)
    }

    @Test func skipGramGramsChangeShapeFromInvokeToInvoke() throws {
        let (g, y) = Self.skipGramGraph()
        let engine = try g.engine()
        try engine.allocate()
        try engine.setStrings(forTensor: engine.inputs[0], [Array("a b c d".utf8)])
        try engine.invoke()
        #expect(Self.text(engine, y) == ["a b", "b c", "c d"])
        #expect(engine.tensors[y].shape == [3])
        try engine.setStrings(forTensor: engine.inputs[0], [Array("one two".utf8)])
        try engine.invoke()
        #expect(Self.text(engine, y) == ["one two"])
        try engine.setStrings(forTensor: engine.inputs[0], [Array("single".utf8)])
        try engine.invoke()
        #expect(Self.text(engine, y) == [])
    }

    @Test func malformedStringBuffersAreRefused() throws {
        let good = Self.layout(["hello"])
        var offsetPastEnd = good
        offsetPastEnd[8] = 200
        var decreasing = Self.layout(["ab", "cd"])
        decreasing[8] = 11
        var firstNotAtHeader = good
        firstNotAtHeader[4] = 13
        let faults: [([UInt8], String)] = [
            ([1, 0], "shorter than its 4-byte count"), ([9, 0, 0, 0, 12, 0, 0, 0], "too short for the offsets"),
            (offsetPastEnd, "offset 1 is 200"), (decreasing, "offset 1 is 11"), (firstNotAtHeader, "offset 0 is 13"),
            (good + [0], "last offset is 17"), ([0xFF, 0xFF, 0xFF, 0xFF], "count is -1"),
        ]
        for (bytes, message) in faults {
            let result = bytes.withUnsafeBytes { StringTensorLayout.validate($0) }
            guard case .failure(let fault) = result else {
                Issue.record("accepted \(bytes)")
                continue
            }
            #expect(fault.description.contains(message), "\(fault)")
        }
        // Through the engine: checked, and also against the input's element count.
        let (g, _) = Self.skipGramGraph()
        let engine = try g.engine()
        try engine.allocate()
        for (bytes, message) in [(offsetPastEnd, "offset 1 is 200"), (Self.layout(["a", "b"]), "holds 2 strings")] {
            do {
                try bytes.withUnsafeBytes { raw in try engine.setStrings(forTensor: engine.inputs[0], buffer: raw) }
                Issue.record("accepted \(bytes)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func stringsCountAgainstTheMemoryBudget() throws {
        let (g, _) = Self.skipGramGraph(ngram: 1)
        var options = EngineOptions()
        options.memoryBudget = 4096
        let engine = try Engine(model: g.model(), options: options)
        try engine.allocate()
        let words = Array(repeating: "word", count: 600).joined(separator: " ")
        try engine.setStrings(forTensor: engine.inputs[0], [Array(words.utf8)])
        #expect(throws: RuntimeError.self) { try engine.invoke() }
        do {
            try engine.invoke()
        } catch {
            #expect("\(error)".contains("budget of 4096 bytes"), "\(error)")
        }
    }

    @Test func ifPassesStringsToTheBranchAndBack() throws {
        var main = GraphBuilder()
        let condition = main.input([], .bool)
        let x = main.input([1], .string)
        let y = main.tensor([0], .string)
        main.op(.if, inputs: [condition, x], outputs: [y], options: .ifBranches(thenSubgraph: 1, elseSubgraph: 2))
        main.output(y)
        var grams = GraphBuilder()
        let a = grams.input([1], .string)
        let b = grams.tensor([0], .string)
        grams.op(
            .skipGram, inputs: [a], outputs: [b],
            options: .skipGram(ngramSize: 1, maxSkipSize: 0, includeAllNgrams: false))
        grams.output(b)
        var same = GraphBuilder()
        let c = same.input([1], .string)
        same.output(c)
        let engine = try Engine(model: GraphBuilder.model([main, grams, same]))
        try engine.allocate()
        try engine.setInput(0, [true])
        try engine.setStrings(forTensor: x, [Array("x y z".utf8)])
        try engine.invoke()
        #expect(Self.text(engine, y) == ["x", "y", "z"])
        try engine.setInput(0, [false])
        try engine.invoke()
        #expect(Self.text(engine, y) == ["x y z"])
    }

    @Test func whileRefusesStringLoopValues() throws {
        var main = GraphBuilder()
        let x = main.input([1], .string)
        let y = main.tensor([1], .string)
        main.op(.while, inputs: [x], outputs: [y], options: .whileLoop(condSubgraph: 1, bodySubgraph: 2))
        main.output(y)
        var cond = GraphBuilder()
        _ = cond.input([1], .string)
        let no = cond.constant([false], shape: [], .bool)
        cond.output(no)
        var body = GraphBuilder()
        let v = body.input([1], .string)
        body.output(v)
        do {
            _ = try Engine(model: GraphBuilder.model([main, cond, body]))
            Issue.record("created")
        } catch {
            #expect("\(error)".contains("STRING loop values are not supported"), "\(error)")
        }
    }

    @Test func hashtableLookupOfStrings() throws {
        var g = GraphBuilder()
        let ids = g.input([4], .int32)
        let keys = g.constant([Int32(1), 5, 9], shape: [3])
        let values = g.constant(Self.layout(["one", "five", "nine"]), shape: [3], .string)
        let out = g.tensor([4], .string)
        let hits = g.tensor([4], .uint8)
        g.op(.hashtableLookup, inputs: [ids, keys, values], outputs: [out, hits])
        g.output(out)
        g.output(hits)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [Int32(9), 2, 1, 5])
        try engine.invoke()
        #expect(Self.text(engine, out) == ["nine", "", "one", "five"])
        #expect(try engine.output(1, as: UInt8.self) == [1, 0, 1, 1])
    }

    /// HASHTABLE → IMPORT (keys and values given as inputs) → FIND → SIZE.
    static func tableGraph(secondTable: (key: ElementType, value: ElementType)? = nil) -> GraphBuilder {
        var g = GraphBuilder()
        let keys = g.input([3], .string)
        let values = g.input([3], .int64)
        let query = g.input([2], .string)
        let handle = g.tensor([1], .resource)
        g.op(
            .hashtable, inputs: [], outputs: [handle],
            options: .hashtable(tableID: 1, keyType: .string, valueType: .int64))
        g.op(.hashtableImport, inputs: [handle, keys, values], outputs: [])
        let fallback = g.constant([Int64(-1)], shape: [1], .int64)
        let found = g.tensor([2], .int64)
        g.op(.hashtableFind, inputs: [handle, query, fallback], outputs: [found])
        let size = g.tensor([1], .int64)
        g.op(.hashtableSize, inputs: [handle], outputs: [size])
        if let secondTable {
            let other = g.tensor([1], .resource)
            g.op(
                .hashtable, inputs: [], outputs: [other],
                options: .hashtable(tableID: 1, keyType: secondTable.key, valueType: secondTable.value))
            g.output(other)
        }
        g.output(found)
        g.output(size)
        return g
    }

    static func fill(_ engine: Engine, keys: [String], values: [Int64]) throws {
        try engine.setStrings(forTensor: engine.inputs[0], keys.map { Array($0.utf8) })
        try engine.setInput(1, values)
        try engine.setStrings(forTensor: engine.inputs[2], [Array("b".utf8), Array("zz".utf8)])
    }

    @Test func hashTablesAreFilledOnceAndRefuseOtherContents() throws {
        let engine = try Self.tableGraph().engine()
        try engine.allocate()
        try Self.fill(engine, keys: ["a", "b", "a"], values: [1, 2, 3])
        try engine.invoke()
        #expect(try engine.output(0, as: Int64.self) == [2, -1])
        #expect(try engine.output(1, as: Int64.self) == [2])
        try engine.invoke() // the same import again changes nothing
        #expect(try engine.output(0, as: Int64.self) == [2, -1])
        try Self.fill(engine, keys: ["a", "b", "c"], values: [1, 7, 3])
        do {
            try engine.invoke()
            Issue.record("imported twice")
        } catch {
            #expect("\(error)".contains("HASHTABLE_IMPORT"), "\(error)")
            #expect("\(error)".contains("already imported"), "\(error)")
        }
        engine.interpreterState.resetVariables() // empties the tables: the next import fills afresh
        try engine.invoke()
        #expect(try engine.output(0, as: Int64.self) == [7, -1])
    }

    @Test func hashTableIdsWithOtherTypesAreRefused() throws {
        let engine = try Self.tableGraph(secondTable: (.int64, .string)).engine()
        try engine.allocate()
        try Self.fill(engine, keys: ["a", "b", "c"], values: [1, 2, 3])
        do {
            try engine.invoke()
            Issue.record("two tables of one id")
        } catch {
            #expect("\(error)".contains("(HASHTABLE)"), "\(error)")
            #expect("\(error)".contains("already exists with STRING keys and INT64 values"), "\(error)")
        }
    }

    @Test func handlesThatNameNoTableAreErrors() throws {
        var g = GraphBuilder()
        let handle = g.input([1], .int32)
        let keys = g.input([2], .int64)
        let fallback = g.constant(Self.layout(["?"]), shape: [1], .string)
        let found = g.tensor([2], .string)
        g.op(.hashtableFind, inputs: [handle, keys, fallback], outputs: [found])
        g.output(found)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [Int32(42)])
        try engine.setInput(1, [Int64(1), 2])
        do {
            try engine.invoke()
            Issue.record("found in no table")
        } catch {
            #expect(
                "\(error)".contains("(HASHTABLE_FIND)") && "\(error)".contains("no hash table has id 42"), "\(error)")
        }
    }

    @Test func predictNeedsItsEightBytesOfOptions() {
        var g = GraphBuilder()
        let lookup = g.input([2], .int32)
        let keys = g.constant([Int32(1), 2], shape: [2])
        let labels = g.constant([Int32(0), 1], shape: [2, 1])
        let weights = g.constant([Float(1), 2], shape: [2, 1])
        let label = g.tensor([1], .int32)
        let weight = g.tensor([1], .float32)
        _ = g.customOp(
            "Predict", inputs: [lookup, keys, labels, weights], outputs: [label, weight], options: [1, 0, 0, 0])
        g.output(label)
        do {
            _ = try g.engine()
            Issue.record("created")
        } catch {
            #expect("\(error)".contains("custom options must be 8 bytes"), "\(error)")
        }
    }

    @Test func unsupportedTableTypesAreRefusedAtPrepare() {
        var g = GraphBuilder()
        let handle = g.tensor([1], .resource)
        g.op(
            .hashtable, inputs: [], outputs: [handle],
            options: .hashtable(tableID: 0, keyType: .int32, valueType: .float32))
        g.output(handle)
        #expect(throws: RuntimeError.self) { _ = try g.engine() }
    }

    @Test func lshProjectionRefusesMoreThan32Bits() {
        var g = GraphBuilder()
        let seeds = g.constant([Float](repeating: 0.5, count: 33), shape: [1, 33])
        let x = g.input([2], .int32)
        let y = g.tensor([1], .int32)
        g.op(.lshProjection, inputs: [seeds, x], outputs: [y], options: .lshProjection(type: 1))
        g.output(y)
        do {
            _ = try g.engine()
            Issue.record("created")
        } catch {
            #expect("\(error)".contains("33 bits, more than 32"), "\(error)")
        }
    }
}
