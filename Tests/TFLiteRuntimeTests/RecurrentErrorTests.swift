import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Malformed recurrent and SVDF operators fail at engine creation with typed errors that
/// name the operator, never at invoke.
@Suite struct RecurrentErrorTests {
    /// An RNN graph with each operand overridable.
    static func rnn(
        input: [Int] = [2, 3], inputType: ElementType = .float32, weights: [Int] = [4, 3], recurrent: [Int] = [4, 4],
        bias: [Int] = [4], state: [Int] = [2, 4], stateIsVariable: Bool = true, weightType: ElementType = .float32,
        weightQuantization: Quantization? = nil, recurrentType: ElementType? = nil, biasAbsent: Bool = false,
        stateIsOutput: Bool = false
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(input, inputType)
        func constant(_ shape: [Int], _ type: ElementType) -> Int {
            let count = shape.reduce(1, *)
            switch type {
            case .int8, .uint8:
                return g.constant(
                    [Int8](repeating: 1, count: count), shape: shape, type,
                    quantization: weightQuantization ?? QTest.quantization([0.1], [0]))
            default: return g.constant([Float](repeating: 0.1, count: count), shape: shape)
            }
        }
        let w = constant(weights, weightType)
        let r = constant(recurrent, recurrentType ?? weightType)
        let b = biasAbsent ? -1 : constant(bias, .float32)
        let h = stateIsVariable ? g.variable(state, .float32) : g.input(state, .float32)
        let y = stateIsOutput ? h : g.tensor([input.first ?? 1, weights.first ?? 1], .float32)
        g.op(.rnn, inputs: [x, w, r, b, h], outputs: [y], options: .rnn(RNNOptions(activation: .tanh)))
        g.output(y)
        return g
    }

    @Test func rnnErrors() {
        expectInvalid(Self.rnn(state: [2, 5]), "hidden state must be [2, 4]")
        expectInvalid(Self.rnn(state: [2, 4, 1]), "hidden state must be [2, 4]")
        expectInvalid(Self.rnn(stateIsVariable: false), "must be a variable tensor")
        expectInvalid(Self.rnn(input: [2, 3, 1]), "input must have rank 2")
        expectInvalid(Self.rnn(weights: [4, 5]), "do not match the input size 3")
        expectInvalid(Self.rnn(recurrent: [4, 3]), "recurrent weights must be [4, 4]")
        expectInvalid(Self.rnn(bias: [3]), "bias must be [4]")
        expectInvalid(Self.rnn(biasAbsent: true), "input 3 is missing")
        expectInvalid(Self.rnn(stateIsOutput: true), "also another operand or an output")
        expectUnsupportedTypes(Self.rnn(inputType: .int8))
        expectUnsupportedTypes(Self.rnn(weightType: .uint8))
        expectUnsupportedTypes(Self.rnn(weightType: .int8, recurrentType: .float32))
        expectInvalid(
            Self.rnn(
                weightType: .int8,
                weightQuantization: QTest.quantization([0.1, 0.2, 0.1, 0.3], [0, 0, 0, 0])),
            "quantized per tensor")
        expectInvalid(
            Self.rnn(weightType: .int8, weightQuantization: QTest.quantization([0.1], [4])), "zero points 0")
        // The error names the operator.
        guard case .invalidOperator(0, "RNN", _)? = prepareFailure(Self.rnn(state: [1, 4])) else {
            Issue.record("expected an invalidOperator error naming RNN")
            return
        }
    }

    @Test func sequenceErrors() {
        var g = GraphBuilder()
        let x = g.input([3, 4], .float32)
        let w = g.constant([Float](repeating: 0, count: 8), shape: [2, 4])
        let r = g.constant([Float](repeating: 0, count: 4), shape: [2, 2])
        let b = g.constant([Float](repeating: 0, count: 2), shape: [2])
        let h = g.variable([3, 2], .float32)
        let y = g.tensor([3, 2], .float32)
        g.op(
            .unidirectionalSequenceRnn, inputs: [x, w, r, b, h], outputs: [y],
            options: .sequenceRNN(SequenceRNNOptions(timeMajor: false, activation: .tanh)))
        g.output(y)
        expectInvalid(g, "input must have rank 3")
    }

    /// A BIDIRECTIONAL_SEQUENCE_RNN over `[2, 3, 4]` with units 5 (forward) and 6 (backward).
    static func bidirectional(
        timeMajor: Bool = false, merge: Bool = false, outputs: Int? = nil, aux: [Int]? = nil,
        fwAux: [Int]? = nil, bwAux: [Int]? = nil, hybrid: Bool = false, bwState: [Int]? = nil
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input([2, 3, 4], .float32)
        let batch = timeMajor ? 3 : 2
        func weights(_ shape: [Int]) -> Int {
            let n = shape.reduce(1, *)
            return hybrid
                ? g.constant(
                    [Int8](repeating: 1, count: n), shape: shape, .int8, quantization: QTest.quantization([0.1], [0]))
                : g.constant([Float](repeating: 0.1, count: n), shape: shape)
        }
        var ins = [x]
        for (units, state) in [(5, [batch, 5]), (6, bwState ?? [batch, 6])] {
            ins += [
                weights([units, 4]), weights([units, units]),
                g.constant([Float](repeating: 0, count: units), shape: [units]),
                g.variable(state, .float32),
            ]
        }
        ins.append(aux.map { g.input($0, .float32) } ?? -1)
        ins.append(fwAux.map { weights($0) } ?? -1)
        ins.append(bwAux.map { weights($0) } ?? -1)
        let outs = (0 ..< (outputs ?? (merge ? 1 : 2))).map { _ in g.tensor([1], .float32) }
        g.op(
            .bidirectionalSequenceRnn, inputs: ins, outputs: outs,
            options: .bidirectionalSequenceRNN(
                BidirectionalSequenceRNNOptions(timeMajor: timeMajor, activation: .tanh, mergeOutputs: merge)))
        for o in outs { g.output(o) }
        return g
    }

