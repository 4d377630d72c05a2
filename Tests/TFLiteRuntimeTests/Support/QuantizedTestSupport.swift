import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Helpers for 8-bit kernel tests: codes are handled as `Int` and stored as the bytes of
/// the tensor's type (uint8 or int8 bit patterns).
enum QTest {
    static func range(_ type: ElementType) -> ClosedRange<Int> { type == .uint8 ? 0 ... 255 : -128 ... 127 }

    /// The tensor bytes of `codes`.
    static func bytes(_ codes: [Int]) -> [UInt8] { codes.map { UInt8(truncatingIfNeeded: $0) } }

    /// Codes from the bytes of an output of `type`.
    static func codes(_ bytes: [UInt8], _ type: ElementType) -> [Int] {
        type == .uint8 ? bytes.map(Int.init) : bytes.map { Int(Int8(bitPattern: $0)) }
    }

    static func randomCodes(_ count: Int, _ type: ElementType, _ rng: inout SplitMix64) -> [Int] {
        let r = range(type)
        return (0 ..< count).map { _ in Int.random(in: r, using: &rng) }
    }

    /// A zero point that is often at an end of the range (the largest centered values).
    static func randomZeroPoint(_ type: ElementType, _ rng: inout SplitMix64) -> Int {
        let r = range(type)
        switch Int.random(in: 0 ..< 4, using: &rng) {
        case 0: return r.lowerBound
        case 1: return r.upperBound
        default: return Int.random(in: r, using: &rng)
        }
    }

    static func quantization(_ scales: [Float], _ zeroPoints: [Int], axis: Int = 0) -> Quantization {
        Quantization(scales: scales, zeroPoints: zeroPoints.map(Int64.init), quantizedDimension: axis)
    }

    /// Runs `g` with the given byte inputs, thread count and kernel level (nil: the
    /// host's); returns output 0's bytes and shape.
    static func run(
        _ g: GraphBuilder, _ inputs: [[UInt8]], threads: Int,
        level: KernelLevel? = nil
    ) throws -> (bytes: [UInt8], shape: [Int]) {
        let engine = try g.engine(threads: threads, level: level)
        try engine.allocate()
        for (i, values) in inputs.enumerated() { try engine.setInput(i, values) }
        try engine.invoke()
        return (try engine.output(0, as: UInt8.self), engine.outputShape(0))
    }

    /// Every kernel level this CPU runs, lowest first.
    static let levels = KernelLevel.allCases.filter { $0 <= KernelLevel.host }

    static let activations: [FusedActivation] = [.none, .relu, .relu6, .reluN1To1]
}

/// Random weights and quantization for one quantized conv-family operator.
struct QuantizedWeights {
    var type: ElementType
    var codes: [Int]
    var quantization: Quantization
    var biasValues: [Int32]?
    var biasQuantization: Quantization
    var inputQuantization: Quantization
    var outputQuantization: Quantization

    /// `channels` output channels along `axis` of a weights tensor of `count` values, with
    /// `depth` products per output (to size the output scale so outputs are spread).
    init(
        type: ElementType, count: Int, channels: Int, axis: Int, depth: Int, perChannel: Bool, bias: Bool,
        rng: inout SplitMix64
    ) {
        self.type = type
        let sIn = Float.random(in: 0.01 ... 0.05, using: &rng)
        let zx = QTest.randomZeroPoint(type, &rng)
        inputQuantization = QTest.quantization([sIn], [zx])
        var scales: [Float]
        if type == .uint8 {
            scales = [Float.random(in: 0.002 ... 0.02, using: &rng)]
            quantization = QTest.quantization(scales, [QTest.randomZeroPoint(type, &rng)])
            codes = QTest.randomCodes(count, type, &rng)
        } else {
            scales = (0 ..< (perChannel ? channels : 1)).map { _ in Float.random(in: 0.002 ... 0.02, using: &rng) }
            quantization = QTest.quantization(scales, [Int](repeating: 0, count: scales.count), axis: axis)
            codes = (0 ..< count).map { _ in Int.random(in: -127 ... 127, using: &rng) }
        }
        let biasScales = type == .uint8 ? [sIn * scales[0]] : scales.map { Float(Double(sIn) * Double($0)) }
        biasQuantization = QTest.quantization(biasScales, [Int](repeating: 0, count: biasScales.count))
        biasValues = bias ? (0 ..< channels).map { _ in Int32.random(in: -20_000 ... 20_000, using: &rng) } : nil
        let spread = Float(max(1, depth)).squareRoot() * 40 * Float.random(in: 0.5 ... 2, using: &rng)
        outputQuantization = QTest.quantization([sIn * scales[0] * spread], [QTest.randomZeroPoint(type, &rng)])
    }

    /// Adds the weights (constant, or a graph input when `constant` is false) and the bias
    /// to `g`; returns their tensor indices (bias -1 when absent).
    func add(to g: inout GraphBuilder, shape: [Int], constant: Bool) -> (weights: Int, bias: Int) {
        let w =
            constant
            ? g.constant(QTest.bytes(codes), shape: shape, type, quantization: quantization)
            : g.input(shape, type, quantization: quantization)
        let b = biasValues.map { g.constant($0, shape: [$0.count], .int32, quantization: biasQuantization) } ?? -1
        return (w, b)
    }
}
