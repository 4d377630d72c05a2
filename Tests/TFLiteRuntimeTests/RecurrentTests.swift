import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// RNN and UNIDIRECTIONAL_SEQUENCE_RNN against plain loops (`RecurrentReference`), over
/// several invokes so the hidden state carried between them is checked, at every kernel
/// level this CPU runs. Sizes are odd on purpose: rows past the matrix-vector kernel's 4
/// (the BLAS path), units past one 64-unit block, depths that are no multiple of 8.
@Suite struct RecurrentTests {
    typealias Reference = RecurrentReference

    struct Weights {
        var w: [Float], r: [Float], b: [Float]
        init(units: Int, input: Int, seed: UInt64) {
            w = seededFloats(units * input, seed: seed).map { $0 * 1.5 / Float(input).squareRoot() }
            r = seededFloats(units * units, seed: seed + 1).map { $0 * 0.9 / Float(units).squareRoot() }
            b = seededFloats(units, seed: seed + 2).map { $0 * 0.5 }
        }
        var cell: (Int, Int) -> Reference.Cell {
            { units, input in Reference.Cell(w: w, r: r, b: b, units: units, input: input) }
        }
    }

    static func rnnGraph(batch: Int, input: Int, units: Int, _ weights: Weights, _ activation: FusedActivation)
        -> (GraphBuilder, state: Int)
    {
        var g = GraphBuilder()
        let x = g.input([batch, input], .float32)
        let w = g.constant(weights.w, shape: [units, input])
        let r = g.constant(weights.r, shape: [units, units])
        let b = g.constant(weights.b, shape: [units])
        let h = g.variable([batch, units], .float32)
        let y = g.tensor([batch, units], .float32)
        g.op(.rnn, inputs: [x, w, r, b, h], outputs: [y], options: .rnn(RNNOptions(activation: activation)))
        g.output(y)
        return (g, h)
    }

    @Test(arguments: QTest.levels)
    func rnnMatchesNaiveLoopsOverInvokes(level: KernelLevel) throws {
        let shapes: [(Int, Int, Int, FusedActivation)] = [
            (1, 7, 13, .tanh), (3, 5, 70, .relu), (6, 9, 11, .reluN1To1), (2, 1, 3, .relu6), (5, 16, 65, .none),
            (4, 33, 8, .tanh),
        ]
        for (n, (batch, input, units, activation)) in shapes.enumerated() {
            let weights = Weights(units: units, input: input, seed: UInt64(100 * n))
            let (g, _) = Self.rnnGraph(batch: batch, input: input, units: units, weights, activation)
            for threads in [1, 2] {
                let engine = try g.engine(threads: threads, level: level)
                try engine.allocate()
                let cell = weights.cell(units, input)
                var states = [[Float]](repeating: [Float](repeating: 0, count: units), count: batch)
                for invoke in 0 ..< 3 {
                    let x = seededFloats(batch * input, seed: UInt64(7 * invoke + n))
                    try engine.setInput(0, x)
                    try engine.invoke()
                    var want: [Float] = []
                    for b in 0 ..< batch {
                        want += cell.step(
                            x: x[(b * input) ..< ((b + 1) * input)], a: nil, h: &states[b], activation)
                    }
                    expectClose(
                        try engine.output(0, as: Float.self), want,
                        "RNN \(batch)x\(input)->\(units) \(activation.name) \(level) \(threads) threads invoke \(invoke)"
                    )
                }
            }
        }
    }

    static func sequenceGraph(
        time: Int, batch: Int, input: Int, units: Int, timeMajor: Bool, _ weights: Weights,
        _ activation: FusedActivation
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let shape = timeMajor ? [time, batch, input] : [batch, time, input]
        let x = g.input(shape, .float32)
        let w = g.constant(weights.w, shape: [units, input])
        let r = g.constant(weights.r, shape: [units, units])
        let b = g.constant(weights.b, shape: [units])
        let h = g.variable([batch, units], .float32)
        let y = g.tensor(timeMajor ? [time, batch, units] : [batch, time, units], .float32)
        g.op(
            .unidirectionalSequenceRnn, inputs: [x, w, r, b, h], outputs: [y],
            options: .sequenceRNN(SequenceRNNOptions(timeMajor: timeMajor, activation: activation)))
        g.output(y)
        return g
    }

    /// Index of element `f` of row `b` at step `t` in a sequence tensor.
    static func at(_ t: Int, _ b: Int, _ f: Int, time: Int, batch: Int, width: Int, timeMajor: Bool) -> Int {
        timeMajor ? (t * batch + b) * width + f : (b * time + t) * width + f
    }

