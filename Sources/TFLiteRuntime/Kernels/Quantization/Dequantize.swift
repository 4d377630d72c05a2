import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

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
                storage: .int8, input: input.index, output: output.index, layout: try AffineLayout(input),
                level: context.kernelLevel)
        case .uint8:
            return DequantizeAffine(
                storage: .uint8, input: input.index, output: output.index, layout: try AffineLayout(input),
                level: context.kernelLevel)
        case .int16:
            return DequantizeAffine(
                storage: .int16, input: input.index, output: output.index, layout: try AffineLayout(input),
                level: context.kernelLevel)
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
    /// Every `|q - zeroPoint|` is below 2^24 (zero points within ±2^23), so the Float
    /// product is the reference's (see `run`).
    let floatExact: Bool
    /// Per-tensor 8-bit input at `avx2` and up: `dequantizeQ8AVX2`.
    let vector: Bool

    init(storage: Storage, input: Int, output: Int, layout: AffineLayout, level: KernelLevel) {
        (self.storage, self.input, self.output, self.layout) = (storage, input, output, layout)
        floatExact = layout.zeroPoints.allSatisfy { Swift.abs($0) <= 1 << 23 }
        vector = floatExact && level >= .avx2 && level.hasVectorKernels && storage != .int16 && layout.channels == 1
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        switch storage {
        case .int8: run(context, Int8.self)
        case .uint8: run(context, UInt8.self)
        case .int16: run(context, Int16.self)
        }
    }

    /// The reference forms `scale · (q - zeroPoint)` in Double and rounds it to Float. When
    /// `|q - zeroPoint| < 2^24` (``floatExact``), that product of the Float scale and an
    /// integer exact in Float is exact in Double, so rounding it once is the Float
    /// multiplication `scale · Float(q - zeroPoint)`: the same bits, in a loop that
    /// vectorizes eight lanes wide where the Double one had four. Other zero points take
    /// the Double form (32-bit codes and a Double subtraction, which vectorizes at the
    /// baseline: there is no packed Int64 → Double conversion before AVX-512). Per-tensor
    /// inputs split over the threads.
    private func run<Q: QuantizedStorage>(_ context: EvalContext, _: Q.Type) {
        let x = context.pointer(input, as: Q.self)
        let y = context.pointer(output, as: Float.self)
        let l = layout
        if !floatExact {
            runDouble(x, y)
            return
        }
        if l.channels == 1, let first = l.scales.first, let zero = l.zeroPoints.first {
            let scale = first, zeroPoint = Int32(truncatingIfNeeded: zero)
            #if arch(x86_64)
            if vector {
                let signed = storage == .int8
                context.parallel.forEachChunk(l.outer * l.inner, cost: 4) { range in
                    dequantizeQ8AVX2(
                        UnsafeRawPointer(x + range.lowerBound), y + range.lowerBound, count: range.count,
                        scale: scale, zeroPoint: zeroPoint, signed: signed)
                }
                return
            }
            #endif
            context.parallel.forEachChunk(l.outer * l.inner, cost: 4) { range in
                for i in range { y[i] = scale * Float(x[i].code &- zeroPoint) }
            }
            return
        }
        l.scales.withUnsafeBufferPointer { scales in
            l.zeroPoints.withUnsafeBufferPointer { zeroPoints in
                var i = 0
                for _ in 0 ..< l.outer {
                    for c in 0 ..< l.channels {
                        let scale = scales[c], zeroPoint = Int32(truncatingIfNeeded: zeroPoints[c])
                        for _ in 0 ..< l.inner {
                            y[i] = scale * Float(x[i].code &- zeroPoint)
                            i += 1
                        }
                    }
                }
            }
        }
    }
}

extension DequantizeAffine {
    /// The reference's Double arithmetic, for zero points far outside the codes' range.
    private func runDouble<Q: QuantizedStorage>(_ x: UnsafeMutablePointer<Q>, _ y: UnsafeMutablePointer<Float>) {
        let l = layout
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
