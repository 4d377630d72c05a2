import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// The random operators' generator and state rules (spec/random.md). That the streams
/// are LiteRT's, bit for bit, is the conformance corpus's job (RANDOM_*, MULTINOMIAL and
/// STABLEHLO_RNG_BIT_GENERATOR cases invoke one interpreter several times).
@Suite struct RandomTests {
    @Test func philoxMatchesTheKnownAnswers() {
        // Philox-4x32-10 known-answer vectors of the Random123 distribution.
        #expect(
            Philox4x32.block(counter: .zero, key: .zero) == SIMD4(0x6627_E8D5, 0xE169_C58D, 0xBC57_AC4C, 0x9B00_DBD8))
        #expect(
            Philox4x32.block(counter: SIMD4(repeating: .max), key: SIMD2(repeating: .max))
                == SIMD4(0x408F_276D, 0x41C8_3B0E, 0xA20B_C7C6, 0x6D54_51FD))
        #expect(
            Philox4x32.block(
                counter: SIMD4(0x243F_6A88, 0x85A3_08D3, 0x1319_8A2E, 0x0370_7344), key: SIMD2(0xA409_3822, 0x299F_31D0)
            )
                == SIMD4(0xD16C_FE09, 0x94FD_CCEB, 0x5001_E420, 0x2412_6EA1))
    }

    @Test func seedsFillKeyAndUpperCounterAndSkipCarries() {
        let p = Philox4x32(seed: 0x1111_2222_3333_4444, seed2: 0x5555_6666_7777_8888)
        #expect(p.key == SIMD2(0x3333_4444, 0x1111_2222))
        #expect(p.counter == SIMD4(0, 0, 0x7777_8888, 0x5555_6666))
        var q = Philox4x32(counter: SIMD4(.max, .max, 7, 0), key: .zero)
        q.skip(1)
        #expect(q.counter == SIMD4(0, 0, 8, 0))
        var r = Philox4x32(counter: SIMD4(.max, 0, 0, 0), key: .zero)
        r.skip(0x0000_0001_0000_0002)
        #expect(r.counter == SIMD4(1, 2, 0, 0))
        #expect(RandomBits.unitFloat(0) == 0)
        #expect(RandomBits.unitFloat(.max) == 1 - 0x1p-23)
        #expect(RandomBits.unitDouble(.max, .max) == 1 - 0x1p-52)
    }

    func randomGraph(_ op: BuiltinOperator, shape: [Int32], seed: Int64, seed2: Int64) -> GraphBuilder {
        var g = GraphBuilder()
        let s = g.constant(shape, shape: [shape.count])
        let y = g.tensor(shape.map(Int.init), .float32)
        g.op(op, inputs: [s], outputs: [y], options: .random(seed: seed, seed2: seed2))
        g.output(y)
        return g
    }

    func invokes(_ g: GraphBuilder, _ count: Int, threads: Int = 1) throws -> [[Float]] {
        let engine = try g.engine(threads: threads)
        try engine.allocate()
        return try (0 ..< count).map { _ in
            try engine.invoke()
            return try engine.output(0, as: Float.self)
        }
    }

    @Test func uniformIsInUnitRangeAdvancesPerInvokeAndRestartsPerEngine() throws {
        let g = randomGraph(.randomUniform, shape: [7, 9], seed: 7, seed2: 13)
        let first = try invokes(g, 3)
        #expect(first.allSatisfy { $0.allSatisfy { $0 >= 0 && $0 < 1 } })
        #expect(first[0] != first[1] && first[1] != first[2], "a constant shape must not fold the output")
        #expect(try invokes(g, 3) == first, "a new engine starts the sequence again")
        #expect(try invokes(g, 3, threads: 2) == first, "threads split blocks, not the stream")
        // Each invoke takes ⌈63 / 4⌉ = 16 blocks: the second invoke starts at block 16.
        var p = Philox4x32(seed: 7, seed2: 13)
        p.skip(16)
        let block = p.next()
        #expect(Array(first[1].prefix(4)) == (0 ..< 4).map { RandomBits.unitFloat(block[$0]) })
    }

    @Test func normalIsBoxMullerOfWordPairs() throws {
        let g = randomGraph(.randomStandardNormal, shape: [5], seed: 1, seed2: 2)
        let y = try invokes(g, 1)[0]
        var p = Philox4x32(seed: 1, seed2: 2)
        let w = p.next()
        let (a, b) = RandomFloatsKernel.boxMuller(w[0], w[1])
        let (c, d) = RandomFloatsKernel.boxMuller(w[2], w[3])
        let tail = p.next()
        let (e, _) = RandomFloatsKernel.boxMuller(tail[0], tail[1])
        #expect(y == [a, b, c, d, e], "an odd count keeps the first value of the last pair")
        let mean = try invokes(randomGraph(.randomStandardNormal, shape: [4000], seed: 3, seed2: 0), 1)[0]
        let average = mean.reduce(0, +) / 4000
        #expect(abs(average) < 0.1)
    }

    @Test func bothSeedsZeroDrawsFromTheSystem() throws {
        let g = randomGraph(.randomUniform, shape: [32], seed: 0, seed2: 0)
        #expect(try invokes(g, 1) != invokes(g, 1), "unseeded engines start from system randomness")
    }

    @Test func multinomialSamplesFollowTheLogits() throws {
        var g = GraphBuilder()
        let logits = g.input([2, 4], .float32)
        let n = g.constant([Int32(500)], shape: [])
        let y = g.tensor([2, 500], .int64)
        g.op(.multinomial, inputs: [logits, n], outputs: [y], options: .random(seed: 4, seed2: 5))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        // Row 0: class 2 only (the others -inf); row 1: classes 0 and 3 equally likely.
        let inf = Float.infinity
        try engine.setInput(0, [-inf, -inf, 1, -inf, 0, -50, -50, 0] as [Float])
        try engine.invoke()
        let s = try engine.output(0, as: Int64.self)
        #expect(s.prefix(500).allSatisfy { $0 == 2 })
        let row1 = s.suffix(500)
        #expect(row1.allSatisfy { $0 == 0 || $0 == 3 })
        #expect(row1.filter { $0 == 0 }.count > 200 && row1.filter { $0 == 3 }.count > 200)
        try engine.invoke()
        #expect(try engine.output(0, as: Int64.self).suffix(500) != row1)
    }

    @Test func badOperandsAreTypedErrors() {
        var g = GraphBuilder()
        let s = g.constant([Int32(2), -3], shape: [2])
        let y = g.tensor([2, 3], .float32)
        g.op(.randomUniform, inputs: [s], outputs: [y], options: .random(seed: 1, seed2: 1))
        g.output(y)
        expectInvalid(g, "negative")

        var h = GraphBuilder()
        let t = h.constant([Int32(2)], shape: [1])
        let z = h.tensor([2], .int32)
        h.op(.randomStandardNormal, inputs: [t], outputs: [z], options: .random(seed: 1, seed2: 1))
        h.output(z)
        expectUnsupportedTypes(h)

        var m = GraphBuilder()
        let logits = m.input([4], .float32)
        let n = m.constant([Int32(3)], shape: [])
        let out = m.tensor([1, 3], .int64)
        m.op(.multinomial, inputs: [logits, n], outputs: [out], options: .random(seed: 1, seed2: 1))
        m.output(out)
        expectInvalid(m, "rank 2")

        var k = GraphBuilder()
        let l2 = k.input([2, 4], .float32)
        let n2 = k.constant([Int32(-1)], shape: [])
        let o2 = k.tensor([2, 1], .int64)
        k.op(.multinomial, inputs: [l2, n2], outputs: [o2], options: .random(seed: 1, seed2: 1))
        k.output(o2)
        expectInvalid(k, "negative")

        var b = GraphBuilder()
        let state = b.input([4], .uint64)
        let next = b.tensor([4], .uint64)
        let bits = b.tensor([3], .int32)
        b.op(
            .stablehloRngBitGenerator, inputs: [state], outputs: [next, bits],
            options2: .stablehloRngBitGenerator(algorithm: 1))
        b.output(bits)
        expectInvalid(b, "Philox state")

        var c = GraphBuilder()
        let st = c.input([2], .uint64)
        let nx = c.tensor([2], .uint64)
        let bf = c.tensor([3], .float32)
        c.op(
            .stablehloRngBitGenerator, inputs: [st], outputs: [nx, bf],
            options2: .stablehloRngBitGenerator(algorithm: 2))
        c.output(bf)
        expectUnsupportedTypes(c)
    }

    @Test func threefryMatchesItsKnownAnswer() {
        // Threefry-2x32-20 known-answer vector of the Random123 distribution.
        #expect(Threefry2x32.block(counter: .zero, key: .zero) == SIMD2(0x6B20_0159, 0x99BA_4EFE))
        #expect(
            Threefry2x32.block(counter: SIMD2(repeating: .max), key: SIMD2(repeating: .max))
                == SIMD2(0x1CB9_96FC, 0xBB00_2BE7))
    }
}