    @Test(arguments: QTest.levels)
    func unidirectionalSequenceMatchesNaiveLoops(level: KernelLevel) throws {
        let cases: [(Int, Int, Int, Int, Bool, FusedActivation)] = [
            (5, 3, 4, 6, false, .tanh), (4, 2, 9, 67, true, .relu), (7, 5, 3, 5, true, .tanh),
            (3, 6, 10, 9, false, .relu6), (1, 1, 17, 12, false, .none),
        ]
        for (n, (time, batch, input, units, timeMajor, activation)) in cases.enumerated() {
            let weights = Weights(units: units, input: input, seed: UInt64(1000 + 10 * n))
            let g = Self.sequenceGraph(
                time: time, batch: batch, input: input, units: units, timeMajor: timeMajor, weights, activation)
            let engine = try g.engine(threads: 2, level: level)
            try engine.allocate()
            let cell = weights.cell(units, input)
            var states = [[Float]](repeating: [Float](repeating: 0, count: units), count: batch)
            for invoke in 0 ..< 2 {
                let x = seededFloats(time * batch * input, seed: UInt64(31 * invoke + n))
                try engine.setInput(0, x)
                try engine.invoke()
                var want = [Float](repeating: 0, count: time * batch * units)
                for b in 0 ..< batch {
                    for t in 0 ..< time {
                        let row = (0 ..< input).map {
                            x[Self.at(t, b, $0, time: time, batch: batch, width: input, timeMajor: timeMajor)]
                        }
                        let y = cell.step(x: row[...], a: nil, h: &states[b], activation)
                        for o in 0 ..< units {
                            want[Self.at(t, b, o, time: time, batch: batch, width: units, timeMajor: timeMajor)] = y[o]
                        }
                    }
                }
                expectClose(
                    try engine.output(0, as: Float.self), want,
                    "sequence T\(time) B\(batch) \(timeMajor ? "time" : "batch")-major \(level) invoke \(invoke)")
            }
            #expect(engine.outputShape(0) == (timeMajor ? [time, batch, units] : [batch, time, units]))
        }
    }

