import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// The input pattern of `scripts/fixtures/conv_goldens.py`: element `i` is
/// `((i * 37 + k) % 19 - 9) / 8`, exact in Float, so TensorFlow and the tests see the same data.
func goldenPattern(_ count: Int, _ k: Int) -> [Float] {
    (0 ..< count).map { Float(((($0 * 37 + k) % 19) - 9)) / 8 }
}

/// `count` floats uniform in [-1, 1) from a seeded generator.
func seededFloats(_ count: Int, seed: UInt64) -> [Float] {
    var rng = SplitMix64(seed: seed)
    return (0 ..< count).map { _ in Float(rng.next() >> 40) / Float(1 << 23) - 1 }
}

/// Float tolerance of kernel tests: `max|got - ref| ≤ 1e-5 · max(1, max|ref|)`.
func expectClose(_ got: [Float], _ ref: [Float], _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation)
{
    guard got.count == ref.count else {
        Issue.record("\(what): got \(got.count) values, expected \(ref.count)", sourceLocation: sourceLocation)
        return
    }
    let scale = Swift.max(1, ref.map { abs($0) }.max() ?? 0)
    var worst: Float = 0, at = 0
    for i in got.indices {
        let d = abs(got[i] - ref[i])
        if !(d <= worst) { worst = d; at = i } // catches NaN
    }
    #expect(
        worst <= 1e-5 * scale, "\(what): max |got - ref| = \(worst) at \(at) (got \(got[at]), ref \(ref[at]))",
        sourceLocation: sourceLocation)
}

/// Runs a graph built by `build` with 1 and 2 threads at kernel `level` (nil: the host's),
/// feeding float `inputs` in order, checks that both runs give bit-identical outputs, and
/// returns output 0 and its shape.
func runFloatGraph(
    _ inputs: [[Float]], level: KernelLevel? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ build: (inout GraphBuilder) -> Void
) throws -> (values: [Float], shape: [Int]) {
    var g = GraphBuilder()
    build(&g)
    var results: [[Float]] = []
    var shape: [Int] = []
    for threads in [1, 2] {
        let engine = try g.engine(threads: threads, level: level)
        try engine.allocate()
        for (i, values) in inputs.enumerated() { try engine.setInput(i, values) }
        try engine.invoke()
        results.append(try engine.output(0, as: Float.self))
        shape = engine.outputShape(0)
    }
    #expect(
        results[0].map(\.bitPattern) == results[1].map(\.bitPattern),
        "outputs differ between 1 and 2 threads", sourceLocation: sourceLocation)
    return (results[0], shape)
}

/// Runs one option-less `op` from a 1-D input of `values` (type `from`) to a 1-D output
/// of type `to`, quantized with `quantization`, and returns the output as `Out` values.
func runOneToOne<In, Out>(
    _ op: BuiltinOperator, _ values: [In], _ from: ElementType, to: ElementType,
    quantization: Quantization? = nil, as _: Out.Type
) throws -> [Out] {
    var g = GraphBuilder()
    let x = g.input([values.count], from)
    let y = g.tensor([values.count], to, quantization: quantization)
    g.op(op, inputs: [x], outputs: [y])
    g.output(y)
    let engine = try g.engine()
    try engine.allocate()
    try engine.setInput(0, values)
    try engine.invoke()
    return try engine.output(0, as: Out.self)
}

/// The reason of an `invalidOperator` error raised while creating an engine for `g`, or nil.
func prepareFailure(_ g: GraphBuilder) -> RuntimeError? {
    do {
        _ = try g.engine()
        return nil
    } catch let error as RuntimeError {
        return error
    } catch {
        return nil
    }
}

/// Expects engine creation to fail with `invalidOperator` whose reason contains `fragment`.
func expectInvalid(_ g: GraphBuilder, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    switch prepareFailure(g) {
    case .invalidOperator(_, _, let reason)?:
        #expect(
            reason.contains(fragment), "reason '\(reason)' does not mention '\(fragment)'",
            sourceLocation: sourceLocation)
    case let other:
        Issue.record(
            "expected invalidOperator mentioning '\(fragment)', got \(String(describing: other))",
            sourceLocation: sourceLocation)
    }
}

/// Expects engine creation to fail with `unsupportedTypes`.
func expectUnsupportedTypes(_ g: GraphBuilder, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .unsupportedTypes? = prepareFailure(g) else {
        Issue.record(
            "expected unsupportedTypes, got \(String(describing: prepareFailure(g)))", sourceLocation: sourceLocation)
        return
    }
}

/// Clamp range of a fused activation, as the tests' references apply it.
func referenceClamp(_ x: Float, _ activation: FusedActivation) -> Float {
    switch activation {
    case .relu: return Swift.max(x, 0)
    case .relu6: return Swift.min(Swift.max(x, 0), 6)
    case .reluN1To1: return Swift.min(Swift.max(x, -1), 1)
    default: return x
    }
}

/// Reference output size and leading padding of one axis, written from TFLite's rule
/// independently of the runtime's `AxisGeometry`.
func referenceAxis(input: Int, filter: Int, stride: Int, dilation: Int, same: Bool) -> (out: Int, pad: Int) {
    let eff = (filter - 1) * dilation + 1
    let out = same ? (input + stride - 1) / stride : (input - eff + stride) / stride
    let total = Swift.max(0, (out - 1) * stride + eff - input)
    return (out, total / 2)
}