    @Test func bidirectionalErrors() {
        #expect(prepareFailure(Self.bidirectional()) == nil)
        #expect(prepareFailure(Self.bidirectional(aux: [2, 3, 7], fwAux: [5, 7], bwAux: [6, 7])) == nil)
        expectInvalid(Self.bidirectional(merge: true, outputs: 2), "expected 1 outputs, found 2")
        expectInvalid(Self.bidirectional(fwAux: [5, 4]), "both be given or both be absent")
        expectInvalid(Self.bidirectional(fwAux: [5, 4], bwAux: [6, 4]), "without an aux input")
        expectInvalid(Self.bidirectional(aux: [2, 4, 4], fwAux: [5, 4], bwAux: [6, 4]), "must be [2, 3, n]")
        expectInvalid(
            Self.bidirectional(aux: [2, 3, 7], fwAux: [5, 6], bwAux: [6, 7]), "aux input weights must be [5, 7]")
        expectInvalid(
            Self.bidirectional(timeMajor: true, aux: [2, 3, 7], fwAux: [5, 7], bwAux: [6, 7]),
            "LiteRT reads it with the input's row length")
        expectInvalid(
            Self.bidirectional(aux: [2, 3, 7], fwAux: [5, 7], bwAux: [6, 7], hybrid: true),
            "LiteRT reads it with the input's row length")
        expectInvalid(Self.bidirectional(timeMajor: true, aux: [2, 3, 5]), "must have the input's shape")
        expectInvalid(Self.bidirectional(bwState: [2, 5]), "backward hidden state must be [2, 6]")
    }

    static func svdf(
        rank: Int = 2, feature: [Int] = [6, 4], time: [Int] = [6, 3], state: [Int] = [2, 18],
        types: (input: ElementType, feature: ElementType, time: ElementType, state: ElementType, output: ElementType) =
            (
                .float32, .float32, .float32, .float32, .float32
            ),
        activation: FusedActivation = .relu, weightZeroPoint: Int = 0
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let q = QTest.quantization([0.05], [0])
        func tensor(_ shape: [Int], _ type: ElementType, zero: Int = 0) -> Int {
            let n = shape.reduce(1, *)
            switch type {
            case .int8:
                return g.constant(
                    [Int8](repeating: 1, count: n), shape: shape, .int8,
                    quantization: QTest.quantization([0.05], [zero]))
            case .int16:
                return g.constant([Int16](repeating: 1, count: n), shape: shape, .int16, quantization: q)
            default: return g.constant([Float](repeating: 0.1, count: n), shape: shape)
            }
        }
        let x = g.input([2, 4], types.input, quantization: types.input == .int8 ? q : nil)
        let f = tensor(feature, types.feature, zero: weightZeroPoint)
        let t = tensor(time, types.time)
        let s = g.variable(state, types.state, quantization: types.state == .int16 ? q : nil)
        let y = g.tensor([2, 3], types.output, quantization: types.output == .int8 ? q : nil)
        g.op(
            .svdf, inputs: [x, f, t, -1, s], outputs: [y],
            options: .svdf(SVDFOptions(rank: rank, activation: activation)))
        g.output(y)
        return g
    }

    @Test func svdfErrors() {
        #expect(prepareFailure(Self.svdf()) == nil)
        let integer: (ElementType, ElementType, ElementType, ElementType, ElementType) = (
            .int8, .int8, .int16, .int16, .int8
        )
        #expect(prepareFailure(Self.svdf(types: integer)) == nil)
        expectInvalid(Self.svdf(rank: 0), "rank must be at least 1")
        expectInvalid(Self.svdf(rank: 4), "rank 4 does not divide the 6 feature filters")
        expectInvalid(Self.svdf(feature: [6, 5]), "feature weights must be [filters, 4]")
        expectInvalid(Self.svdf(time: [5, 3]), "time weights must be [6, memory]")
        expectInvalid(Self.svdf(time: [6, 0], state: [2, 0]), "memory at least 1")
        expectInvalid(Self.svdf(state: [2, 17]), "state must be [2, 18]")
        expectInvalid(Self.svdf(state: [18]), "state must be [2, 18]")
        expectInvalid(Self.svdf(types: integer, activation: .tanh), "RELU activation only")
        expectInvalid(Self.svdf(types: integer, weightZeroPoint: 3), "zero point 0")
        expectUnsupportedTypes(Self.svdf(types: (.int8, .int8, .int8, .int16, .int8)))
        expectUnsupportedTypes(Self.svdf(types: (.float32, .float32, .float32, .int16, .float32)))
        expectUnsupportedTypes(Self.svdf(types: (.float32, .int8, .float32, .float32, .float32)))
        expectUnsupportedTypes(Self.svdf(types: (.uint8, .uint8, .int16, .int16, .uint8)))
        guard case .invalidOperator(0, "SVDF", _)? = prepareFailure(Self.svdf(rank: 5)) else {
            Issue.record("expected an invalidOperator error naming SVDF")
            return
        }
    }
}