    @Test func resetVariableTensorsRestartsTheSequence() throws {
        let weights = Weights(units: 6, input: 4, seed: 5)
        let (g, state) = Self.rnnGraph(batch: 2, input: 4, units: 6, weights, .tanh)
        let engine = try g.engine()
        try engine.allocate()
        let x = seededFloats(8, seed: 9)
        try engine.setInput(0, x)
        try engine.invoke()
        let first = try engine.output(0, as: Float.self)
        #expect(try engine.tensorValues(state, as: Float.self) == first) // h = y, in place
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) != first) // the state carried over
        engine.resetVariableTensors()
        #expect(try engine.tensorValues(state, as: Float.self).allSatisfy { $0 == 0 })
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == first)
    }

    /// LiteRT's tanh (Eigen's rational form), bit for bit: pairs of input and output bit
    /// patterns computed by LiteRT 2.3.0's RNN kernel (identity weights), chosen where it
    /// differs from the correctly rounded tanh, plus the clamp and tiny inputs.
    @Test func tanhIsLiteRTsBitForBit() {
        let pairs: [(UInt32, UInt32)] = [
            (0x408e_5523, 0x3f7f_ee0e), (0xc0c5_fa6f, 0xbf7f_ff73), (0xc03f_6eac, 0xbf7e_b620),
            (0xc009_19da, 0xbf79_0a28), (0xbc0c_d143, 0xbc0c_d05f), (0xbbde_34cf, 0xbbde_33f1),
            (0xc06e_c02b, 0xbf7f_b4a9), (0x3f13_3fe2, 0x3f04_e7e2), (0xc10d_9812, 0xbf80_0000),
            (0xc011_ef19, 0xbf7a_b381), (0x3ec6_3419, 0x3ebc_dcba), (0xc0d4_8d44, 0xbf7f_ffc6),
            (0xc112_e373, 0xbf80_0000), (0xba0e_7b78, 0xba0e_7b77), (0x39e8_03fe, 0x39e8_03fc),
        ]
        for (x, y) in pairs {
            let got = RecurrentActivation.tanh(Float(bitPattern: x))
            #expect(got.bitPattern == y, "tanh(\(Float(bitPattern: x))) = \(got), LiteRT \(Float(bitPattern: y))")
        }
        var v: [Float] = [-2, -0.0, 0, 3, -.infinity, .infinity]
        v.withUnsafeMutableBufferPointer { RecurrentActivation.signBit.apply($0.baseAddress!, count: 6) }
        #expect(v == [1, 1, 0, 0, 1, 0])
        var r: [Float] = [-0.0, -3, 0.5, 7, .nan]
        r.withUnsafeMutableBufferPointer { RecurrentActivation.relu.apply($0.baseAddress!, count: 5) }
        #expect(r.map(\.bitPattern) == [0, 0, Float(0.5).bitPattern, Float(7).bitPattern, 0])
    }

    // MARK: hybrid

    static func hybridGraph(
        time: Int?, batch: Int, input: Int, units: Int, timeMajor: Bool, asymmetric: Bool,
        _ w: ([Int8], Float), _ r: ([Int8], Float), _ b: [Float], _ activation: FusedActivation
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let shape = time.map { timeMajor ? [$0, batch, input] : [batch, $0, input] } ?? [batch, input]
        let x = g.input(shape, .float32)
        let wt = g.constant(w.0, shape: [units, input], .int8, quantization: QTest.quantization([w.1], [0]))
        let rt = g.constant(r.0, shape: [units, units], .int8, quantization: QTest.quantization([r.1], [0]))
        let bt = g.constant(b, shape: [units])
        let h = g.variable([batch, units], .float32)
        let yShape = time.map { timeMajor ? [$0, batch, units] : [batch, $0, units] } ?? [batch, units]
        let y = g.tensor(yShape, .float32)
        if time == nil {
            g.op(
                .rnn, inputs: [x, wt, rt, bt, h], outputs: [y],
                options: .rnn(RNNOptions(activation: activation, asymmetricQuantizeInputs: asymmetric)))
        } else {
            g.op(
                .unidirectionalSequenceRnn, inputs: [x, wt, rt, bt, h], outputs: [y],
                options: .sequenceRNN(
                    SequenceRNNOptions(
                        timeMajor: timeMajor, activation: activation, asymmetricQuantizeInputs: asymmetric)))
        }
        g.output(y)
        return g
    }

    /// The hybrid kernels reproduce LiteRT's arithmetic exactly, so they equal the plain
    /// reference bit for bit at every level and thread count, including the skipped
    /// all-zero operands (per row in a batch-major sequence, over all rows otherwise).
    @Test(arguments: QTest.levels)
    func hybridMatchesReferenceBitForBit(level: KernelLevel) throws {
        let cases: [(Int?, Int, Int, Int, Bool, Bool, FusedActivation)] = [
            (nil, 3, 40, 33, false, false, .tanh), (nil, 2, 9, 70, false, true, .relu),
            (4, 3, 12, 20, false, true, .tanh), (3, 5, 17, 9, true, false, .tanh), (2, 1, 64, 64, false, false, .none),
        ]
        for (n, (time, batch, input, units, timeMajor, asymmetric, activation)) in cases.enumerated() {
            let weights = Weights(units: units, input: input, seed: UInt64(500 + n))
            let w = Reference.int8(weights.w), r = Reference.int8(weights.r)
            let g = Self.hybridGraph(
                time: time, batch: batch, input: input, units: units, timeMajor: timeMajor, asymmetric: asymmetric,
                w, r, weights.b, activation)
            let cell = Reference.HybridCell(
                w: w.0, ws: w.1, r: r.0, rs: r.1, b: weights.b, units: units, input: input, asymmetric: asymmetric)
            let act = try RecurrentActivation(activation)
            let steps = time ?? 1
            for threads in [1, 3] {
                let engine = try g.engine(threads: threads, level: level)
                try engine.allocate()
                var states = [[Float]](repeating: [Float](repeating: 0, count: units), count: batch)
                for invoke in 0 ..< 3 {
                    var x = seededFloats(steps * batch * input, seed: UInt64(77 * invoke + n))
                    // Zero rows: batch row 0 at step 0 on the second invoke, all of step 1.
                    if invoke == 1 {
                        for i in 0 ..< input {
                            x[Self.at(0, 0, i, time: steps, batch: batch, width: input, timeMajor: timeMajor)] = 0
                        }
                    }
                    if steps > 1 {
                        for b in 0 ..< batch {
                            for i in 0 ..< input {
                                x[Self.at(1, b, i, time: steps, batch: batch, width: input, timeMajor: timeMajor)] = 0
                            }
                        }
                    }
                    try engine.setInput(0, x)
                    try engine.invoke()
                    var want = [Float](repeating: 0, count: steps * batch * units)
                    for t in 0 ..< steps {
                        let rows = (0 ..< batch).map { b in
                            (0 ..< input).map {
                                x[Self.at(t, b, $0, time: steps, batch: batch, width: input, timeMajor: timeMajor)]
                            }
                        }
                        let perRow = time != nil && !timeMajor
                        let inputAllZero = rows.allSatisfy { $0.allSatisfy { $0 == 0 } }
                        let stateAllZero = states.allSatisfy { $0.allSatisfy { $0 == 0 } }
                        for b in 0 ..< batch {
                            let skipInput = perRow ? rows[b].allSatisfy { $0 == 0 } : inputAllZero
                            let skipState = perRow ? states[b].allSatisfy { $0 == 0 } : stateAllZero
                            let y = cell.step(
                                x: rows[b], a: nil, h: &states[b], skip: [skipInput, true, skipState], act)
                            for o in 0 ..< units {
                                want[Self.at(t, b, o, time: steps, batch: batch, width: units, timeMajor: timeMajor)] =
                                    y[o]
                            }
                        }
                    }
                    let got = try engine.output(0, as: Float.self)
                    #expect(
                        got.map(\.bitPattern) == want.map(\.bitPattern),
                        "hybrid case \(n) \(level) \(threads) threads invoke \(invoke): \(zip(got, want).filter { $0 != $1 }.count) values differ"
                    )
                }
            }
        }
    }
}
