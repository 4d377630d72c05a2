import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// SVDF against plain loops over more invokes than the memory holds, so every window fills
/// and moves on: float (within the float tolerance), hybrid, and integer (bit for bit,
/// outputs and the int16 state after every invoke), at every kernel level.
@Suite struct SVDFTests {
    struct Shape {
        var batch: Int, input: Int, units: Int, rank: Int, memory: Int
        var filters: Int { units * rank }
    }

    static let shapes = [
        Shape(batch: 2, input: 6, units: 8, rank: 1, memory: 4),
        Shape(batch: 3, input: 11, units: 5, rank: 2, memory: 9),
        Shape(batch: 1, input: 40, units: 70, rank: 1, memory: 3),
        Shape(batch: 6, input: 7, units: 4, rank: 3, memory: 1),
        Shape(batch: 1, input: 9, units: 3, rank: 2, memory: 20),
        Shape(batch: 2, input: 16, units: 67, rank: 1, memory: 34),
    ]

    /// A reference of the float arithmetic; `feature(row, f)` gives the newest value.
    struct FloatReference {
        let s: Shape
        var state: [Float]
        init(_ s: Shape) { self.s = s; state = [Float](repeating: 0, count: s.batch * s.filters * s.memory) }

        mutating func step(
            feature: (Int, Int) -> Float, time: [Float], bias: [Float]?, _ act: FusedActivation
        ) -> [Float] {
            var y = [Float](repeating: 0, count: s.batch * s.units)
            for b in 0 ..< s.batch {
                var t = [Double](repeating: 0, count: s.filters)
                for f in 0 ..< s.filters {
                    let base = (b * s.filters + f) * s.memory
                    for m in 0 ..< s.memory - 1 { state[base + m] = state[base + m + 1] }
                    state[base + s.memory - 1] = feature(b, f)
                    for m in 0 ..< s.memory { t[f] += Double(state[base + m]) * Double(time[f * s.memory + m]) }
                }
                for u in 0 ..< s.units {
                    var v = (0 ..< s.rank).reduce(0.0) { $0 + t[u * s.rank + $1] }
                    if let bias { v += Double(bias[u]) }
                    y[b * s.units + u] = Float(RecurrentReference.activate(v, act))
                }
            }
            return y
        }
    }

    static func graph(
        _ s: Shape, input: ElementType, feature: Int, time: Int, bias: Int?, state: ElementType,
        output: ElementType, builder: inout GraphBuilder, activation: FusedActivation, asymmetric: Bool = false,
        inputQuantization: Quantization? = nil, stateQuantization: Quantization? = nil,
        outputQuantization: Quantization? = nil
    ) -> Int {
        let x = builder.input([s.batch, s.input], input, quantization: inputQuantization)
        let st = builder.variable([s.batch, s.filters * s.memory], state, quantization: stateQuantization)
        let y = builder.tensor([s.batch, s.units], output, quantization: outputQuantization)
        builder.op(
            .svdf, inputs: [x, feature, time, bias ?? -1, st], outputs: [y],
            options: .svdf(SVDFOptions(rank: s.rank, activation: activation, asymmetricQuantizeInputs: asymmetric)))
        builder.output(y)
        return st
    }

