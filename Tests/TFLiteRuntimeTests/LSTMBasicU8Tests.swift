import Foundation
import TFLiteModel
import Testing

@testable import TFLiteRuntime

/// The 8-bit BASIC-kernel LSTM against a plain loop written from the steps in
/// spec/sequence-ops.md ("Quantized BASIC kernel"), in 64-bit integers, at every kernel
/// level, over many invokes with a state driven into saturation; and its prepare errors.
/// The conformance corpus checks the same kernel against LiteRT's own outputs.
@Suite struct LSTMBasicU8Tests {
    struct Config {
        var batch = 3, features = 21, depth = 13
        var weightZeroPoint: Int64 = 97
        var weightScale: Float = 1.5 / 127
        /// Added to the input, new-input (alternating sign by unit) and forget gates' biases.
        var drive: Float = 0
    }

    static let activation = Quantization(scales: [1.0 / 128], zeroPoints: [128])
    static let stateQ = Quantization(scales: [1.0 / 2048], zeroPoints: [0])
    static let gatesQ = Quantization(scales: [1.0 / 4096], zeroPoints: [0])

    struct Parameters {
        var weights: [UInt8] = [], bias: [Int32] = []

        init(_ c: Config, seed: UInt64) {
            var r = TestRandom(seed: seed)
            let total = c.features + c.depth
            weights = (0 ..< 4 * c.depth * total).map { _ in UInt8(truncatingIfNeeded: r.next() >> 56) }
            let step = Int32((c.drive / (c.weightScale / 128)).rounded())
            bias = r.int32s(4 * c.depth, -4000 ... 4000)
            for j in 0 ..< c.depth {
                bias[j] += step
                bias[c.depth + j] += j % 2 == 0 ? step : -step
                bias[2 * c.depth + j] += step
            }
        }
    }

    /// The operator with its tensors; `edit` may change any operand before it is added.
    static func graph(
        _ c: Config, _ p: Parameters, edit: (inout GraphBuilder, inout [Int], inout [Int]) -> Void = { _, _, _ in }
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let total = c.features + c.depth
        let x = g.input([c.batch, c.features], .uint8, quantization: activation)
        let h = g.variable([c.batch, c.depth], .uint8, quantization: activation)
        let w = g.constant(
            p.weights, shape: [4 * c.depth, total], .uint8,
            quantization: Quantization(scales: [c.weightScale], zeroPoints: [c.weightZeroPoint]))
        let b = g.constant(
            p.bias, shape: [4 * c.depth], .int32,
            quantization: Quantization(scales: [c.weightScale / 128], zeroPoints: [0]))
        let s = g.variable([c.batch, c.depth], .int16, quantization: stateQ)
        let outs = [
            g.tensor([c.batch, c.depth], .uint8, quantization: activation),
            g.tensor([c.batch, c.depth], .int16, quantization: stateQ),
            g.tensor([c.batch, total], .uint8, quantization: activation),
            g.tensor([c.batch, 4 * c.depth], .int16, quantization: gatesQ),
        ]
        var ins = [x, h, w, b, s]
        var outputs = outs
        edit(&g, &ins, &outputs)
        g.op(.lstm, inputs: ins, outputs: outputs, options: .lstm(LSTMOptions(activation: .tanh, kernelType: 1)))
        for o in outputs.prefix(2) { g.output(o) }
        return g
    }

    /// One step of the definition for all rows, updating `h` and `c`; returns the
    /// pre-activations.
    static func reference(_ c: Config, _ p: Parameters, _ x: [UInt8], h: inout [UInt8], cell: inout [Int16]) -> [Int16]
    {
        let total = c.features + c.depth
        // 4096·s_bias = M·2^e, with M = 2^31·q, q ∈ [0.5, 1).
        let real = Double(4096 * (c.weightScale / 128))
        let e = Int(real.exponent) + 1
        let mantissa = Int64((real.significand * 1_073_741_824).rounded(.toNearestOrAwayFromZero))
        func floorDiv(_ a: Int64, _ shift: Int) -> Int64 { a >> Int64(shift) }
        func srdhm16(_ a: Int, _ b: Int) -> Int {
            if a == -32768 && b == -32768 { return 32767 }
            let ab = a * b
            return (ab + (ab >= 0 ? 16384 : -16383)) / 32768
        }
        func roundAway(_ v: Int, _ shift: Int) -> Int {
            Int((Double(v) / Double(1 << shift)).rounded(.toNearestOrAwayFromZero))
        }
        func sat16(_ v: Int) -> Int { min(max(v, -32768), 32767) }
        var pre = [Int16](repeating: 0, count: c.batch * 4 * c.depth)
        var newH = h, newC = cell
        for r in 0 ..< c.batch {
            let joined = Array(
                x[(r * c.features) ..< ((r + 1) * c.features)] + h[(r * c.depth) ..< ((r + 1) * c.depth)])
            var a = [Int](repeating: 0, count: 4 * c.depth)
            for o in 0 ..< 4 * c.depth {
                var acc = Int64(p.bias[o])
                for k in 0 ..< total {
                    acc += (Int64(p.weights[o * total + k]) - c.weightZeroPoint) * (Int64(joined[k]) - 128)
                }
                let shifted = acc << Int64(max(e, 0))
                var v = floorDiv(shifted * mantissa + (1 << 30), 31)
                if e < 0 { v = floorDiv(v + (1 << Int64(-e - 1)), -e) }
                a[o] = sat16(Int(v))
                pre[r * 4 * c.depth + o] = Int16(a[o])
            }
            for j in 0 ..< c.depth {
                let i = Int(LSTMInt16Math.logistic(Int32(a[j]), integerBits: 3))
                let g = Int(LSTMInt16Math.tanh(Int32(a[c.depth + j]), integerBits: 3))
                let f = Int(LSTMInt16Math.logistic(Int32(a[2 * c.depth + j]), integerBits: 3))
                let o = Int(LSTMInt16Math.logistic(Int32(a[3 * c.depth + j]), integerBits: 3))
                let state = sat16(roundAway(srdhm16(i, g), 4) + srdhm16(f, Int(cell[r * c.depth + j])))
                let tanh = Int(LSTMInt16Math.tanh(Int32(sat16(2 * state)), integerBits: 3))
                let m = roundAway(srdhm16(o, tanh), 8)
                newC[r * c.depth + j] = Int16(state)
                newH[r * c.depth + j] = UInt8(128 + min(max(m, -128), 127))
            }
        }
        h = newH
        cell = newC
        return pre
    }

