import TFLiteModel

/// DEQUANTIZE to float32.
///
/// - float16 → float32: exact widening (the float16-weights pattern: with a constant
///   input, constant folding runs this once at prepare).
/// - int8 / uint8 / int16 → float32: `f = scale · (q - zeroPoint)`, per tensor or per slice
///   of `quantizedDimension`. The product is formed in Double from the Float scale and
///   rounded once to Float, as TFLite's reference kernel does; its per-channel kernel
///   multiplies in Float, which gives the same value whenever `|q - zeroPoint| ≤ 2^24`
///   (always, for zero points inside the type's range).
enum Dequantize {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        // TFLite's DEQUANTIZE makes its output FLOAT32 at prepare, whatever the file says.
        try context.deriveOutputType(0, .float32)
        let output = try context.output(0)
        guard output.type == .float32 else { throw context.unsupportedTypes() }
        try context.setOutputShape(0, input.shape)
        let count = input.elementCount
        switch input.type {
        case .float16:
            return DequantizeF16(input: input.index, output: output.index, count: count)
        case .int8:
            return DequantizeAffine(
                storage: .int8, input: input.index, output: output.index, layout: try AffineLayout(input))
        case .uint8:
            return DequantizeAffine(
                storage: .uint8, input: input.index, output: output.index, layout: try AffineLayout(input))
        case .int16:
            return DequantizeAffine(
                storage: .int16, input: input.index, output: output.index, layout: try AffineLayout(input))
        default:
            throw context.unsupportedTypes()
        }
    }
}

/// Scales and zero points of a quantized tensor, laid out for a loop over
/// `outer × channels × inner` elements (channels = 1 for per-tensor quantization).
struct AffineLayout {
    var outer: Int
    var channels: Int
    var inner: Int
    var scales: [Float]
    var zeroPoints: [Int64]

    init(_ tensor: TensorState) throws(KernelError) {
        guard let q = tensor.quantization, !q.scales.isEmpty else {
            throw .invalid("input of type \(tensor.type) has no quantization parameters")
        }
        guard q.zeroPoints.count == q.scales.count else {
            throw .invalid("input has \(q.scales.count) scales but \(q.zeroPoints.count) zero points")
        }
        // Zero points are 32-bit in TFLite; larger ones cannot come from a valid converter.
        guard q.zeroPoints.allSatisfy({ Int32(exactly: $0) != nil }) else {
            throw .invalid("a zero point does not fit in 32 bits")
        }
        let count = tensor.elementCount
        if q.scales.count == 1 {
            outer = 1; channels = 1; inner = count
        } else {
            let d = q.quantizedDimension
            guard d >= 0, d < tensor.rank else {
                throw .invalid("quantized dimension \(d) is outside the input's rank \(tensor.rank)")
            }
            guard tensor.shape[d] == q.scales.count else {
                throw .invalid("\(q.scales.count) per-channel scales for dimension \(d) of size \(tensor.shape[d])")
            }
            outer = tensor.shape[..<d].reduce(1, *)
            channels = tensor.shape[d]
            inner = tensor.shape[(d + 1)...].reduce(1, *)
        }
        scales = q.scales
        zeroPoints = q.zeroPoints
    }
}

/// A stored integer type that DEQUANTIZE reads.
protocol QuantizedStorage {
    var code: Int32 { get }
}
extension Int8: QuantizedStorage { var code: Int32 { Int32(self) } }
extension UInt8: QuantizedStorage { var code: Int32 { Int32(self) } }
extension Int16: QuantizedStorage { var code: Int32 { Int32(self) } }

struct DequantizeAffine: PreparedKernel {
    enum Storage { case int8, uint8, int16 }
    /// The input's code type. Not a generic parameter: the witness of a generic kernel's
    /// `eval` is the unspecialized body, which read each code and called `code`
    /// through witnesses; `eval` dispatches to the
    /// specializations of `run` instead.
    let storage: Storage
    let input: Int
    let output: Int
    let layout: AffineLayout

    func eval(_ context: EvalContext) throws(KernelError) {
        switch storage {
        case .int8: run(context, Int8.self)
        case .uint8: run(context, UInt8.self)
        case .int16: run(context, Int16.self)
        }
    }

    /// `Float(scale · (Double(q) - Double(zeroPoint)))`: the difference is exact in Double
    /// (both terms are below 2^32), so this is the reference's `scale · (q - zeroPoint)`
    /// formed in Double. Written with 32-bit codes and Double subtraction rather than a
    /// 64-bit difference, the loop vectorizes at the baseline x86-64 level (there is no
    /// packed Int64 → Double conversion before AVX-512): SSD MobileNet v2 int8's
    /// 1917 × 91 scores took 0.156 ms element by element. Per-tensor inputs split over
    /// the threads.
    private func run<Q: QuantizedStorage>(_ context: EvalContext, _: Q.Type) {
        let x = context.pointer(input, as: Q.self)
        let y = context.pointer(output, as: Float.self)
        let l = layout
        if l.channels == 1, let first = l.scales.first, let zero = l.zeroPoints.first {
            let scale = Double(first), zeroPoint = Double(zero)
            context.parallel.forEachChunk(l.outer * l.inner, cost: 4) { range in
                for i in range { y[i] = Float(scale * (Double(x[i].code) - zeroPoint)) }
            }
            return
        }
        l.scales.withUnsafeBufferPointer { scales in
            l.zeroPoints.withUnsafeBufferPointer { zeroPoints in
                var i = 0
                for _ in 0 ..< l.outer {
                    for c in 0 ..< l.channels {
                        let scale = Double(scales[c]), zeroPoint = Double(zeroPoints[c])
                        for _ in 0 ..< l.inner {
                            y[i] = Float(scale * (Double(x[i].code) - zeroPoint))
                            i += 1
                        }
                    }
                }
            }
        }
    }
}

struct DequantizeF16: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(input, as: UInt16.self)
        let y = context.pointer(output, as: Float.self)
        for i in 0 ..< count { y[i] = HalfPrecision.float(fromBits: x[i]) }
    }
}
