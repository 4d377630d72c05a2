import Foundation
import NumPy
import SeededRandom
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Hybrid (dynamic-range quantized) kernels: float activations, constant int8 weights.
/// The goldens are the conformance corpus's `hyb_*` cases (LiteRT 2.3.0 `BUILTIN_REF`
/// outputs, `scripts/fixtures/conformance/cases_hybrid.py` and `cases_recurrent.py`, whose
/// stateful cases invoke one interpreter several times); the runtime reproduces LiteRT's
/// arithmetic, so the comparison is bit for bit, for every output and invoke and for 1, 2
/// and 3 threads.
@Suite struct HybridTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")

    /// Hybrid kernels compared at the float tolerance (by `ConformanceTests`), not bit for
    /// bit: the LSTM operators apply σ and tanh, which LiteRT computes with Eigen's
    /// approximations and the runtime with its own; SVDF's time filter is a float dot
    /// product the runtime sums in another order (its state holds the feature products,
    /// which are exact).
    static let approximated: Set<String> = [
        "LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM", "SVDF",
    ]

    /// `OP/hyb_*` folders of the corpus whose model is one hybrid operator (`float`
    /// tolerance), other than the approximated ones. Recurrent layers converted whole
    /// (`model` tolerance) run float nonlinearities too, which match within the model
    /// tolerance, not bit for bit.
    static let cases: [String] = {
        let fm = FileManager.default
        guard let ops = try? fm.contentsOfDirectory(atPath: corpus.path) else { return [] }
        return ops.sorted().filter { !approximated.contains($0) }.flatMap { op -> [String] in
            let ids = (try? fm.contentsOfDirectory(atPath: corpus.appendingPathComponent(op).path)) ?? []
            return ids.filter { $0.hasPrefix("hyb_") }.sorted().map { "\(op)/\($0)" }
        }.filter { id in
            let json =
                (try? String(contentsOf: corpus.appendingPathComponent("\(id)/case.json"), encoding: .utf8)) ?? ""
            return !json.contains("\"tolerance\": \"model\"")
        }
    }()

    @Test func everyHybridOpHasGoldens() {
        let ops = Set(Self.cases.map { String($0.split(separator: "/")[0]) })
        #expect(
            ops.isSuperset(of: [
                "FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D", "BATCH_MATMUL", "TRANSPOSE_CONV", "RNN",
                "UNIDIRECTIONAL_SEQUENCE_RNN", "BIDIRECTIONAL_SEQUENCE_RNN",
            ]))
    }

    /// The invokes of a case: its folder, or with `"invokes": K` in case.json its
    /// `step0` ... `step<K-1>` folders, run in order on one interpreter.
    static func steps(of dir: URL) throws -> [URL] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("case.json")))
        let invokes = (json as? [String: Any])?["invokes"] as? Int ?? 1
        return invokes == 1 ? [dir] : (0 ..< invokes).map { dir.appendingPathComponent("step\($0)") }
    }

    /// `<prefix>_0.npy`, `<prefix>_1.npy`, ... of a folder, as raw bytes.
    static func arrays(_ prefix: String, in dir: URL) throws -> [[UInt8]] {
        var arrays: [[UInt8]] = []
        while true {
            let url = dir.appendingPathComponent("\(prefix)_\(arrays.count).npy")
            guard FileManager.default.fileExists(atPath: url.path) else { return arrays }
            arrays.append(try NPYArray(contentsOf: url).data)
        }
    }

    @Test(arguments: cases)
    func matchesReferenceBitForBit(_ id: String) throws {
        let dir = Self.corpus.appendingPathComponent(id)
        let model = try Model(contentsOfFile: dir.appendingPathComponent("model.tflite").path)
        let steps = try Self.steps(of: dir)
        for threads in [1, 2, 3] {
            var options = EngineOptions()
            options.threadCount = threads
            let engine = try Engine(model: model, options: options)
            try engine.allocate()
            for (k, step) in steps.enumerated() {
                for (i, bytes) in try Self.arrays("input", in: step).enumerated() { try engine.setInput(i, bytes) }
                try engine.invoke()
                for (o, bytes) in try Self.arrays("expected", in: step).enumerated() {
                    let want: [UInt32] = bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
                    let got = try engine.output(o, as: Float.self).map(\.bitPattern)
                    let differing = zip(got, want).filter { $0 != $1 }.count
                    #expect(
                        got.count == want.count && differing == 0,
                        "\(id), \(threads) threads, invoke \(k), output \(o): \(differing) of \(want.count) values differ from BUILTIN_REF"
                    )
                }
            }
        }
    }

    // MARK: input quantization

    @Test func asymmetricInputQuantization() {
        // Range [-1, 3]: scale 4/255, zero point from the smaller-error end: -128 + 63.75 → -64.
        let x: [Float] = [-1, 0, 0.5, 3]
        var q = [Int8](repeating: 0, count: 4)
        let (scale, offset) = x.withUnsafeBufferPointer { xb in
            q.withUnsafeMutableBufferPointer {
                HybridInput.asymmetric(xb.baseAddress!, count: 4, stride: 1, into: $0.baseAddress!)
            }
        }
        #expect(scale == Float(4) / 255)
        #expect(offset == -64)
        #expect(q == [-128, -64, -32, 127])
    }

    /// The quantizers' rounding, `roundedCode`, gives the codes of the plain formula
    /// `clamp(truncatingToInt32(v.rounded()))` for every tie, the floats next to them and
    /// to the integers, random values, and huge and non-finite ones.
    @Test func roundedCodeMatchesRoundingThenClamping() {
        var values: [Float] = [
            0, -0.0, .nan, -.nan, .infinity, -.infinity, 3e9, -3e9, 2_147_483_648, -2_147_483_904,
            Float.leastNonzeroMagnitude, 0.5, -0.5, Float(0.5).nextDown, -Float(0.5).nextDown,
        ]
        for k in -300 ... 300 {
            let tie = Float(k) + 0.5
            values += [tie, tie.nextUp, tie.nextDown, Float(k), Float(k).nextUp, Float(k).nextDown]
        }
        var rng = SplitMix64(seed: 3)
        values += (0 ..< 20000).map { _ in Float.random(in: -400 ... 400, using: &rng) }
        for v in values {
            for (lowest, highest) in [(Int32(-127), Int32(127)), (-128, 127)] {
                let plain = Swift.min(highest, Swift.max(lowest, HybridInput.truncatingToInt32(v.rounded())))
                #expect(HybridInput.roundedCode(v, lowest: lowest, highest: highest) == plain, "\(v)")
            }
        }
    }

    /// The row kernel of the integer-GEMM FULLY_CONNECTED (`centeredRow`: the AVX2 bounds
    /// and codes on x86-64) gives the portable quantizer's scale and codes minus its
    /// offset: rows whose values land on ties, random rows, rows with NaN, infinities and
    /// huge values, all-zero rows, every length up to 40 and both rules.
    @Test func centeredRowMatchesPortableQuantization() {
        var rng = SplitMix64(seed: 0xce47)
        for count in 1 ... 40 {
            for trial in 0 ..< 30 {
                var x = (0 ..< count).map { _ in Float.random(in: -3 ... 5, using: &rng) }
                switch trial % 6 {
                case 0: // halves with a largest magnitude of 127: the symmetric rule's inverse is 1, all ties
                    x = x.map { ($0 * 20).rounded() / 2 }
                    x[Int(rng.next() % UInt64(count))] = 127
                case 1: x[Int(rng.next() % UInt64(count))] = [.nan, .infinity, -.infinity, 3e38][trial % 4]
                case 2: x = x.map { _ in 0 }
                case 3: x[0] = .nan
                default: break
                }
                for asymmetric in [false, true] {
                    var expected = [Int8](repeating: 0, count: count), got = [Int16](repeating: 7, count: count)
                    let (scale, offset) = x.withUnsafeBufferPointer { xb in
                        expected.withUnsafeMutableBufferPointer {
                            HybridInput.quantize(
                                xb.baseAddress!, count: count, stride: 1, asymmetric: asymmetric,
                                into: $0.baseAddress!)
                        }
                    }
                    let gotScale = x.withUnsafeBufferPointer { xb in
                        got.withUnsafeMutableBufferPointer {
                            HybridInput.centeredRow(
                                xb.baseAddress!, count: count, asymmetric: asymmetric, into: $0.baseAddress!)
                        }
                    }
                    #expect(gotScale.bitPattern == scale.bitPattern, "\(x) asymmetric \(asymmetric)")
                    #expect(got == expected.map { Int16($0) - Int16(offset) }, "\(x) asymmetric \(asymmetric)")
                }
            }
        }
    }

    @Test func allZeroRowsQuantizeToZerosWithScaleOne() {
        let x = [Float](repeating: 0, count: 5)
        var q = [Float](repeating: 9, count: 5)
        for asymmetric in [false, true] {
            let (scale, offset) = x.withUnsafeBufferPointer { xb in
                q.withUnsafeMutableBufferPointer {
                    HybridInput.quantize(
                        xb.baseAddress!, count: 5, stride: 1, asymmetric: asymmetric, into: $0.baseAddress!)
                }
            }
            #expect(scale == 1 && offset == 0 && q.allSatisfy { $0 == 0 })
        }
    }

    @Test func symmetricQuantizationAndNonFiniteInputsDoNotTrap() {
        let x: [Float] = [-2, 1, 0.5, .nan, .infinity]
        var q = [Int8](repeating: 0, count: 5)
        let (scale, _) = x.withUnsafeBufferPointer { xb in
            q.withUnsafeMutableBufferPointer {
                HybridInput.symmetric(xb.baseAddress!, count: 3, stride: 1, into: $0.baseAddress!)
            }
        }
        #expect(scale == Float(2) / 127)
        #expect(Array(q.prefix(3)) == [-127, 64, 32])
        _ = x.withUnsafeBufferPointer { xb in // NaN and infinity give codes, not a crash
            q.withUnsafeMutableBufferPointer {
                HybridInput.asymmetric(xb.baseAddress!, count: 5, stride: 1, into: $0.baseAddress!)
            }
        }
        #expect(HybridInput.truncatingToInt32(.nan) == .min && HybridInput.truncatingToInt32(3e9) == .min)
        #expect(HybridInput.truncatingToInt32(-7.9) == -7)
    }

    // MARK: prepare-time validation

    private func hybridFC(weights quantization: Quantization?, constantWeights: Bool = true) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input([2, 4], .float32)
        let w =
            constantWeights
            ? g.constant([Int8](repeating: 1, count: 12), shape: [3, 4], .int8, quantization: quantization)
            : g.input([3, 4], .int8, quantization: quantization)
        let y = g.tensor([2, 3], .float32)
        g.op(
            .fullyConnected, inputs: [x, w], outputs: [y],
            options: .fullyConnected(FullyConnectedOptions(activation: .none)))
        g.output(y)
        return g
    }

    @Test func rejectsInvalidHybridWeights() {
        expectInvalid(hybridFC(weights: nil), "no quantization parameters")
        expectInvalid(hybridFC(weights: Quantization(scales: [0.1], zeroPoints: [3])), "zero points 0")
        expectInvalid(hybridFC(weights: Quantization(scales: [0.1, 0.2], zeroPoints: [0, 0])), "2 weight scales")
        expectInvalid(
            hybridFC(weights: Quantization(scales: [0.1, 0.2, 0.3], zeroPoints: [0, 0, 0], quantizedDimension: 1)),
            "along dimension 1")
        expectInvalid(hybridFC(weights: Quantization(scales: [-1], zeroPoints: [0])), "finite positive")
        expectInvalid(
            hybridFC(weights: Quantization(scales: [0.1], zeroPoints: [0]), constantWeights: false), "must be constant")
    }

    @Test func perTensorHybridFullyConnectedMatchesHandComputation() throws {
        // Default options quantize symmetrically: row [1, -1, 0.5, 0.25] has scale 1/127 and
        // codes [127, -127, 64, 32] (ties away from zero).
        var g = GraphBuilder()
        let x = g.input([1, 4], .float32)
        let w = g.constant(
            [Int8]([1, 2, 3, 4, -1, -2, -3, -4, 0, 0, 0, 1]), shape: [3, 4], .int8,
            quantization: Quantization(scales: [0.5], zeroPoints: [0]))
        let y = g.tensor([1, 3], .float32)
        g.op(
            .fullyConnected, inputs: [x, w], outputs: [y],
            options: .fullyConnected(FullyConnectedOptions(activation: .relu)))
        g.output(y)
        let (values, shape) = try runFloatGraph([[1, -1, 0.5, 0.25]]) { $0 = g }
        #expect(shape == [1, 3])
        let s = Float(1) / Float(127) * 0.5
        let acc: [Int32] = [127 - 254 + 192 + 128, -(127 - 254 + 192 + 128), 32]
        #expect(values == acc.map { Swift.max(0, 0 + Float($0) * s) })
    }
}
