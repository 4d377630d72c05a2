import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct BinaryElementwiseTests {
    typealias FloatOp = (BuiltinOperator, BuiltinOptions, (Float, Float) -> Float)

    static var floatOps: [FloatOp] {
        [
            (.add, .add(activation: .none, potScaleInt16: false), { $0 + $1 }),
            (.sub, .sub(activation: .none, potScaleInt16: false), { $0 - $1 }),
            (.mul, .mul(activation: .none), { $0 * $1 }),
            (.div, .div(activation: .none), { $0 / $1 }),
            (.squaredDifference, .none, { ($0 - $1) * ($0 - $1) }),
            (.maximum, .none, { $0 > $1 ? $0 : $1 }),
            (.minimum, .none, { $0 < $1 ? $0 : $1 }),
        ]
    }

    /// Shape pairs covering the fast paths (same shape, scalar, last-dim) and general
    /// broadcasting in both directions, up to rank 6.
    static let shapePairs: [([Int], [Int])] = [
        ([2, 3, 5], [2, 3, 5]),
        ([37], [37]),
        ([4, 5], []),
        ([], [4, 5]),
        ([1], [3, 7]),
        ([2, 3, 11], [11]),
        ([11], [2, 3, 11]),
        ([2, 1, 3], [4, 1]),
        ([3, 1, 5, 1], [1, 4, 1, 6]),
        ([2, 1, 2, 1, 3, 1], [1, 3, 1, 2, 1, 5]),
        ([2, 3, 4, 1, 1, 9], [3, 1, 5, 1, 9]),
        ([1, 1], [1]),
        ([0, 3], [3]),
    ]

    @Test(arguments: 0 ..< 7)
    func floatOpsMatchNaiveBroadcast(op: Int) throws {
        let (code, options, f) = Self.floatOps[op]
        var random = TestRandom(seed: UInt64(op) + 1)
        for (sa, sb) in Self.shapePairs {
            let a = random.floats(sa.reduce(1, *))
            // Keep divisors away from 0.
            let b = random.floats(sb.reduce(1, *)).map { code == .div && abs($0) < 0.1 ? $0 + 0.5 : $0 }
            let want = naiveBroadcast(a, sa, b, sb, f)
            let got = try runSingleOp(
                code, inputs: [(sa, .float32, a), (sb, .float32, b)], output: .float32, options: options)
            #expect(got.shape == want.shape, "\(code.name) \(sa) \(sb)")
            #expect(got.values == want.values, "\(code.name) \(sa) \(sb)")
        }
    }

    @Test func goldensFromTensorFlow() throws {
        let a: [Float] = [0.5, -1.25, 2.0, 3.0, -0.75, 1.5]
        let b: [Float] = [1.0, -2.0, 0.25, 4.5]
        func run(_ code: BuiltinOperator, _ options: BuiltinOptions = .none) throws -> [Float] {
            let r = try runSingleOp(
                code, inputs: [([2, 1, 3], .float32, a), ([4, 1], .float32, b)], output: .float32, options: options)
            #expect(r.shape == [2, 4, 3])
            return r.values
        }
        // tf.add(a, b) etc. with a: [2,1,3], b: [4,1] (TensorFlow 2.21).
        #expect(
            try run(.add) == [
                1.5, -0.25, 3.0, -1.5, -3.25, 0.0, 0.75, -1.0, 2.25, 5.0, 3.25, 6.5, 4.0, 0.25, 2.5, 1.0, -2.75, -0.5,
                3.25, -0.5, 1.75, 7.5, 3.75, 6.0,
            ])
        #expect(
            try run(.sub) == [
                -0.5, -2.25, 1.0, 2.5, 0.75, 4.0, 0.25, -1.5, 1.75, -4.0, -5.75, -2.5, 2.0, -1.75, 0.5, 5.0, 1.25, 3.5,
                2.75, -1.0, 1.25, -1.5, -5.25, -3.0,
            ])
        #expect(
            try run(.mul) == [
                0.5, -1.25, 2.0, -1.0, 2.5, -4.0, 0.125, -0.3125, 0.5, 2.25, -5.625, 9.0, 3.0, -0.75, 1.5, -6.0, 1.5,
                -3.0, 0.75, -0.1875, 0.375, 13.5, -3.375, 6.75,
            ])
        #expect(
            try run(.div) == [
                0.5, -1.25, 2.0, -0.25, 0.625, -1.0, 2.0, -5.0, 8.0, 0.1111111119389534, -0.2777777910232544,
                0.4444444477558136, 3.0, -0.75, 1.5, -1.5, 0.375, -0.75, 12.0, -3.0, 6.0, 0.6666666865348816,
                -0.1666666716337204, 0.3333333432674408,
            ])
        #expect(
            try run(.squaredDifference) == [
                0.25, 5.0625, 1.0, 6.25, 0.5625, 16.0, 0.0625, 2.25, 3.0625, 16.0, 33.0625, 6.25, 4.0, 3.0625, 0.25,
                25.0, 1.5625, 12.25, 7.5625, 1.0, 1.5625, 2.25, 27.5625, 9.0,
            ])
        #expect(
            try run(.maximum) == [
                1.0, 1.0, 2.0, 0.5, -1.25, 2.0, 0.5, 0.25, 2.0, 4.5, 4.5, 4.5, 3.0, 1.0, 1.5, 3.0, -0.75, 1.5, 3.0,
                0.25, 1.5, 4.5, 4.5, 4.5,
            ])
        #expect(
            try run(.minimum) == [
                0.5, -1.25, 1.0, -2.0, -2.0, -2.0, 0.25, -1.25, 0.25, 0.5, -1.25, 2.0, 1.0, -0.75, 1.0, -2.0, -2.0,
                -2.0, 0.25, -0.75, 0.25, 3.0, -0.75, 1.5,
            ])
        // tf.nn.relu6(a + b), which the converter fuses into ADD's activation.
        #expect(
            try run(.add, .add(activation: .relu6, potScaleInt16: false)) == [
                1.5, 0.0, 3.0, 0.0, 0.0, 0.0, 0.75, 0.0, 2.25, 5.0, 3.25, 6.0, 4.0, 0.25, 2.5, 1.0, 0.0, 0.0, 3.25, 0.0,
                1.75, 6.0, 3.75, 6.0,
            ])
    }

    @Test func fusedActivationsClamp() throws {
        let a: [Float] = [-3, -0.5, 0.25, 2, 9]
        let b: [Float] = [1]
        let cases: [(FusedActivation, [Float])] = [
            (.none, [-3, -0.5, 0.25, 2, 9]),
            (.relu, [0, 0, 0.25, 2, 9]),
            (.relu6, [0, 0, 0.25, 2, 6]),
            (.reluN1To1, [-1, -0.5, 0.25, 1, 1]),
        ]
        for (activation, want) in cases {
            let mul = try runSingleOp(
                .mul, inputs: [([5], .float32, a), ([1], .float32, b)], output: .float32,
                options: .mul(activation: activation))
            #expect(mul.values == want, "MUL \(activation.name)")
            let div = try runSingleOp(
                .div, inputs: [([5], .float32, a), ([1], .float32, b)], output: .float32,
                options: .div(activation: activation))
            #expect(div.values == want, "DIV \(activation.name)")
        }
    }

    @Test func int32OpsMatchNaiveBroadcast() throws {
        let ops: [(BuiltinOperator, BuiltinOptions, (Int32, Int32) -> Int32)] = [
            (.add, .add(activation: .none, potScaleInt16: false), { $0 &+ $1 }),
            (.sub, .sub(activation: .none, potScaleInt16: false), { $0 &- $1 }),
            (.mul, .mul(activation: .none), { $0 &* $1 }),
            (.squaredDifference, .none, { ($0 &- $1) &* ($0 &- $1) }),
            (.maximum, .none, { max($0, $1) }),
            (.minimum, .none, { min($0, $1) }),
            (.add, .add(activation: .relu6, potScaleInt16: false), { min(max($0 &+ $1, 0), 6) }),
            (.mul, .mul(activation: .relu), { max($0 &* $1, 0) }),
        ]
        var random = TestRandom(seed: 99)
        for (code, options, f) in ops {
            for (sa, sb) in Self.shapePairs {
                let a = random.int32s(sa.reduce(1, *), -20 ... 20)
                let b = random.int32s(sb.reduce(1, *), -20 ... 20)
                let want = naiveBroadcast(a, sa, b, sb, f)
                let got = try runSingleOp(
                    code, inputs: [(sa, .int32, a), (sb, .int32, b)], output: .int32, options: options)
                #expect(got.shape == want.shape, "\(code.name) \(sa) \(sb)")
                #expect(got.values == want.values, "\(code.name) \(sa) \(sb)")
            }
        }
        // Wraps instead of trapping.
        let big = try runSingleOp(
            .add, inputs: [([1], .int32, [Int32.max]), ([1], .int32, [Int32(1)])], output: .int32)
        #expect(big.values == [Int32.min])
    }

    /// Large enough that two threads split the work (chunk boundaries fall mid-row).
    @Test(arguments: [[64, 129, 5], [700, 10, 7]])
    func threadCountDoesNotChangeResults(shape: [Int]) throws {
        var random = TestRandom(seed: 7)
        let count = shape.reduce(1, *)
        let a = random.floats(count)
        let shapes: [[Int]] = [shape, [shape.last ?? 1], [], [shape[0], 1, shape[2]]]
        for sb in shapes {
            let b = random.floats(sb.reduce(1, *))
            let inputs: [(shape: [Int], type: ElementType, values: [Float])] = [
                (shape, .float32, a), (sb, .float32, b),
            ]
            let one = try runSingleOp(
                .add, inputs: inputs, output: .float32, options: .add(activation: .relu, potScaleInt16: false),
                threads: 1)
            let two = try runSingleOp(
                .add, inputs: inputs, output: .float32, options: .add(activation: .relu, potScaleInt16: false),
                threads: 2)
            #expect(one.values == two.values)
            #expect(one.values == naiveBroadcast(a, shape, b, sb) { max($0 + $1, 0) }.values)
        }
    }

    @Test func constantOperandsAreFolded() throws {
        var g = GraphBuilder()
        let a = g.constant([1, 2, 3] as [Int32], shape: [3])
        let b = g.constant([10] as [Int32], shape: [1])
        let y = g.tensor([3], .int32)
        g.op(.mul, inputs: [a, b], outputs: [y], options: .mul(activation: .none))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.invoke()
        #expect(try engine.output(0, as: Int32.self) == [10, 20, 30])
    }

    @Test func prepareErrors() throws {
        func prepare(
            _ code: BuiltinOperator, _ a: ([Int], ElementType), _ b: ([Int], ElementType), out: ElementType = .float32,
            options: BuiltinOptions = .none, inputCount: Int = 2
        ) -> String? {
            errorDescription {
                var g = GraphBuilder()
                let x = g.input(a.0, a.1)
                let z = g.input(b.0, b.1)
                let y = g.tensor([], out)
                g.op(code, inputs: Array([x, z].prefix(inputCount)), outputs: [y], options: options)
                g.output(y)
                _ = try g.engine()
            }
        }
        #expect(
            prepare(.add, ([2, 3], .float32), ([4, 3], .float32))
                == "operator 0 (ADD): shapes [2, 3] and [4, 3] cannot be broadcast together")
        #expect(
            prepare(.add, ([2, 3], .float32), ([2, 3], .int32))
                == "operator 0 (ADD) does not support the types inputs (FLOAT32, INT32) -> outputs (FLOAT32)")
        #expect(
            prepare(.div, ([2], .int32), ([2], .int32), out: .int32)
                == "operator 0 (DIV) does not support the types inputs (INT32, INT32) -> outputs (INT32)")
        #expect(
            prepare(.div, ([2], .uint8), ([2], .uint8), out: .uint8)
                == "operator 0 (DIV) does not support the types inputs (UINT8, UINT8) -> outputs (UINT8)")
        #expect(
            prepare(.mul, ([2], .float32), ([2], .float32), options: .mul(activation: .tanh))
                == "operator 0 (MUL): fused activation TANH is not supported")
        #expect(
            prepare(.sub, ([2], .float32), ([2], .float32), options: .mul(activation: .none))
                == "operator 0 (SUB): unexpected options mul(activation: TFLiteModel.FusedActivation.none)")
        #expect(
            prepare(.add, ([2], .float32), ([2], .float32), inputCount: 1)
                == "operator 0 (ADD): expected 2 inputs, found 1")
        #expect(
            prepare(.add, ([2, 1, 2, 1, 2, 1, 2], .float32), ([1, 2, 1, 2, 1, 2, 1], .float32))
                == "operator 0 (ADD): broadcasting [2, 1, 2, 1, 2, 1, 2] with [1, 2, 1, 2, 1, 2, 1] needs 7 dimensions; at most 6 are supported"
        )
        // Same shapes of any rank merge into one dimension.
        #expect(prepare(.add, ([1, 2, 1, 2, 1, 2, 1, 2], .float32), ([1, 2, 1, 2, 1, 2, 1, 2], .float32)) == nil)
    }

    /// Every pair of codes, at every level: the AVX-512 kernel's table-free rescale (split
    /// mantissas, one-division output) must give `apply`'s codes for input multipliers from
    /// tiny to almost 1/2, for output ranges that are the whole type (the saturating store)
    /// and narrower, for both types and both operations.
    @Test(arguments: QTest.levels)
    func quantizedAddSubEveryCodePair(level: KernelLevel) {
        let a = (0 ..< 65536).map { UInt8(truncatingIfNeeded: $0) }, b = (0 ..< 65536).map { UInt8($0 >> 8) }
        for (index, (sA, sB, sY)) in [(0.37, 0.49, 0.93), (0.0007, 0.5, 0.02), (0.25, 0.003, 3.9), (0.5, 0.5, 1.0)]
            .enumerated()
        {
            for (lowest, highest): (Int32, Int32) in [(0, 255), (-128, 127)] {
                for (subtract, narrow) in [(false, false), (true, true), (false, true), (true, false)] {
                    let zeroA = lowest + Int32(11 * index + 5), zeroB = highest - Int32(40 * index)
                    let op = AddSubQ8(
                        subtract: subtract, lowest: lowest, highest: highest, zeroA: zeroA, zeroB: zeroB,
                        zeroY: lowest + 90, multiplierA: QuantizedMultiplier(sA), multiplierB: QuantizedMultiplier(sB),
                        multiplierY: QuantizedMultiplier(sY / Double(1 << AddSubQ8.leftShift)),
                        lower: narrow ? lowest + 90 : lowest, upper: narrow ? highest - 20 : highest, level: level)
                    var y = [UInt8](repeating: 0, count: a.count)
                    if lowest == 0 {
                        y.withUnsafeMutableBufferPointer { op.run(a, 1, b, 1, $0.baseAddress!, a.count) }
                    } else {
                        let a8 = a.map { Int8(bitPattern: $0) }, b8 = b.map { Int8(bitPattern: $0) }
                        var y8 = [Int8](repeating: 0, count: a.count)
                        y8.withUnsafeMutableBufferPointer { op.run(a8, 1, b8, 1, $0.baseAddress!, a.count) }
                        y = y8.map { UInt8(bitPattern: $0) }
                    }
                    let code = { (v: UInt8) -> Int32 in lowest == 0 ? Int32(v) : Int32(Int8(bitPattern: v)) }
                    let wrong = (0 ..< a.count).filter { code(y[$0]) != op.apply(code(a[$0]), code(b[$0])) }
                    #expect(
                        wrong.isEmpty,
                        "case \(index) \(lowest) subtract \(subtract) narrow \(narrow) \(level): \(wrong.count) wrong, first at \(wrong.first ?? 0)"
                    )
                }
            }
        }
    }

    /// Quantized ADD/SUB's block loop (table sums, lane rescale, clamp) gives `apply`'s
    /// codes for every length around the block and lane sizes, with contiguous and
    /// broadcast (stride 0) operands, for both 8-bit types.
    @Test func quantizedAddSubBlocksMatchApply() {
        var rng = SplitMix64(seed: 0xadd)
        var inRange = 0, total = 0
        for (subtract, level) in [false, true].flatMap({ s in QTest.levels.map { (s, $0) } }) {
            for (lowest, highest): (Int32, Int32) in [(0, 255), (-128, 127)] {
                let op = AddSubQ8(
                    subtract: subtract, lowest: lowest, highest: highest,
                    zeroA: lowest + 7, zeroB: highest - 30, zeroY: lowest + 100,
                    multiplierA: QuantizedMultiplier(0.37), multiplierB: QuantizedMultiplier(0.49),
                    multiplierY: QuantizedMultiplier(0.93 / Double(1 << AddSubQ8.leftShift)),
                    lower: lowest + 3, upper: highest - 2, level: level)
                for n in [1, 3, 4, 7, 63, 64, 65, 130] {
                    let a = (0 ..< n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    let b = (0 ..< n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    for sb in [0, 1] {
                        var y = [UInt8](repeating: 0, count: n)
                        if lowest == 0 {
                            y.withUnsafeMutableBufferPointer { op.run(a, 1, b, sb, $0.baseAddress!, n) }
                        } else {
                            let a8 = a.map { Int8(bitPattern: $0) }, b8 = b.map { Int8(bitPattern: $0) }
                            var y8 = [Int8](repeating: 0, count: n)
                            y8.withUnsafeMutableBufferPointer { op.run(a8, 1, b8, sb, $0.baseAddress!, n) }
                            y = y8.map { UInt8(bitPattern: $0) }
                        }
                        let code = { (v: UInt8) -> Int32 in lowest == 0 ? Int32(v) : Int32(Int8(bitPattern: v)) }
                        let want = (0 ..< n).map { op.apply(code(a[$0]), code(b[$0 * sb])) }
                        #expect(y.map(code) == want, "n \(n) sb \(sb) subtract \(subtract) \(level)")
                        inRange += want.filter { $0 > lowest + 3 && $0 < highest - 2 }.count
                        total += n
                    }
                }
            }
        }
        #expect(inRange * 2 > total, "most outputs must fall inside the clamp, or the rescale goes untested")
    }
}
