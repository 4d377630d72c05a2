import Foundation
import TFLiteModel
import Testing

@testable import TFLiteRuntime

/// UNIDIRECTIONAL_SEQUENCE_LSTM against a plain double-precision loop written from the
/// definition (spec/sequence-ops.md), at every kernel level, with odd sizes; state kept
/// across invokes and reset; the integer gate functions; prepare errors.
@Suite struct LSTMTests {
    struct Config {
        var nInput = 5, nCell = 7, nOutput = 7, batch = 3, time = 4
        var cifg = false, peephole = false, layerNorm = false, projection = false
        var cellClip: Float = 0, projClip: Float = 0
        var timeMajor = false
    }

    /// Weights by name, generated from a seed.
    struct Weights {
        var wx: [[Float]] = [], wh: [[Float]] = [], bias: [[Float]] = [], peep: [[Float]] = [], ln: [[Float]] = []
        var proj: [Float] = [], projBias: [Float] = []

        init(_ c: Config, seed: UInt64) {
            var r = TestRandom(seed: seed)
            for _ in 0 ..< 4 {
                wx.append(r.floats(c.nCell * c.nInput, -0.5 ... 0.5))
                wh.append(r.floats(c.nCell * c.nOutput, -0.5 ... 0.5))
                bias.append(r.floats(c.nCell, -0.3 ... 0.3))
                peep.append(r.floats(c.nCell, -0.5 ... 0.5))
                ln.append(r.floats(c.nCell, 0.5 ... 1.5))
            }
            proj = r.floats(c.nOutput * c.nCell, -0.5 ... 0.5)
            projBias = r.floats(c.nOutput, -0.2 ... 0.2)
        }
    }

    static func graph(_ c: Config, _ w: Weights) -> GraphBuilder {
        var g = GraphBuilder()
        let inShape = c.timeMajor ? [c.time, c.batch, c.nInput] : [c.batch, c.time, c.nInput]
        let x = g.input(inShape, .float32)
        var ins = [x] + [Int](repeating: -1, count: 23)
        for gate in 0 ..< 4 where !(c.cifg && gate == 0) {
            ins[1 + gate] = g.constant(w.wx[gate], shape: [c.nCell, c.nInput])
            ins[5 + gate] = g.constant(w.wh[gate], shape: [c.nCell, c.nOutput])
            ins[12 + gate] = g.constant(w.bias[gate], shape: [c.nCell])
            if c.layerNorm { ins[20 + gate] = g.constant(w.ln[gate], shape: [c.nCell]) }
        }
        if c.peephole {
            for (k, gate) in [0, 1, 3].enumerated() where !(c.cifg && gate == 0) {
                ins[9 + k] = g.constant(w.peep[gate], shape: [c.nCell])
            }
        }
        if c.projection {
            ins[16] = g.constant(w.proj, shape: [c.nOutput, c.nCell])
            ins[17] = g.constant(w.projBias, shape: [c.nOutput])
        }
        ins[18] = g.variable([c.batch, c.nOutput], .float32)
        ins[19] = g.variable([c.batch, c.nCell], .float32)
        let y = g.tensor(Array(inShape.dropLast()) + [c.nOutput], .float32)
        g.op(
            .unidirectionalSequenceLstm, inputs: ins, outputs: [y],
            options: .unidirectionalSequenceLSTM(
                LSTMOptions(activation: .tanh, cellClip: c.cellClip, projClip: c.projClip, timeMajor: c.timeMajor)))
        g.output(y)
        return g
    }

