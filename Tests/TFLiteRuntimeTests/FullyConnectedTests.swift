import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct FullyConnectedTests {
    /// `y[b, o] = act(bias[o] + Σ_i x[b, i] · w[o, i])` by direct loops.
    func reference(x: [Float], w: [Float], bias: [Float]?, units: Int, depth: Int, activation: FusedActivation)
        -> [Float]
    {
        let batch = x.count / depth
        var out: [Float] = []
        for b in 0 ..< batch {
            for o in 0 ..< units {
                var acc: Float = 0
                for i in 0 ..< depth { acc += x[b * depth + i] * w[o * depth + i] }
                out.append(referenceClamp(acc + (bias?[o] ?? 0), activation))
            }
        }
        return out
    }

    func check(
        input: [Int], units: Int, depth: Int, bias: Bool = true, activation: FusedActivation = .none,
        keepNumDims: Bool = false, constantWeights: Bool = true, expectedShape: [Int], seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let x = seededFloats(input.reduce(1, *), seed: seed)
        let w = seededFloats(units * depth, seed: seed + 1)
        let b = bias ? seededFloats(units, seed: seed + 2) : nil
        let got = try runFloatGraph(constantWeights ? [x] : [x, w]) { g in
            let xi = g.input(input, .float32)
            let wi = constantWeights ? g.constant(w, shape: [units, depth]) : g.input([units, depth], .float32)
            let bi = b.map { g.constant($0, shape: [units]) } ?? -1
            let y = g.tensor([1], .float32)
            g.op(
                .fullyConnected, inputs: [xi, wi, bi], outputs: [y],
                options: .fullyConnected(FullyConnectedOptions(activation: activation, keepNumDims: keepNumDims)))
            g.output(y)
        }
        #expect(got.shape == expectedShape, sourceLocation: sourceLocation)
        expectClose(
            got.values, reference(x: x, w: w, bias: b, units: units, depth: depth, activation: activation),
            "input \(input) units \(units)", sourceLocation: sourceLocation)
    }

    @Test func flattensTheInputToRows() throws {
        try check(input: [3, 10], units: 7, depth: 10, activation: .relu, expectedShape: [3, 7], seed: 1)
        // 24 values = 4 rows of 6
        try check(input: [2, 3, 4], units: 5, depth: 6, bias: false, expectedShape: [4, 5], seed: 2)
        try check(input: [12], units: 3, depth: 12, activation: .relu6, expectedShape: [1, 3], seed: 3)
    }

    @Test func keepNumDims() throws {
        try check(input: [2, 3, 8], units: 5, depth: 8, keepNumDims: true, expectedShape: [2, 3, 5], seed: 10)
        try check(input: [8], units: 2, depth: 8, keepNumDims: true, expectedShape: [2], seed: 11)
    }

    @Test func tiledOverRowsAndOverColumns() throws {
        // Row tiles.
        try check(input: [150, 33], units: 70, depth: 33, activation: .reluN1To1, expectedShape: [150, 70], seed: 20)
        try check(input: [1, 200], units: 300, depth: 200, expectedShape: [1, 300], seed: 21) // column tiles
    }

    /// Constant weights at batch 1-4 are repacked in blocks of four rows; computed ones are
    /// read as stored. Both do the same operations, so the outputs are equal bit for bit
    /// (and `runFloatGraph` checks 1 against 2 threads, which split the outputs).
    @Test func packedWeightsGiveTheSameBitsAsComputedOnes() throws {
        for (batch, units, depth) in [(1, 1000, 1280), (3, 7, 13), (4, 130, 64)] {
            let x = seededFloats(batch * depth, seed: 40), w = seededFloats(units * depth, seed: 41)
            let b = seededFloats(units, seed: 42)
            var outputs: [[Float]] = []
            for constant in [true, false] {
                outputs.append(
                    try runFloatGraph(constant ? [x] : [x, w]) { g in
                        let xi = g.input([batch, depth], .float32)
                        let wi = constant ? g.constant(w, shape: [units, depth]) : g.input([units, depth], .float32)
                        let y = g.tensor([1], .float32)
                        g.op(
                            .fullyConnected, inputs: [xi, wi, g.constant(b, shape: [units])], outputs: [y],
                            options: .fullyConnected(FullyConnectedOptions(activation: .relu6)))
                        g.output(y)
                    }.values)
            }
            #expect(
                outputs[0].map(\.bitPattern) == outputs[1].map(\.bitPattern),
                "batch \(batch) units \(units) depth \(depth)")
        }
    }

    @Test func weightsComputedAtRunTime() throws {
        try check(input: [4, 9], units: 6, depth: 9, constantWeights: false, expectedShape: [4, 6], seed: 30)
    }

    @Test func absentOptionsMeanDefaults() throws {
        let x: [Float] = [1, 2, -3, 4]
        let got = try runFloatGraph([x]) { g in
            let xi = g.input([2, 2], .float32)
            let wi = g.constant([1, 1, 2, -1] as [Float], shape: [2, 2])
            let y = g.tensor([1], .float32)
            g.op(.fullyConnected, inputs: [xi, wi], outputs: [y])
            g.output(y)
        }
        #expect(got.shape == [2, 2])
        #expect(got.values == [3, 0, 1, -10])
    }

    func graph(
        input: [Int] = [2, 6], weights: [Int] = [4, 6], bias: Int? = 4, type: ElementType = .float32,
        options: FullyConnectedOptions = FullyConnectedOptions(activation: .none)
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(input, type)
        let w = g.constant([Float](repeating: 0, count: weights.reduce(1, *)), shape: weights)
        let b = bias.map { g.constant([Float](repeating: 0, count: $0), shape: [$0]) } ?? -1
        let y = g.tensor([1], type)
        g.op(.fullyConnected, inputs: [x, w, b], outputs: [y], options: .fullyConnected(options))
        g.output(y)
        return g
    }

    @Test func prepareRejectsBadOperators() {
        expectInvalid(graph(weights: [4, 6, 1]), "weights must have rank 2")
        expectInvalid(graph(input: [2, 5]), "not a whole number of rows")
        expectInvalid(graph(weights: [4, 0]), "no input dimension")
        expectInvalid(graph(bias: 5), "bias has shape [5]")
        expectInvalid(graph(options: FullyConnectedOptions(activation: .none, weightsFormat: 1)), "weights format 1")
        expectInvalid(
            graph(
                input: [3, 4], weights: [4, 6], options: FullyConnectedOptions(activation: .none, keepNumDims: true)),
            "keep_num_dims")
        expectInvalid(graph(options: FullyConnectedOptions(activation: .tanh)), "TANH")
        expectUnsupportedTypes(graph(type: .int8))
    }
}