    @Test(arguments: QTest.levels)
    func floatMatchesNaiveLoops(level: KernelLevel) throws {
        for (n, s) in Self.shapes.enumerated() {
            let wf = seededFloats(s.filters * s.input, seed: UInt64(10 * n)).map { $0 / Float(s.input).squareRoot() }
            let wt = seededFloats(s.filters * s.memory, seed: UInt64(10 * n + 1))
            let bias = n % 2 == 0 ? seededFloats(s.units, seed: UInt64(10 * n + 2)) : nil
            let activation: FusedActivation = [.relu, .tanh, .none, .relu6, .reluN1To1, .relu][n]
            var g = GraphBuilder()
            let f = g.constant(wf, shape: [s.filters, s.input])
            let t = g.constant(wt, shape: [s.filters, s.memory])
            let b = bias.map { g.constant($0, shape: [s.units]) }
            _ = Self.graph(
                s, input: .float32, feature: f, time: t, bias: b, state: .float32, output: .float32, builder: &g,
                activation: activation)
            let engine = try g.engine(threads: 2, level: level)
            try engine.allocate()
            var reference = FloatReference(s)
            for invoke in 0 ..< s.memory + 3 {
                let x = seededFloats(s.batch * s.input, seed: UInt64(1000 + 17 * invoke + n))
                try engine.setInput(0, x)
                try engine.invoke()
                let want = reference.step(
                    feature: { row, filter in
                        Float(
                            (0 ..< s.input).reduce(0.0) {
                                $0 + Double(wf[filter * s.input + $1]) * Double(x[row * s.input + $1])
                            })
                    }, time: wt, bias: bias, activation)
                expectClose(try engine.output(0, as: Float.self), want, "SVDF \(n) \(level) invoke \(invoke)")
            }
        }
    }

    @Test(arguments: QTest.levels)
    func hybridMatchesReference(level: KernelLevel) throws {
        for (n, s) in Self.shapes.enumerated() {
            let asymmetric = n % 2 == 1
            let (cf, sf) = RecurrentReference.int8(seededFloats(s.filters * s.input, seed: UInt64(20 * n)))
            let (ct, st) = RecurrentReference.int8(seededFloats(s.filters * s.memory, seed: UInt64(20 * n + 1)))
            let bias = seededFloats(s.units, seed: UInt64(20 * n + 2))
            var g = GraphBuilder()
            let f = g.constant(cf, shape: [s.filters, s.input], .int8, quantization: QTest.quantization([sf], [0]))
            let t = g.constant(ct, shape: [s.filters, s.memory], .int8, quantization: QTest.quantization([st], [0]))
            let b = g.constant(bias, shape: [s.units])
            _ = Self.graph(
                s, input: .float32, feature: f, time: t, bias: b, state: .float32, output: .float32, builder: &g,
                activation: .relu, asymmetric: asymmetric)
            let engine = try g.engine(threads: 2, level: level)
            try engine.allocate()
            var reference = FloatReference(s)
            let time = ct.map { Float($0) * st }
            for invoke in 0 ..< s.memory + 3 {
                // The third invoke is all zeros: LiteRT skips the feature product.
                let x =
                    invoke == 2
                    ? [Float](repeating: 0, count: s.batch * s.input)
                    : seededFloats(s.batch * s.input, seed: UInt64(3000 + 13 * invoke + n))
                try engine.setInput(0, x)
                try engine.invoke()
                var newest = [Float](repeating: 0, count: s.batch * s.filters)
                if x.contains(where: { $0 != 0 }) {
                    for row in 0 ..< s.batch {
                        var q = [Int8](repeating: 0, count: s.input)
                        let slice = Array(x[(row * s.input) ..< ((row + 1) * s.input)])
                        let (scale, zero) = slice.withUnsafeBufferPointer { v in
                            q.withUnsafeMutableBufferPointer {
                                HybridInput.quantize(
                                    v.baseAddress!, count: s.input, stride: 1, asymmetric: asymmetric,
                                    into: $0.baseAddress!)
                            }
                        }
                        for filter in 0 ..< s.filters {
                            var acc: Int32 = 0
                            for i in 0 ..< s.input { acc &+= Int32(cf[filter * s.input + i]) * (Int32(q[i]) - zero) }
                            newest[row * s.filters + filter] = 0 + Float(acc) * (scale * sf)
                        }
                    }
                }
                let want = reference.step(feature: { newest[$0 * s.filters + $1] }, time: time, bias: bias, .relu)
                expectClose(try engine.output(0, as: Float.self), want, "hybrid SVDF \(n) \(level) invoke \(invoke)")
            }
        }
    }