    /// The definition, in Double, carrying `h`/`c` across calls.
    static func reference(
        _ c: Config, _ w: Weights, _ x: [Float], h: inout [Double], cell: inout [Double]
    ) -> [Float] {
        func sigmoid(_ v: Double) -> Double { 1 / (1 + exp(-v)) }
        var out = [Float](repeating: 0, count: c.batch * c.time * c.nOutput)
        for t in 0 ..< c.time {
            for b in 0 ..< c.batch {
                let row = c.timeMajor ? t * c.batch + b : b * c.time + t
                var pre = [[Double]](repeating: [Double](repeating: 0, count: c.nCell), count: 4)
                for gate in 0 ..< 4 where !(c.cifg && gate == 0) {
                    for j in 0 ..< c.nCell {
                        var s = 0.0
                        for k in 0 ..< c.nInput {
                            s += Double(w.wx[gate][j * c.nInput + k]) * Double(x[row * c.nInput + k])
                        }
                        for k in 0 ..< c.nOutput { s += Double(w.wh[gate][j * c.nOutput + k]) * h[b * c.nOutput + k] }
                        pre[gate][j] = s
                    }
                }
                func finish(_ gate: Int, cellState: [Double]) -> [Double] {
                    var v = pre[gate]
                    if c.peephole && gate != 2 {
                        for j in 0 ..< c.nCell { v[j] += Double(w.peep[gate][j]) * cellState[j] }
                    }
                    if c.layerNorm {
                        let mean = v.reduce(0, +) / Double(c.nCell)
                        let variance = v.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(c.nCell)
                        for j in 0 ..< c.nCell {
                            v[j] =
                                (v[j] - mean) / (variance + 1e-8).squareRoot() * Double(w.ln[gate][j])
                                + Double(w.bias[gate][j])
                        }
                    } else {
                        for j in 0 ..< c.nCell { v[j] += Double(w.bias[gate][j]) }
                    }
                    return v
                }
                let old = Array(cell[(b * c.nCell) ..< ((b + 1) * c.nCell)])
                let f = finish(1, cellState: old).map(sigmoid)
                let i = c.cifg ? f.map { 1 - $0 } : finish(0, cellState: old).map(sigmoid)
                let gg = finish(2, cellState: old).map { tanh($0) }
                var newCell = (0 ..< c.nCell).map { f[$0] * old[$0] + i[$0] * gg[$0] }
                if c.cellClip > 0 { newCell = newCell.map { min(max($0, -Double(c.cellClip)), Double(c.cellClip)) } }
                let o = finish(3, cellState: newCell).map(sigmoid)
                let hidden = (0 ..< c.nCell).map { o[$0] * tanh(newCell[$0]) }
                var newH = hidden
                if c.projection {
                    newH = (0 ..< c.nOutput).map { r in
                        var s = Double(w.projBias[r])
                        for k in 0 ..< c.nCell { s += Double(w.proj[r * c.nCell + k]) * hidden[k] }
                        return c.projClip > 0 ? min(max(s, -Double(c.projClip)), Double(c.projClip)) : s
                    }
                }
                for j in 0 ..< c.nCell { cell[b * c.nCell + j] = newCell[j] }
                for k in 0 ..< c.nOutput {
                    h[b * c.nOutput + k] = newH[k]
                    out[row * c.nOutput + k] = Float(newH[k])
                }
            }
        }
        return out
    }

    static let configs: [Config] = [
        Config(),
        Config(cifg: true, peephole: true),
        Config(nOutput: 4, peephole: true, layerNorm: true, projection: true, cellClip: 0.6, projClip: 0.4),
        Config(nInput: 9, nCell: 13, nOutput: 13, batch: 1, time: 6, layerNorm: true, timeMajor: true),
        Config(nInput: 3, nCell: 33, nOutput: 5, batch: 6, time: 3, cifg: true, projection: true, timeMajor: true),
    ]

    @Test(arguments: QTest.levels)
    func floatMatchesDefinitionAcrossInvokes(_ level: KernelLevel) throws {
        for (n, c) in Self.configs.enumerated() {
            let w = Weights(c, seed: UInt64(n + 1))
            let engine = try Self.graph(c, w).engine(level: level)
            try engine.allocate()
            var h = [Double](repeating: 0, count: c.batch * c.nOutput)
            var cell = [Double](repeating: 0, count: c.batch * c.nCell)
            var r = TestRandom(seed: UInt64(100 + n))
            for invoke in 0 ..< 3 {
                let x = r.floats(c.batch * c.time * c.nInput, -1 ... 1)
                if invoke == 2 {
                    // A reset returns the states to zero, as allocate() leaves them.
                    engine.resetVariableTensors()
                    h = h.map { _ in 0 }
                    cell = cell.map { _ in 0 }
                }
                try engine.setInput(0, x)
                try engine.invoke()
                let expected = Self.reference(c, w, x, h: &h, cell: &cell)
                expectClose(try engine.output(0, as: Float.self), expected, "config \(n) invoke \(invoke) at \(level)")
            }
        }
    }

    /// gemmlowp's 16-bit approximations are within a few 2^-12 of the functions (their exact
    /// codes are checked against LiteRT by the conformance corpus).
    @Test func integerGateFunctionsFollowTheirDefinitions() {
        #expect(LSTMInt16Math.logistic(0, integerBits: 3) == 16384)
        #expect(LSTMInt16Math.tanh(0, integerBits: 3) == 0)
        for raw in stride(from: -32768, through: 32767, by: 7) {
            let x = Double(raw) / 4096 // Q3
            let s = Double(LSTMInt16Math.logistic(Int32(raw), integerBits: 3)) / 32768
            let t = Double(LSTMInt16Math.tanh(Int32(raw), integerBits: 3)) / 32768
            #expect(abs(s - 1 / (1 + exp(-x))) < 5e-4, "logistic(\(x))")
            #expect(abs(t - tanh(x)) < 5e-4, "tanh(\(x))")
            // The cell's tanh with 4 integer bits (cell scale 2^-11).
            let t4 = Double(LSTMInt16Math.tanh(Int32(raw), integerBits: 4)) / 32768
            #expect(abs(t4 - tanh(Double(raw) / 2048)) < 5e-4, "tanh4(\(raw))")
        }
    }

