import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct ActivationTests {
    /// Inputs around the interesting points (0, ±3, saturation) plus random values.
    static func inputs(_ count: Int = 203) -> [Float] {
        var random = TestRandom(seed: 5)
        return [-20, -9.5, -4, -3, -2.5, -1, -0.2, 0, 0.7, 2.9, 3, 5, 16.7, 20] + random.floats(count, -8 ... 8)
    }

    func run(
        _ code: BuiltinOperator, _ x: [Float], shape: [Int]? = nil, options: BuiltinOptions = .none, threads: Int = 1
    ) throws -> [Float] {
        let r = try runSingleOp(
            code, inputs: [(shape ?? [x.count], .float32, x)], output: .float32, options: options, threads: threads)
        #expect(r.shape == (shape ?? [x.count]))
        return r.values
    }

    @Test func unaryOpsMatchNaiveReference() throws {
        let x = Self.inputs()
        let positive = x.map { abs($0) + 0.01 }
        expectNear(try run(.logistic, x), x.map { Float(1 / (1 + Foundation.exp(-Double($0)))) })
        expectNear(try run(.tanh, x), x.map { Float(Foundation.tanh(Double($0))) })
        expectNear(try run(.exp, x), x.map { Float(Foundation.exp(Double($0))) })
        #expect(try run(.sqrt, positive) == positive.map { $0.squareRoot() })
        expectNear(try run(.rsqrt, positive), positive.map { Float(1 / Double($0).squareRoot()) })
        #expect(try run(.hardSwish, x) == x.map { $0 * min(max($0 + 3, 0), 6) / 6 })
        #expect(try run(.leakyRelu, x, options: .leakyRelu(alpha: 0.3)) == x.map { $0 > 0 ? $0 : 0.3 * $0 })
        #expect(try run(.sqrt, [-1])[0].isNaN)
    }

    /// SQRT avoids `squareRoot()`'s libm fallback (``vectorizableSquareRoot(_:)``); it must
    /// still give its bits, NaNs included, for every class of input. RSQRT is `1 / √x` bit
    /// for bit at the portable level and the refined hardware estimate at `avx2` and up:
    /// within 4 ulp, with the same NaNs, infinities and zeros.
    @Test func squareRootsMatchTheStandardLibrary() throws {
        var rng = SplitMix64(seed: 3)
        let edges: [Float] = [
            0, -0, 1, -1, 2, 0.25, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan,
            Float(bitPattern: 0x7F80_0001), Float(bitPattern: 0xFF80_0001), Float(bitPattern: 0xFFC0_0000),
        ]
        let x = edges + (0 ..< 4000).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())) }
        #expect(try run(.sqrt, x).map(\.bitPattern) == x.map { $0.squareRoot().bitPattern })
        let r = try run(.rsqrt, x)
        var bad = 0
        for (v, got) in zip(x, r) {
            let want = 1 / v.squareRoot()
            let ok =
                want.isNaN ? got.isNaN : (want.isInfinite || want == 0) ? got == want : abs(got - want) <= 4 * want.ulp
            if !ok { bad += 1 }
        }
        #expect(bad == 0, "RSQRT: \(bad) elements beyond 4 ulp or of another class")
    }

    @Test func goldensFromTensorFlow() throws {
        let h: [Float] = [-4.0, -3.0, -2.5, -1.0, -0.2, 0.0, 0.7, 2.9, 3.0, 5.0]
        // x * tf.nn.relu6(x + 3) / 6, tf.sigmoid, tf.tanh, tf.nn.leaky_relu(alpha=0.2) (TensorFlow 2.21).
        expectNear(
            try run(.hardSwish, h),
            [
                -0.0, -0.0, -0.2083333283662796, -0.3333333432674408, -0.09333333373069763, 0.0, 0.43166664242744446,
                2.8516666889190674, 3.0, 5.0,
            ], tolerance: 1e-7)
        expectNear(
            try run(.logistic, h),
            [
                0.01798621006309986, 0.04742586612701416, 0.07585816830396652, 0.26894140243530273, 0.45016592741012573,
                0.5, 0.6681877374649048, 0.9478464126586914, 0.9525741338729858, 0.9933071732521057,
            ])
        expectNear(
            try run(.tanh, h),
            [
                -0.9993292689323425, -0.9950547218322754, -0.9866143465042114, -0.7615941762924194, -0.1973753273487091,
                0.0, 0.604367733001709, 0.9939631819725037, 0.9950547218322754, 0.9999091625213623,
            ])
        expectNear(
            try run(.leakyRelu, h, options: .leakyRelu(alpha: 0.2)),
            [
                -0.800000011920929, -0.6000000238418579, -0.5, -0.20000000298023224, -0.04000000283122063, 0.0,
                0.699999988079071, 2.9000000953674316, 3.0, 5.0,
            ], tolerance: 1e-7)
    }

    @Test func softmaxGoldensFromTensorFlow() throws {
        let x: [Float] = [-2.0, 0.5, 1.5, 3.0, 4.0, -1.0, 0.0, 2.5]
        // tf.nn.softmax(x * 0.7) and tf.nn.log_softmax(x) over the last dimension of [2, 4].
        expectNear(
            try run(.softmax, x, shape: [2, 4], options: .softmax(beta: 0.7)),
            [
                0.019433170557022095, 0.1118301972746849, 0.22519832849502563, 0.643538236618042, 0.6939888596534729,
                0.020956648513674736, 0.042201507836580276, 0.24285291135311127,
            ])
        expectNear(
            try run(.logSoftmax, x, shape: [2, 4]),
            [
                -5.271516799926758, -2.771516799926758, -1.7715169191360474, -0.27151691913604736, -0.22168947756290436,
                -5.221689701080322, -4.221689701080322, -1.7216894626617432,
            ])
    }

    /// Naive softmax in Double over rows of the last dimension.
    static func naiveSoftmax(_ x: [Float], depth: Int, beta: Double, log: Bool) -> [Float] {
        var y: [Float] = []
        for start in stride(from: 0, to: x.count, by: depth) {
            let row = x[start ..< start + depth].map(Double.init)
            let m = row.max() ?? 0
            if log {
                let s = row.reduce(0) { $0 + Foundation.exp($1 - m) }
                y += row.map { Float($0 - m - Foundation.log(s)) }
            } else {
                let s = row.reduce(0) { $0 + Foundation.exp(($1 - m) * beta) }
                y += row.map { Float(Foundation.exp(($0 - m) * beta) / s) }
            }
        }
        return y
    }

    @Test(arguments: [[7], [3, 5], [2, 3, 4, 10], [1, 1]])
    func softmaxAnyRank(shape: [Int]) throws {
        var random = TestRandom(seed: 11)
        let x = random.floats(shape.reduce(1, *), -10 ... 10)
        let depth = shape.last ?? 1
        expectNear(
            try run(.softmax, x, shape: shape, options: .softmax(beta: 1.3)),
            Self.naiveSoftmax(x, depth: depth, beta: 1.3, log: false))
        expectNear(try run(.logSoftmax, x, shape: shape), Self.naiveSoftmax(x, depth: depth, beta: 1, log: true))
        // beta 0 (options absent): uniform rows.
        expectNear(try run(.softmax, x, shape: shape), [Float](repeating: 1 / Float(depth), count: x.count))
    }

    @Test func preluBroadcastsAlpha() throws {
        var random = TestRandom(seed: 3)
        let cases: [([Int], [Int])] = [
            ([2, 3, 4, 5], [5]), ([2, 3, 4, 5], [1, 1, 5]), ([2, 3, 4, 5], [2, 3, 4, 5]), ([4, 6], [4, 1]),
            ([3], [2, 3]), ([6], []),
        ]
        for (xs, alphaShape) in cases {
            let x = random.floats(xs.reduce(1, *))
            let alpha = random.floats(alphaShape.reduce(1, *), 0 ... 1)
            let want = naiveBroadcast(x, xs, alpha, alphaShape) { $0 >= 0 ? $0 : $0 * $1 }
            let got = try runSingleOp(
                .prelu, inputs: [(xs, .float32, x), (alphaShape, .float32, alpha)], output: .float32)
            #expect(got.shape == want.shape)
            #expect(got.values == want.values, "\(xs) \(alphaShape)")
        }
    }

    @Test func threadCountDoesNotChangeResults() throws {
        var random = TestRandom(seed: 13)
        let x = random.floats(40_000, -6 ... 6)
        for (code, options) in [
            (BuiltinOperator.logistic, BuiltinOptions.none), (.tanh, .none), (.hardSwish, .none),
            (.exp, .none), (.leakyRelu, .leakyRelu(alpha: 0.1)),
        ] {
            #expect(
                try run(code, x, options: options, threads: 1) == run(code, x, options: options, threads: 2),
                "\(code.name)")
        }
        for code in [BuiltinOperator.softmax, .logSoftmax] {
            let options: BuiltinOptions = code == .softmax ? .softmax(beta: 0.5) : .none
            #expect(
                try run(code, x, shape: [400, 100], options: options, threads: 1)
                    == run(code, x, shape: [400, 100], options: options, threads: 2), "\(code.name)")
        }
    }

    /// int8 SQRT and RSQRT: a code below the zero point (a negative number) fails the
    /// invoke, as in TFLite; RSQRT of the zero point's code is the largest code.
    @Test func int8SquareRootsRefuseNegativeInputsAtInvoke() throws {
        func run(_ code: BuiltinOperator, _ codes: [Int8], _ type: ElementType = .int8) throws -> [Int8] {
            var g = GraphBuilder()
            let q = Quantization(scales: [0.25], zeroPoints: type == .uint8 ? [128] : [-10])
            let x = g.input([codes.count], type, quantization: q)
            let y = g.tensor([codes.count], type, quantization: q)
            g.op(code, inputs: [x], outputs: [y])
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            try engine.setInput(0, codes)
            try engine.invoke()
            return try engine.output(0, as: Int8.self)
        }
        // 1/√(0.25·d) over 0.25: d = 4 → 1 → code −6, d = 16 → 0.5 → code −8.
        #expect(try run(.rsqrt, [-10, -6, 6]) == [127, -6, -8])
        // √(0.25·d) over 0.25, truncated: d = 4 → 1 → code −6, d = 10 → 1.58… → 6 → code −4.
        #expect(try run(.sqrt, [-10, -6, 0]) == [-10, -6, -4])
        for code in [BuiltinOperator.sqrt, .rsqrt] {
            #expect(throws: RuntimeError.self) { _ = try run(code, [-10, -11]) }
            #expect(
                errorDescription { _ = try run(code, [0, 1], .uint8) }
                    == "operator 0 (\(code.name)) does not support the types inputs (UINT8) -> outputs (UINT8)")
        }
    }

    @Test func prepareErrors() throws {
        func prepare(
            _ code: BuiltinOperator, _ inputs: [([Int], ElementType)], out: ElementType = .float32,
            options: BuiltinOptions = .none
        ) -> String? {
            errorDescription {
                var g = GraphBuilder()
                let xs = inputs.map { g.input($0.0, $0.1) }
                let y = g.tensor([], out)
                g.op(code, inputs: xs, outputs: [y], options: options)
                g.output(y)
                _ = try g.engine()
            }
        }
        #expect(
            prepare(.tanh, [([4], .int32)], out: .int32)
                == "operator 0 (TANH) does not support the types inputs (INT32) -> outputs (INT32)")
        #expect(
            prepare(.logistic, [([4], .float32)], out: .int32)
                == "operator 0 (LOGISTIC) does not support the types inputs (FLOAT32) -> outputs (INT32)")
        #expect(prepare(.exp, [([4], .float32), ([4], .float32)]) == "operator 0 (EXP): expected 1 inputs, found 2")
        #expect(
            prepare(.softmax, [([], .float32)], options: .softmax(beta: 1))
                == "operator 0 (SOFTMAX): input must have rank 1 or more, found a scalar")
        #expect(
            prepare(.softmax, [([3], .float32)], options: .softmax(beta: .nan))
                == "operator 0 (SOFTMAX): beta nan is not finite")
        #expect(
            prepare(.leakyRelu, [([3], .float32)], options: .softmax(beta: 1))
                == "operator 0 (LEAKY_RELU): unexpected options softmax(beta: 1.0)")
        #expect(
            prepare(.prelu, [([2, 3], .float32), ([2], .float32)])
                == "operator 0 (PRELU): shapes [2, 3] and [2] cannot be broadcast together")
        #expect(
            prepare(.prelu, [([2, 3], .uint8), ([3], .uint8)], out: .uint8)
                == "operator 0 (PRELU): input (tensor 0, UINT8) has no quantization parameters")
        #expect(
            prepare(.exp, [([4], .uint8)], out: .uint8)
                == "operator 0 (EXP) does not support the types inputs (UINT8) -> outputs (UINT8)")
        #expect(
            prepare(.exp, [([4], .int8)], out: .int8)
                == "operator 0 (EXP): input (tensor 0, INT8) has no quantization parameters")
    }
}
