import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// BIDIRECTIONAL_SEQUENCE_RNN against plain loops: merged and separate outputs, both
/// layouts, and the aux input's two uses (a second input of both cells with aux weights;
/// without them, the backward cell's input in time-major layout, unused in batch-major
/// layout, as LiteRT's loops read it).
@Suite struct BidirectionalRNNTests {
    typealias Reference = RecurrentReference

    enum Aux: CustomStringConvertible {
        case none, cross(Int), backward
        var description: String {
            switch self {
            case .none: "no aux"
            case .cross(let n): "aux weights (\(n))"
            case .backward: "aux input without weights"
            }
        }
    }

    struct Case {
        var time: Int, batch: Int, input: Int, fw: Int, bw: Int
        var timeMajor: Bool, merge: Bool, aux: Aux, activation: FusedActivation
    }

    static func cell(units: Int, input: Int, aux: Int, seed: UInt64) -> Reference.Cell {
        var c = Reference.Cell(
            w: seededFloats(units * input, seed: seed).map { $0 / Float(input).squareRoot() },
            r: seededFloats(units * units, seed: seed + 1).map { $0 * 0.8 / Float(units).squareRoot() },
            b: seededFloats(units, seed: seed + 2).map { $0 * 0.4 }, units: units, input: input)
        if aux > 0 {
            c.aux = seededFloats(units * aux, seed: seed + 3).map { $0 / Float(aux).squareRoot() }
            c.auxSize = aux
        }
        return c
    }

    @Test(arguments: QTest.levels)
    func matchesNaiveLoops(level: KernelLevel) throws {
        let cases = [
            Case(
                time: 4, batch: 2, input: 5, fw: 6, bw: 7, timeMajor: true, merge: true, aux: .none, activation: .tanh),
            Case(
                time: 5, batch: 3, input: 6, fw: 66, bw: 5, timeMajor: false, merge: false, aux: .none,
                activation: .relu),
            Case(
                time: 3, batch: 5, input: 5, fw: 6, bw: 6, timeMajor: false, merge: true, aux: .cross(3),
                activation: .tanh),
            Case(
                time: 3, batch: 2, input: 4, fw: 5, bw: 9, timeMajor: true, merge: false, aux: .cross(4),
                activation: .tanh),
            Case(
                time: 4, batch: 2, input: 5, fw: 6, bw: 4, timeMajor: true, merge: false, aux: .backward,
                activation: .reluN1To1),
            Case(
                time: 4, batch: 2, input: 5, fw: 6, bw: 4, timeMajor: false, merge: true, aux: .backward,
                activation: .tanh),
        ]
        for (n, c) in cases.enumerated() {
            try check(c, seed: UInt64(40 * n), level: level)
        }
    }

    func check(_ c: Case, seed: UInt64, level: KernelLevel) throws {
        let auxSize: Int
        switch c.aux {
        case .none: auxSize = 0
        case .cross(let n): auxSize = n
        case .backward: auxSize = c.input
        }
        let crossSize = if case .cross(let n) = c.aux { n } else { 0 }
        let fw = Self.cell(units: c.fw, input: c.input, aux: crossSize, seed: seed)
        let bw = Self.cell(units: c.bw, input: c.input, aux: crossSize, seed: seed + 10)
        func shape(_ f: Int) -> [Int] { c.timeMajor ? [c.time, c.batch, f] : [c.batch, c.time, f] }
        var g = GraphBuilder()
        let x = g.input(shape(c.input), .float32)
        let a = auxSize > 0 ? g.input(shape(auxSize), .float32) : -1
        var ins = [x]
        var auxWeights: [Int] = []
        for cell in [fw, bw] {
            ins.append(g.constant(cell.w, shape: [cell.units, c.input]))
            ins.append(g.constant(cell.r, shape: [cell.units, cell.units]))
            ins.append(g.constant(cell.b, shape: [cell.units]))
            ins.append(g.variable([c.batch, cell.units], .float32))
            if let aw = cell.aux { auxWeights.append(g.constant(aw, shape: [cell.units, crossSize])) }
        }
        ins.append(a)
        ins += auxWeights.isEmpty ? [-1, -1] : auxWeights
        let outs =
            c.merge
            ? [g.tensor(shape(c.fw + c.bw), .float32)]
            : [g.tensor(shape(c.fw), .float32), g.tensor(shape(c.bw), .float32)]
        g.op(
            .bidirectionalSequenceRnn, inputs: ins, outputs: outs,
            options: .bidirectionalSequenceRNN(
                BidirectionalSequenceRNNOptions(timeMajor: c.timeMajor, activation: c.activation, mergeOutputs: c.merge)
            ))
        for o in outs { g.output(o) }
        let engine = try g.engine(threads: 2, level: level)
        try engine.allocate()
        var fwStates = [[Float]](repeating: [Float](repeating: 0, count: c.fw), count: c.batch)
        var bwStates = [[Float]](repeating: [Float](repeating: 0, count: c.bw), count: c.batch)
        func at(_ t: Int, _ b: Int, _ f: Int, _ width: Int) -> Int {
            RecurrentTests.at(t, b, f, time: c.time, batch: c.batch, width: width, timeMajor: c.timeMajor)
        }
        for invoke in 0 ..< 2 {
            let xs = seededFloats(c.time * c.batch * c.input, seed: seed + UInt64(100 + invoke))
            let auxs = seededFloats(c.time * c.batch * auxSize, seed: seed + UInt64(200 + invoke))
            try engine.setInput(0, xs)
            if auxSize > 0 { try engine.setInput(1, auxs) }
            try engine.invoke()
            let width = c.merge ? c.fw + c.bw : c.fw
            var wantFw = [Float](repeating: 0, count: c.time * c.batch * width)
            var wantBw = [Float](repeating: 0, count: c.time * c.batch * c.bw)
            func row(_ v: [Float], _ t: Int, _ b: Int, _ n: Int) -> [Float] { (0 ..< n).map { v[at(t, b, $0, n)] } }
            for b in 0 ..< c.batch {
                for t in 0 ..< c.time {
                    let y = fw.step(
                        x: row(xs, t, b, c.input)[...], a: crossSize > 0 ? row(auxs, t, b, auxSize)[...] : nil,
                        h: &fwStates[b], c.activation)
                    for o in 0 ..< c.fw { wantFw[at(t, b, o, width)] = y[o] }
                }
                for t in stride(from: c.time - 1, through: 0, by: -1) {
                    let backwardFromAux = if case .backward = c.aux { c.timeMajor } else { false }
                    let source = backwardFromAux ? row(auxs, t, b, auxSize) : row(xs, t, b, c.input)
                    let y = bw.step(
                        x: source[...], a: crossSize > 0 ? row(auxs, t, b, auxSize)[...] : nil, h: &bwStates[b],
                        c.activation)
                    for o in 0 ..< c.bw {
                        if c.merge {
                            wantFw[at(t, b, c.fw + o, width)] = y[o]
                        } else {
                            wantBw[at(t, b, o, c.bw)] = y[o]
                        }
                    }
                }
            }
            let what =
                "T\(c.time) B\(c.batch) \(c.timeMajor ? "time" : "batch")-major \(c.aux) \(level) invoke \(invoke)"
            expectClose(try engine.output(0, as: Float.self), wantFw, what)
            if !c.merge { expectClose(try engine.output(1, as: Float.self), wantBw, what) }
        }
    }
}