    @Test func floatGateMathIsAccurate() {
        // Non-finite inputs pass through without trapping.
        #expect(LSTMFloatMath.sigmoid(.nan).isNaN)
        #expect(LSTMFloatMath.tanh(.infinity) == 1 && LSTMFloatMath.tanh(-.infinity) == -1)
        #expect(LSTMFloatMath.sigmoid(-.infinity) == 0 || LSTMFloatMath.sigmoid(-.infinity) < 1e-37)
        for i in -2000 ... 2000 {
            let x = Float(i) / 100
            #expect(abs(LSTMFloatMath.sigmoid(x) - Float(1 / (1 + exp(-Double(x))))) < 3e-7)
            #expect(abs(LSTMFloatMath.tanh(x) - Float(tanh(Double(x)))) < 3e-7)
        }
    }

    /// Builds the default config with one change and returns the prepare error.
    static func prepareError(_ edit: (inout GraphBuilder, inout [Int]) -> Void) -> String? {
        let c = Config()
        let w = Weights(c, seed: 1)
        var g = graph(c, w)
        var ops = g.operators[0].inputs
        edit(&g, &ops)
        g.replaceInputs(of: 0, with: ops)
        return errorDescription {
            let engine = try g.engine()
            try engine.allocate()
        }
    }

    @Test func badOperandsAreTypedPrepareErrors() throws {
        let wrongState = Self.prepareError { g, ins in ins[19] = g.variable([3, 6], .float32) }
        #expect(wrongState?.contains("UNIDIRECTIONAL_SEQUENCE_LSTM") == true)
        #expect(wrongState?.contains("cell state has shape [3, 6]") == true)
        let notVariable = Self.prepareError { g, ins in ins[18] = g.tensor([3, 7], .float32) }
        #expect(notVariable?.contains("must be variable tensors") == true)
        let missing = Self.prepareError { _, ins in ins[2] = -1 }
        #expect(missing?.contains("input-to-forget weights (input 2) is missing") == true)
        let halfCifg = Self.prepareError { _, ins in ins[5] = -1 }
        #expect(halfCifg?.contains("both be present or both absent") == true)
        let badBias = Self.prepareError { g, ins in ins[13] = g.constant([Float](repeating: 0, count: 6), shape: [6]) }
        #expect(badBias?.contains("forget gate bias: shape [6], expected [7]") == true)
        let onePeephole = Self.prepareError { g, ins in
            ins[10] = g.constant([Float](repeating: 0, count: 7), shape: [7])
        }
        #expect(onePeephole?.contains("all present or all absent") == true)
        let projectionBiasAlone = Self.prepareError { g, ins in
            ins[17] = g.constant([Float](repeating: 0, count: 7), shape: [7])
        }
        #expect(projectionBiasAlone?.contains("projection bias needs projection weights") == true)
        let fewInputs = Self.prepareError { _, ins in ins.removeLast(5) }
        #expect(fewInputs?.contains("expected 20 or 24 inputs, found 19") == true)
    }

    @Test func integerLSTMWithoutIntermediatesIsRejected() throws {
        var g = GraphBuilder()
        let q = Quantization(scales: [0.01], zeroPoints: [0])
        let x = g.input([1, 2, 3], .int8, quantization: q)
        var ins = [x] + [Int](repeating: -1, count: 23)
        for gate in 0 ..< 4 {
            ins[1 + gate] = g.constant([Int8](repeating: 1, count: 12), shape: [4, 3], .int8, quantization: q)
            ins[5 + gate] = g.constant([Int8](repeating: 1, count: 16), shape: [4, 4], .int8, quantization: q)
            ins[12 + gate] = g.constant([Int32](repeating: 0, count: 4), shape: [4])
        }
        ins[18] = g.variable([1, 4], .int8, quantization: q)
        ins[19] = g.variable([1, 4], .int16, quantization: Quantization(scales: [1.0 / 2048], zeroPoints: [0]))
        let y = g.tensor([1, 2, 4], .int8, quantization: q)
        g.op(
            .unidirectionalSequenceLstm, inputs: ins, outputs: [y],
            options: .unidirectionalSequenceLSTM(LSTMOptions(activation: .tanh)))
        g.output(y)
        let message = errorDescription {
            let engine = try g.engine()
            try engine.allocate()
        }
        #expect(message?.contains("needs 5 intermediate tensors") == true)
    }
}
