#if canImport(Glibc)
import Glibc
#endif
import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct NonMaxSuppressionV5Tests {
    /// Runs NMS (six inputs with `sigma`, else five) on constant thresholds.
    func run(
        boxes: [Float], scores: [Float], limit: Int32, iou: Float, threshold: Float, sigma: Float? = nil
    ) throws -> (indices: [Int32], scores: [Float], count: Int32) {
        var g = GraphBuilder()
        let n = scores.count
        let b = g.input([n, 4], .float32)
        let s = g.input([n], .float32)
        var inputs = [
            b, s, g.constant([limit], shape: []), g.constant([iou], shape: []), g.constant([threshold], shape: []),
        ]
        if let sigma { inputs.append(g.constant([sigma], shape: [])) }
        let indices = g.tensor([Int(limit)], .int32)
        let picked = g.tensor([Int(limit)], .float32)
        let count = g.tensor([], .int32)
        let outputs = sigma == nil ? [indices, count] : [indices, picked, count]
        g.op(sigma == nil ? .nonMaxSuppressionV4 : .nonMaxSuppressionV5, inputs: inputs, outputs: outputs)
        for o in outputs { g.output(o) }
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, boxes)
        try engine.setInput(1, scores)
        try engine.invoke()
        let selected = try engine.output(0, as: Int32.self)
        let last = sigma == nil ? 1 : 2
        return (
            selected, sigma == nil ? [] : try engine.output(1, as: Float.self),
            try engine.output(last, as: Int32.self)[0]
        )
    }

    let boxes: [Float] = [
        0, 0, 1, 1, // 0
        0, 0.1, 1, 1.1, // 1: IoU 0.82 with 0
        2, 2, 3, 3, // 2: apart
        0.5, 0.5, 1.5, 1.5, // 3: IoU 0.14 with 0
        3, 3, 2, 2, // 4: box 2 with its corners swapped
    ]

    @Test func hardSuppressionPadsWithZeros() throws {
        let got = try run(boxes: boxes, scores: [0.9, 0.8, 0.7, 0.6, 0.5], limit: 5, iou: 0.5, threshold: 0)
        #expect(got.count == 3)
        #expect(got.indices == [0, 2, 3, 0, 0])
    }

    @Test func scoresAtOrBelowTheThresholdAreNeverSelected() throws {
        let got = try run(boxes: boxes, scores: [0.9, 0.8, 0.7, 0.65, 0.5], limit: 4, iou: 0.5, threshold: 0.65)
        #expect(got.count == 2)
        #expect(got.indices == [0, 2, 0, 0])
    }

    @Test func softSuppressionDecaysOverlappingScores() throws {
        let got = try run(
            boxes: boxes, scores: [0.9, 0.8, 0.7, 0.6, 0.5], limit: 5, iou: 1, threshold: 0.1, sigma: 0.5)
        // sigma 0.5: each comparison multiplies by exp(−IoU²). Box 3 overlaps box 0 (IoU 1/7)
        // and is selected with its decayed score once no newer box is left to compare
        // with; box 1 overlaps 0 (IoU 9/11) and 3 (IoU 3/17). Box 4 duplicates box 2 (IoU 1,
        // at the IoU threshold) and is dropped.
        #expect(got.indices == [0, 2, 3, 1, 0])
        #expect(got.count == 4)
        let want: [Float] = [0.9, 0.7, 0.6 * expf(-1 / 49), 0.8 * expf(-(81 / 121) - (9 / 289)), 0]
        #expect(zip(got.scores, want).allSatisfy { abs($0 - $1) <= 1e-6 }, "\(got.scores)")
    }

    @Test func tiedScoresLeaveTheQueueAsTheStandardHeapOrdersThem() throws {
        // Eight boxes apart, one score: the order is the binary heap's (libstdc++'s
        // push_heap/pop_heap), with each selected box put back and dropped when it meets
        // itself. LiteRT 2.3.0 gives this order with both resolvers.
        var apart: [Float] = []
        for i in 0 ..< 8 { apart += [Float(2 * i), 0, Float(2 * i + 1), 1] }
        let got = try run(boxes: apart, scores: [Float](repeating: 0.5, count: 8), limit: 8, iou: 0.5, threshold: 0)
        #expect(got.indices == [0, 2, 6, 7, 5, 4, 3, 1])
        #expect(got.count == 8)
    }

    @Test func badInputsAreTypedErrors() throws {
        var shape = GraphBuilder()
        let b = shape.input([3, 5], .float32)
        let s = shape.input([3], .float32)
        let inputs = [
            b, s, shape.constant([2] as [Int32], shape: []), shape.constant([0.5] as [Float], shape: []),
            shape.constant([0] as [Float], shape: []),
        ]
        shape.op(.nonMaxSuppressionV4, inputs: inputs, outputs: [shape.tensor([2], .int32), shape.tensor([], .int32)])
        expectInvalid(shape, op: "NON_MAX_SUPPRESSION_V4", "[n, 4]")

        var sigma = GraphBuilder()
        let b2 = sigma.input([2, 4], .float32)
        let s2 = sigma.input([2], .float32)
        let negative = [
            b2, s2, sigma.constant([2] as [Int32], shape: []), sigma.constant([0.5] as [Float], shape: []),
            sigma.constant([0] as [Float], shape: []), sigma.constant([-1] as [Float], shape: []),
        ]
        sigma.op(
            .nonMaxSuppressionV5, inputs: negative,
            outputs: [sigma.tensor([2], .int32), sigma.tensor([2], .float32), sigma.tensor([], .int32)])
        let engine = try sigma.engine()
        try engine.allocate()
        try engine.setInput(1, [0.5, 0.6] as [Float])
        expectInvokeFailure(engine, op: "NON_MAX_SUPPRESSION_V5", "sigma is -1")
    }
}
