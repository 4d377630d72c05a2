import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// ``OperatorFusion``: a float pointwise CONV_2D and the 3×3 DEPTHWISE_CONV_2D reading its
/// output run as one ``ExpansionDepthwiseF32`` step, with the same bits as run apart.
@Suite struct OperatorFusionTests {
    struct Case: CustomStringConvertible {
        var input: [Int] // NHWC
        var expanded: Int
        var stride: Int
        var same: Bool
        /// A 3×3 stride-2 SAME convolution (a stem, gathered row by row) instead of a 1×1.
        var stem = false
        var description: String {
            "input \(input) → \(expanded)\(stem ? " (3x3 s2 stem)" : "") stride \(stride) \(same ? "SAME" : "VALID")"
        }
        var expandedShape: [Int] {
            stem ? [input[0], (input[1] + 1) / 2, (input[2] + 1) / 2, expanded] : Array(input.dropLast()) + [expanded]
        }
        /// Bytes of the expanded tensor: at least `minimumExpandedBytes` for the pair to fuse.
        var expandedBytes: Int { expandedShape.reduce(4, *) }
    }

    /// input → CONV_2D 1×1, or 3×3 stride 2 (RELU6) → DEPTHWISE_CONV_2D 3×3 (RELU6) → output, and the
    /// expanded tensor also as a graph output when `exposeExpanded`.
    func graph(_ c: Case, exposeExpanded: Bool = false) -> GraphBuilder {
        var g = GraphBuilder()
        let inC = c.input[3], k = c.stem ? 3 : 1, s = c.stem ? 2 : 1
        let x = g.input(c.input, .float32)
        let cw = g.constant(seededFloats(c.expanded * k * k * inC, seed: 1), shape: [c.expanded, k, k, inC])
        let cb = g.constant(seededFloats(c.expanded, seed: 2), shape: [c.expanded])
        let mid = g.tensor(c.expandedShape, .float32)
        let dw = g.constant(seededFloats(9 * c.expanded, seed: 3), shape: [1, 3, 3, c.expanded])
        let db = g.constant(seededFloats(c.expanded, seed: 4), shape: [c.expanded])
        let y = g.tensor([1], .float32)
        g.op(
            .conv2D, inputs: [x, cw, cb], outputs: [mid],
            options: .conv2D(Conv2DOptions(padding: .same, strideWidth: s, strideHeight: s, activation: .relu6)))
        g.op(
            .depthwiseConv2D, inputs: [mid, dw, db], outputs: [y],
            options: .depthwiseConv2D(
                DepthwiseConv2DOptions(
                    padding: c.same ? .same : .valid, strideWidth: c.stride, strideHeight: c.stride,
                    depthMultiplier: 1, activation: .relu6)))
        g.output(y)
        if exposeExpanded { g.output(mid) }
        return g
    }

    func run(_ g: GraphBuilder, _ c: Case, fuse: Bool, threads: Int, level: KernelLevel? = nil) throws -> (
        output: [Float], fused: Bool
    ) {
        var options = EngineOptions()
        options.fusesExpansions = fuse
        options.threadCount = threads
        options.kernelLevel = level
        let engine = try Engine(model: g.model(), options: options)
        try engine.allocate()
        try engine.setInput(0, seededFloats(c.input.reduce(1, *), seed: 5))
        try engine.invoke()
        let fused = engine.preparedKernels.contains { $0 is ExpansionDepthwiseF32 }
        // Profiles report the pair under the convolution, operator 0.
        #expect(engine.fusedOperators == (fused ? [0: 1] : [:]))
        return (try engine.output(0, as: Float.self), fused)
    }

    static let cases = [
        Case(input: [1, 64, 64, 8], expanded: 128, stride: 1, same: true),
        Case(input: [1, 65, 63, 5], expanded: 136, stride: 2, same: true),
        Case(input: [2, 40, 41, 7], expanded: 168, stride: 2, same: false),
        Case(input: [2, 41, 40, 3], expanded: 160, stride: 1, same: false),
        Case(input: [1, 129, 128, 3], expanded: 64, stride: 1, same: true, stem: true),
        Case(input: [2, 96, 97, 3], expanded: 64, stride: 2, same: true, stem: true),
    ]

    @Test(
        .enabled(if: KernelLevel.host >= .avx2, "the fused kernel needs the AVX2 depthwise row kernel"),
        arguments: cases)
    func fusedStepGivesTheSameBits(_ c: Case) throws {
        #expect(c.expandedBytes >= ExpansionDepthwiseF32.minimumExpandedBytes, "\(c) is large enough to fuse")
        let g = graph(c)
        for level in [KernelLevel.avx2, .avx512] where level <= KernelLevel.host {
            let apart = try run(g, c, fuse: false, threads: 1, level: level)
            #expect(!apart.fused)
            for threads in [1, 2] {
                let fused = try run(g, c, fuse: true, threads: threads, level: level)
                #expect(fused.fused, "\(c) at \(threads) threads, \(level)")
                #expect(
                    fused.output.map(\.bitPattern) == apart.output.map(\.bitPattern),
                    "\(c) at \(threads) threads, \(level)")
            }
            #expect(apart.output.contains(0) && apart.output.contains(6), "the clamps were exercised")
        }
        let portable = try run(g, c, fuse: true, threads: 2, level: .portable)
        #expect(!portable.fused, "the portable level has no depthwise row kernel to fuse with")
    }

    @Test func keepsAnExpandedTensorTheGraphExposesOrThatIsSmall() throws {
        let c = Self.cases[0]
        #expect(try !run(graph(c, exposeExpanded: true), c, fuse: true, threads: 2).fused)
        let small = Case(input: [1, 16, 16, 8], expanded: 64, stride: 1, same: true)
        #expect(small.expandedBytes < ExpansionDepthwiseF32.minimumExpandedBytes)
        #expect(try !run(graph(small), small, fuse: true, threads: 1).fused)
    }
}
