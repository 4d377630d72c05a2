import Microkernels
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// int16 TANH and LOGISTIC: the prepare-time input scaling, the branch-free kernels against
/// the reference's branching arithmetic written out here, every level on every code, and
/// the prepare errors. Bit-exactness with LiteRT is the conformance corpus's
/// (`TANH/i16_*`, `LOGISTIC/i16_*`).
@Suite struct SigmoidS16Tests {
    /// The reference's per-code arithmetic, with its saturation branch and its table.
    static func reference(_ x: Int16, logistic: Bool, multiplier: Int32, shift: Int32) -> Int16 {
        let t = SigmoidTableQ16.entries.map { Int64($0) }
        let round: Int64 = shift > 0 ? 1 << Int64(shift - 1) : 0
        let product = Int64(x) * Int64(multiplier) + round
        let d = Int64(Int32(truncatingIfNeeded: product)) >> Int64(shift)
        let a = Swift.abs(d)
        let r: Int64
        if logistic {
            let j = a >> 9
            let v = j >= 255 ? 0x7FFF << 10 : (t[Int(j)] << 9) + (a & 511) * (t[Int(j) + 1] - t[Int(j)])
            r = (d >= 0 ? v + 512 : (1 << 25) - v + 511) >> 10
        } else {
            let j = a >> 8
            let v = j >= 255 ? 0xFFFF << 8 : (t[Int(j)] << 8) + (a & 255) * (t[Int(j) + 1] - t[Int(j)])
            r = (d >= 0 ? v - (1 << 23) + (1 << 7) : (1 << 23) + (1 << 7) - 1 - v) >> 8
        }
        return Int16(truncatingIfNeeded: r)
    }

    static func run(_ op: BuiltinOperator, inputScale: Float, outputScale: Float = 1 / 32768, level: KernelLevel)
        throws -> [Int16]
    {
        var g = GraphBuilder()
        let x = g.input([256, 256], .int16, quantization: Quantization(scales: [inputScale], zeroPoints: [0]))
        let y = g.tensor([256, 256], .int16, quantization: Quantization(scales: [outputScale], zeroPoints: [0]))
        g.op(op, inputs: [x], outputs: [y])
        g.output(y)
        let engine = try g.engine(threads: 1, level: level)
        try engine.allocate()
        try engine.setInput(0, (0 ..< 65536).map { Int16(truncatingIfNeeded: $0) })
        try engine.invoke()
        return try engine.output(0, as: Int16.self)
    }

    @Test func inputScalingIsTFLitesPrepare() {
        // Values TFLite's prepare gives (read off its arithmetic, as the corpus confirms).
        #expect(SigmoidS16.inputScaling(0x1p-12, logistic: false)! == (3, 0))
        #expect(SigmoidS16.inputScaling(0x1p-12, logistic: true)! == (3, 0))
        #expect(SigmoidS16.inputScaling(0x1p-11, logistic: false)! == (6, 0))
        #expect(SigmoidS16.inputScaling(0x1p-11, logistic: true)! == (24576, 12))
        #expect(SigmoidS16.inputScaling(0x1p-12 * 1.0004, logistic: false)! == (3, 0))
        #expect(SigmoidS16.inputScaling(4 / 32767, logistic: false)! == (24576, 14))
        #expect(SigmoidS16.inputScaling(1e-3, logistic: true)! == (25165, 11))
        #expect(SigmoidS16.inputScaling(1e-5, logistic: false)! == (32212, 18))
        #expect(SigmoidS16.inputScaling(6, logistic: false)! == (73728, 0))
        #expect(SigmoidS16.inputScaling(1e-30, logistic: false)!.shift == 31)
        #expect(SigmoidS16.inputScaling(200_000, logistic: false) == nil)
        #expect(SigmoidS16.checkedLog2(1 / 32767) == -15)
        #expect(SigmoidS16.checkedLog2(1 / 30000) == nil)
    }

    @Test(arguments: [0x1p-12, 0x1p-11, 0x1p-10, 4.0 / 32767, 1e-3, 1e-5, 0.5, 6, 150_000] as [Float])
    func everyLevelMatchesTheReferenceOnEveryCode(scale: Float) throws {
        for (op, logistic) in [(BuiltinOperator.tanh, false), (.logistic, true)] {
            let (multiplier, shift) = try #require(SigmoidS16.inputScaling(scale, logistic: logistic))
            let expected = (0 ..< 65536).map {
                Self.reference(Int16(truncatingIfNeeded: $0), logistic: logistic, multiplier: multiplier, shift: shift)
            }
            for level in QTest.levels {
                let got = try Self.run(op, inputScale: scale, level: level)
                let first = got.indices.first { got[$0] != expected[$0] }
                #expect(first == nil, "\(op) at \(level), scale \(scale): first difference at code \(first ?? 0)")
            }
        }
    }

    @Test func prepareErrors() {
        func prepare(
            _ op: BuiltinOperator, input: (Float, Int64), output: (Float, Int64), type: ElementType = .int16
        ) -> String? {
            errorDescription {
                var g = GraphBuilder()
                let x = g.input([4], type, quantization: Quantization(scales: [input.0], zeroPoints: [input.1]))
                let y = g.tensor([4], type, quantization: Quantization(scales: [output.0], zeroPoints: [output.1]))
                g.op(op, inputs: [x], outputs: [y])
                g.output(y)
                _ = try g.engine()
            }
        }
        #expect(
            prepare(.tanh, input: (0x1p-12, 1), output: (0x1p-15, 0))
                == "operator 0 (TANH): int16 TANH needs zero points 0, found 1 (input) and 0 (output)")
        #expect(
            prepare(.tanh, input: (0x1p-12, 0), output: (0x1p-14, 0))
                == "operator 0 (TANH): int16 TANH needs an output scale of 2^-15, found 6.1035156e-05")
        #expect(prepare(.tanh, input: (0x1p-12, 0), output: (1 / 32767, 0)) == nil)
        #expect(
            prepare(.logistic, input: (0x1p-12, 0), output: (1 / 32767, 0))
                == "operator 0 (LOGISTIC): int16 LOGISTIC needs an output scale of 1/32768, found 3.051851e-05")
        #expect(
            prepare(.logistic, input: (200_000, 0), output: (0x1p-15, 0))
                == "operator 0 (LOGISTIC): int16 LOGISTIC's input scale 200000.0 is too large for its fixed-point multiplier (2^31/12288 or more)"
        )
        #expect(
            prepare(.exp, input: (0x1p-12, 0), output: (0x1p-15, 0))
                == "operator 0 (EXP) does not support the types inputs (INT16) -> outputs (INT16)")
    }
}