    @Test(arguments: QTest.levels)
    func integerMatchesReferenceBitForBit(level: KernelLevel) throws {
        for (n, s) in Self.shapes.enumerated() {
            var rng = SplitMix64(seed: UInt64(70 + n))
            let wf = (0 ..< s.filters * s.input).map { _ in Int8.random(in: -127 ... 127, using: &rng) }
            let wt = (0 ..< s.filters * s.memory).map { _ in Int16.random(in: -3000 ... 3000, using: &rng) }
            let bias =
                n == 2 || n == 5 ? nil : (0 ..< s.units).map { _ in Int32.random(in: -40000 ... 40000, using: &rng) }
            let (sx, zx): (Float, Int) = (0.0123, [-128, 5, 127, -3, 0, 9][n])
            let (sw, ss, swt, so, zo): (Float, Float, Float, Float, Int) = (0.0071, 0.00031, 0.00019, 0.0089, -128)
            var g = GraphBuilder()
            let f = g.constant(wf, shape: [s.filters, s.input], .int8, quantization: QTest.quantization([sw], [0]))
            let t = g.constant(wt, shape: [s.filters, s.memory], .int16, quantization: QTest.quantization([swt], [0]))
            let b = bias.map { g.constant($0, shape: [s.units]) }
            let stateTensor = Self.graph(
                s, input: .int8, feature: f, time: t, bias: b, state: .int16, output: .int8, builder: &g,
                activation: .relu, inputQuantization: QTest.quantization([sx], [zx]),
                stateQuantization: QTest.quantization([ss], [0]), outputQuantization: QTest.quantization([so], [zo]))
            let (m1, e1) = FixedPoint.quantizeMultiplier(Double(sx * sw / ss))
            let (m2, e2) = FixedPoint.quantizeMultiplier(Double(ss * swt / so))
            for threads in [1, 3] {
                let engine = try g.engine(threads: threads, level: level)
                try engine.allocate()
                var state = [Int16](repeating: 0, count: s.batch * s.filters * s.memory)
                for invoke in 0 ..< s.memory + 3 {
                    let x = (0 ..< s.batch * s.input).map { _ in Int8.random(in: -128 ... 127, using: &rng) }
                    try engine.setInput(0, x)
                    try engine.invoke()
                    var want = [Int8](repeating: 0, count: s.batch * s.units)
                    for row in 0 ..< s.batch {
                        var t = [Int32](repeating: 0, count: s.filters)
                        for filter in 0 ..< s.filters {
                            var acc: Int32 = 0
                            for i in 0 ..< s.input {
                                acc &+= Int32(wf[filter * s.input + i]) * (Int32(x[row * s.input + i]) - Int32(zx))
                            }
                            let v = FixedPoint.multiplyByQuantizedMultiplier(acc, m1, e1)
                            let base = (row * s.filters + filter) * s.memory
                            for m in 0 ..< s.memory - 1 { state[base + m] = state[base + m + 1] }
                            state[base + s.memory - 1] = Int16(Swift.min(Swift.max(v, -32768), 32767))
                            for m in 0 ..< s.memory {
                                t[filter] &+= Int32(state[base + m]) * Int32(wt[filter * s.memory + m])
                            }
                        }
                        for u in 0 ..< s.units {
                            var o = (0 ..< s.rank).reduce(Int32(0)) { $0 &+ t[u * s.rank + $1] }
                            if let bias { o &+= bias[u] }
                            let v = FixedPoint.multiplyByQuantizedMultiplier(o, m2, e2) + Int32(zo)
                            want[row * s.units + u] = Int8(Swift.min(Swift.max(v, -128), 127))
                        }
                    }
                    let what = "int8 SVDF \(n) \(level) \(threads) threads invoke \(invoke)"
                    #expect(try engine.output(0, as: Int8.self) == want, "\(what): output")
                    #expect(try engine.tensorValues(stateTensor, as: Int16.self) == state, "\(what): state")
                }
                engine.resetVariableTensors()
                #expect(try engine.tensorValues(stateTensor, as: Int16.self).allSatisfy { $0 == 0 })
            }
        }
    }
}