    static let configs: [Config] = [
        Config(),
        Config(batch: 1, features: 5, depth: 6, weightZeroPoint: 128, weightScale: 1.2 / 127, drive: 4),
        Config(batch: 2, features: 40, depth: 24, weightZeroPoint: 0, weightScale: 0.4 / 127, drive: 5),
        // A multiplier above 1 (exponent 3): the sums are shifted left first.
        Config(batch: 2, features: 3, depth: 4, weightZeroPoint: 255, weightScale: 0.2),
    ]

    @Test(arguments: QTest.levels)
    func matchesDefinitionOverManyInvokes(_ level: KernelLevel) throws {
        for (n, c) in Self.configs.enumerated() {
            let p = Parameters(c, seed: UInt64(n + 7))
            let engine = try Self.graph(c, p).engine(level: level)
            try engine.allocate()
            var h = [UInt8](repeating: 0, count: c.batch * c.depth)
            var cell = [Int16](repeating: 0, count: c.batch * c.depth)
            var r = TestRandom(seed: UInt64(40 + n))
            var saturated = false
            for invoke in 0 ..< 24 {
                let x = (0 ..< c.batch * c.features).map { _ in UInt8(truncatingIfNeeded: r.next() >> 56) }
                if invoke == 20 {
                    // A reset returns the states to zero bytes, as allocate() leaves them.
                    engine.resetVariableTensors()
                    h = h.map { _ in 0 }
                    cell = cell.map { _ in 0 }
                }
                try engine.setInput(0, x)
                try engine.invoke()
                _ = Self.reference(c, p, x, h: &h, cell: &cell)
                let label = "config \(n) invoke \(invoke) at \(level)"
                #expect(try engine.output(0, as: UInt8.self) == h, "activation, \(label)")
                #expect(try engine.output(1, as: Int16.self) == cell, "state, \(label)")
                saturated = saturated || cell.contains(32767) || cell.contains(-32768)
            }
            if c.drive > 0 { #expect(saturated, "config \(n) never saturates its state") }
        }
    }

    /// The two intermediate outputs hold the concatenation and the pre-activations.
    @Test func writesConcatenationAndPreactivations() throws {
        let c = Configs.small
        let p = Parameters(c, seed: 3)
        var intermediates: [Int] = []
        var g = Self.graph(c, p) { _, _, outs in intermediates = Array(outs[2...]) }
        for t in intermediates { g.output(t) }
        let engine = try g.engine()
        try engine.allocate()
        var h = [UInt8](repeating: 0, count: c.batch * c.depth)
        var cell = [Int16](repeating: 0, count: c.batch * c.depth)
        for step in 0 ..< 3 {
            let x = (0 ..< c.batch * c.features).map { UInt8(truncatingIfNeeded: $0 * 37 + step * 11) }
            let before = h
            try engine.setInput(0, x)
            try engine.invoke()
            let expectedPre = Self.reference(c, p, x, h: &h, cell: &cell)
            var joined: [UInt8] = []
            for r in 0 ..< c.batch {
                joined += x[(r * c.features) ..< ((r + 1) * c.features)]
                joined += before[(r * c.depth) ..< ((r + 1) * c.depth)]
            }
            #expect(try engine.output(2, as: UInt8.self) == joined)
            #expect(try engine.output(3, as: Int16.self) == expectedPre)
        }
    }

    enum Configs {
        static let small = Config(batch: 2, features: 4, depth: 3)
    }

    /// Builds the small config with one change and returns the prepare error.
    static func prepareError(_ edit: (inout GraphBuilder, inout [Int], inout [Int]) -> Void) -> String? {
        let c = Configs.small
        let g = graph(c, Parameters(c, seed: 1), edit: edit)
        return errorDescription {
            let engine = try g.engine()
            try engine.allocate()
        }
    }

    @Test func badOperandsAreTypedPrepareErrors() throws {
        let act = Self.activation, stateQ = Self.stateQ
        func expectError(_ message: String?, _ part: String, _ line: Int = #line) {
            #expect(message?.contains("LSTM") == true, "line \(line): \(message ?? "no error")")
            #expect(message?.contains(part) == true, "line \(line): \(message ?? "no error")")
        }
        #expect(Self.prepareError { _, _, _ in } == nil)
        // Types.
        expectError(
            Self.prepareError { g, ins, _ in ins[0] = g.input([2, 4], .int8, quantization: act) },
            "does not support the types")
        expectError(
            Self.prepareError { g, ins, _ in ins[4] = g.variable([2, 3], .int8, quantization: act) },
            "found UINT8, UINT8, UINT8, INT32, INT8, UINT8")
        expectError(
            Self.prepareError { g, _, outs in outs[3] = g.tensor([2, 12], .uint8, quantization: act) },
            "does not support the types")
        // Shapes.
        expectError(
            Self.prepareError { g, ins, _ in ins[4] = g.variable([2, 4], .int16, quantization: stateQ) },
            "the previous state must have the previous activation's shape [2, 3], found [2, 4]")
        expectError(
            Self.prepareError { g, ins, _ in ins[1] = g.variable([3, 3], .uint8, quantization: act) },
            "the previous activation must be [2, depth]")
        expectError(
            Self.prepareError { g, ins, _ in
                ins[2] = g.constant(
                    [UInt8](repeating: 1, count: 8 * 7), shape: [8, 7], .uint8,
                    quantization: Quantization(scales: [0.01], zeroPoints: [128]))
            }, "the weights must be [4·depth, features + depth] = [12, 7], found shape [8, 7]")
        expectError(
            Self.prepareError { g, ins, _ in ins[3] = g.constant([Int32](repeating: 0, count: 9), shape: [9]) },
            "the bias must be [4·depth] = [12]")
        expectError(
            Self.prepareError { g, ins, _ in ins[0] = g.input([2, 4, 1], .uint8, quantization: act) },
            "the input must be [batch, features]")
        // Quantization the kernel assumes.
        expectError(
            Self.prepareError { g, ins, _ in
                ins[0] = g.input([2, 4], .uint8, quantization: Quantization(scales: [0.01], zeroPoints: [128]))
            }, "the input must be quantized with scale 2^-7 and zero point 128")
        expectError(
            Self.prepareError { g, _, outs in
                outs[1] = g.tensor(
                    [2, 3], .int16, quantization: Quantization(scales: [1.0 / 4096], zeroPoints: [0]))
            }, "the state output must be quantized with scale 2^-11 and zero point 0")
        expectError(
            Self.prepareError { g, ins, _ in ins[3] = g.constant([Int32](repeating: 0, count: 12), shape: [12]) },
            "the bias needs one positive scale")
        expectError(
            Self.prepareError { g, ins, _ in
                ins[3] = g.constant(
                    [Int32](repeating: 0, count: 12), shape: [12], .int32,
                    quantization: Quantization(scales: [0.5], zeroPoints: [0]))
            }, "the gate rescaling multiplier 4096·0.5 is too large")
        // State and outputs.
        expectError(
            Self.prepareError { g, ins, _ in
                ins[4] = g.constant([Int16](repeating: 0, count: 6), shape: [2, 3], .int16, quantization: stateQ)
            }, "cannot be constants")
        expectError(
            Self.prepareError { _, ins, outs in outs[1] = ins[4] },
            "the four outputs must be distinct tensors, none of them an input")
        expectError(
            Self.prepareError { _, ins, _ in ins.removeLast() },
            "expected 5 inputs")
    }

    /// The rescaling rounds its last shift's ties toward +∞, not away from zero as
    /// TFLite's reference `MultiplyByQuantizedMultiplier` does.
    @Test func gateRescaleRoundsTiesUp() throws {
        // 4096 · 2^-13 = 0.5: M = 2^30, e = 0 → y = SRDHM(acc, 2^30) = acc/2 (ties up).
        let half = try GateRescale(biasScale: 1.0 / 8192)
        #expect([-3, -2, -1, 1, 3].map { half.apply($0) } == [-1, -1, 0, 1, 2])
        // 4096 · 2^-15 = 0.125: M = 2^30, e = -2 → SRDHM gives acc/2, then /4 ties up.
        let eighth = try GateRescale(biasScale: 1.0 / 32768)
        #expect([-12, -4, 4, 12, -20].map { eighth.apply($0) } == [-1, 0, 1, 2, -2])
        #expect(FixedPoint.multiplyByQuantizedMultiplier(-12, 1 << 30, -2) == -2)
    }
}
