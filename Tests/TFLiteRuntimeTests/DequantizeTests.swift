import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct DequantizeTests {
    static func run<T>(_ values: [T], shape: [Int], _ type: ElementType, _ q: Quantization?, constant: Bool = false)
        throws -> (engine: Engine, values: [Float])
    {
        var g = GraphBuilder()
        let x =
            constant ? g.constant(values, shape: shape, type, quantization: q) : g.input(shape, type, quantization: q)
        let y = g.tensor(shape, .float32)
        g.op(.dequantize, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        if !constant { try engine.setInput(0, values) }
        try engine.invoke()
        return (engine, try engine.output(0, as: Float.self))
    }

    @Test func perTensorUInt8() throws {
        let q = Quantization(scales: [0.5], zeroPoints: [128])
        let (_, y) = try Self.run([0, 127, 128, 129, 255] as [UInt8], shape: [5], .uint8, q)
        #expect(y == [-64, -0.5, 0, 0.5, 63.5])
    }

    @Test func perChannelInt8AlongTheLastDimension() throws {
        // [2, 3], one scale and zero point per column.
        let q = Quantization(scales: [0.5, 0.25, 2], zeroPoints: [0, 1, -2], quantizedDimension: 1)
        let (_, y) = try Self.run([-4, 5, 3, 10, -127, 127] as [Int8], shape: [2, 3], .int8, q)
        #expect(y == [-2, 1, 10, 5, -32, 258])
    }

    @Test func perChannelInt8AlongTheFirstDimension() throws {
        // [2, 2, 2], one scale per outer slice (conv weights are quantized along dim 0).
        let q = Quantization(scales: [0.1, 3], zeroPoints: [0, 0], quantizedDimension: 0)
        let (_, y) = try Self.run([1, 2, 3, 4, -1, -2, -3, -4] as [Int8], shape: [2, 2, 2], .int8, q)
        #expect(y == [Float(0.1 * 1.0), Float(0.1 * 2.0), Float(Float(0.1) * 3), Float(0.1 * 4.0), -3, -6, -9, -12])
    }

    @Test func int16() throws {
        let q = Quantization(scales: [0.001], zeroPoints: [0])
        let (_, y) = try Self.run([-32768, 1000, 32767] as [Int16], shape: [3], .int16, q)
        #expect(
            y == [
                Float(Double(Float(0.001)) * -32768), Float(Double(Float(0.001)) * 1000),
                Float(Double(Float(0.001)) * 32767),
            ])
    }

    @Test func float16WeightsAreFoldedOnce() throws {
        // 1, -2, 0.5, 65504 (largest half), smallest subnormal 2^-24, -0.
        let bits: [UInt16] = [0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x8000]
        let (engine, y) = try Self.run(bits, shape: [6], .float16, nil, constant: true)
        #expect(engine.arenaSize == 0)
        #expect(y == [1, -2, 0.5, 65504, 0x1p-24, 0])
        #expect(y[5].sign == .minus)
    }

    @Test func perChannelCountMustMatchTheDimension() throws {
        var g = GraphBuilder()
        let x = g.input(
            [2, 3], .int8, quantization: Quantization(scales: [1, 1], zeroPoints: [0, 0], quantizedDimension: 1))
        let y = g.tensor([2, 3], .float32)
        g.op(.dequantize, inputs: [x], outputs: [y])
        g.output(y)
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "DEQUANTIZE", reason: "2 per-channel scales for dimension 1 of size 3")
        ) {
            try g.engine()
        }
    }

    @Test func quantizedInputNeedsParameters() throws {
        var g = GraphBuilder()
        let x = g.input([2], .int8)
        let y = g.tensor([2], .float32)
        g.op(.dequantize, inputs: [x], outputs: [y])
        g.output(y)
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "DEQUANTIZE", reason: "input of type INT8 has no quantization parameters")
        ) {
            try g.engine()
        }
    }

    #if !(os(macOS) && arch(x86_64))
    @Test func halfConversionsMatchTheHardwareType() {
        for b in 0 ... UInt16.max {
            let reference = Float(Float16(bitPattern: b))
            let ours = HalfPrecision.float(fromBits: b)
            if reference.isNaN {
                #expect(ours.isNaN)
            } else if ours.bitPattern != reference.bitPattern {
                Issue.record("half \(b): \(ours) != \(reference)")
                return
            }
        }
        var rng = SplitMix64(seed: 11)
        let specials: [Float] = [
            0, -0, 1, 65504, 65519.99, 65520, 1e-8, 0x1p-25, 0x1.8p-25, 0x1p-24, 1 + 0x1p-11, 1 + 0x1.8p-11, .infinity,
            -.infinity, .greatestFiniteMagnitude,
        ]
        let randoms = (0 ..< 200_000).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())) }
        for x in specials + randoms where !x.isNaN {
            let expected = Float16(x).bitPattern
            let ours = HalfPrecision.bits(from: x)
            if ours != expected {
                Issue.record("float \(x): \(ours) != \(expected)")
                return
            }
        }
        #expect(HalfPrecision.float(fromBits: HalfPrecision.bits(from: .nan)).isNaN)
    }
    #endif
}
