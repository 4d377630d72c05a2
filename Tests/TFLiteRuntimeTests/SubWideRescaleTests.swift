import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// 8-bit SUB whose output rescale factor exceeds 1 (spec/quantized-elementwise.md).
@Suite struct SubWideRescaleTests {
    func graph(_ op: BuiltinOperator, shapeA: [Int], shapeB: [Int], outputScale: Float) -> GraphBuilder {
        var g = GraphBuilder()
        let q = Quantization(scales: [0.05], zeroPoints: [0])
        let a = g.input(shapeA, .int8, quantization: q)
        let b = g.input(shapeB, .int8, quantization: q)
        let out = (try? Broadcast.shape(shapeA, shapeB)) ?? shapeA
        let y = g.tensor(out, .int8, quantization: Quantization(scales: [outputScale], zeroPoints: [4]))
        g.op(
            op, inputs: [a, b], outputs: [y],
            options: op == .sub
                ? .sub(activation: .none, potScaleInt16: true) : .add(activation: .none, potScaleInt16: true))
        g.output(y)
        return g
    }

    @Test func addRefusesWhatSubRuns() throws {
        // 2 · 0.05 / (2^20 · 1e-10) ≈ 954: factor 2^10 · 0.93, exponent 10.
        expectInvalid(graph(.add, shapeA: [6], shapeB: [6], outputScale: 1e-10), op: "ADD", "rescale factor")
        #expect(prepareFailure(graph(.sub, shapeA: [6], shapeB: [6], outputScale: 1e-10)) == nil)
    }

    @Test func vectorizedElementsGiveTheSignAndTheTailTheMaskedShift() throws {
        let engine = try graph(.sub, shapeA: [6], shapeB: [6], outputScale: 1e-10).engine()
        try engine.allocate()
        let a: [Int8] = [100, -100, 0, 50, 127, -128], b: [Int8] = [-100, 100, 0, 60, -128, 0]
        try engine.setInput(0, a)
        try engine.setInput(1, b)
        try engine.invoke()
        // x = SRDHM(a' − b', M) with a' = (a · 2^20) / 2 at equal scales; the first 4 (a
        // whole vector of TFLite's loop) give z ± 1, the last 2 the x86 scalar shift by
        // (−10) mod 32 = 22 with the mask 2^54 − 1 cut to 32 bits (all ones).
        let m = FixedPoint.quantizeMultiplier(2 * 0.05 / (Double(Float(1 << 20) * 1e-10)))
        #expect(m.exponent == 10)
        var want: [Int8] = []
        for k in 0 ..< 6 {
            let raw = (Int32(a[k]) << 19) - (Int32(b[k]) << 19)
            let x = FixedPoint.saturatingRoundingDoublingHighMul(raw, m.mantissa)
            let q: Int32 = k < 4 ? (x < 0 ? -1 : 1) : (x >> 22) + (x > (x < 0 ? 0 : -1) ? 1 : 0)
            want.append(Int8(clamping: q + 4))
        }
        #expect(try engine.output(0, as: Int8.self) == want)
        #expect(want[4] != 5, "the tail element must differ from the vector rule to test it")
    }
}
