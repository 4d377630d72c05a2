import TFLiteModel

/// The two 8-bit storage types of quantized activations and weights, with a vector load.
protocol Quantized8: QuantizedByte {
    /// Eight consecutive codes widened to `Int32` (unaligned load).
    static func widen8(_ p: UnsafePointer<Self>) -> SIMD8<Int32>
    /// Eight consecutive codes widened to `Int16` (unaligned load).
    static func widen8S16(_ p: UnsafePointer<Self>) -> SIMD8<Int16>
}

extension UInt8: Quantized8 {
    @inline(__always) static func widen8(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }
    @inline(__always) static func widen8S16(_ p: UnsafePointer<UInt8>) -> SIMD8<Int16> {
        SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }
}

extension Int8: Quantized8 {
    @inline(__always) static func widen8(_ p: UnsafePointer<Int8>) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int8>.self))
    }
    @inline(__always) static func widen8S16(_ p: UnsafePointer<Int8>) -> SIMD8<Int16> {
        SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int8>.self))
    }
}

/// Quantization parameters of a quantized CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED or
/// TRANSPOSE_CONV, validated at prepare the way TFLite's prepare functions do.
///
/// - Activations: per-tensor scale and zero point (inside the type's range); input,
///   weights and output share the 8-bit type; the bias is int32 with zero point 0.
/// - Legacy uint8: per-tensor weights with any zero point; the multiplier is
///   `Double(Float(s_in · s_w)) / Double(s_out)` (TFLite multiplies the scales in Float),
///   and the bias scale must satisfy `|s_in·s_w - s_bias| / s_out ≤ 0.02`.
/// - int8: symmetric weights (zero points 0), one scale for the tensor or one per output
///   channel along `channelAxis` (0 for OHWI filters and FC weights, 3 for depthwise
///   filters); multipliers `Double(s_in) · Double(s_w[c]) / Double(s_out)`.
/// - FULLY_CONNECTED requantizes in Double (``Requantizer/Mode/double``) and, with
///   per-tensor weights, checks the bias scale as above for both types.
struct QuantizedConvParams: Sendable {
    enum Kind: Sendable { case fixedPoint, fullyConnected }

    let inputZeroPoint: Int32
    let weightZeroPoint: Int32
    let requantizer: Requantizer

    static func make(
        _ context: PrepareContext, input: TensorState, weights: TensorState, bias: TensorState?,
        output: TensorState, activation: FusedActivation, channels: Int, channelAxis: Int,
        kind: Kind
    ) throws(KernelError) -> QuantizedConvParams {
        let type = input.type
        guard type == .uint8 || type == .int8, weights.type == type, output.type == type else {
            throw context.unsupportedTypes()
        }
        if let bias, bias.type != .int32 {
            throw .types("the bias of a \(type) operator must be INT32, found \(bias.type)")
        }
        let (qmin, qmax): (Int32, Int32) = type == .uint8 ? (0, 255) : (-128, 127)
        let (sIn, zIn) = try perTensor(input, "input", qmin: qmin, qmax: qmax)
        let (sOut, zOut) = try perTensor(output, "output", qmin: qmin, qmax: qmax)
        guard let wq = weights.quantization, !wq.scales.isEmpty, wq.zeroPoints.count == wq.scales.count else {
            throw .invalid("weights of type \(type) need quantization parameters (one zero point per scale)")
        }
        guard wq.scales.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw .invalid("weight scales must be finite and non-negative")
        }
        let perChannel = wq.scales.count > 1
        if perChannel {
            guard type == .int8 else { throw .invalid("per-channel weight quantization needs int8, found \(type)") }
            guard wq.scales.count == channels, wq.quantizedDimension == channelAxis else {
                throw .invalid(
                    "\(wq.scales.count) weight scales along dimension \(wq.quantizedDimension); expected \(channels) along dimension \(channelAxis)"
                )
            }
        }
        let weightZeroPoint: Int32
        if type == .int8 {
            guard wq.zeroPoints.allSatisfy({ $0 == 0 }) else {
                throw .invalid(
                    "int8 weights must be symmetric (zero point 0), found \(wq.zeroPoints.first(where: { $0 != 0 }) ?? 0)"
                )
            }
            weightZeroPoint = 0
        } else {
            guard let z = Int32(exactly: wq.zeroPoints[0]), (qmin ... qmax).contains(z) else {
                throw .invalid("weight zero point \(wq.zeroPoints[0]) is outside the uint8 range")
            }
            weightZeroPoint = z
        }
        if let bias, let bq = bias.quantization {
            guard bq.zeroPoints.allSatisfy({ $0 == 0 }) else { throw .invalid("the bias zero point must be 0") }
        }
        // TFLite's legacy check that the bias is in units of s_in·s_w (a missing bias
        // scale reads as 0, as in TFLite).
        if let bias, type == .uint8 || (kind == .fullyConnected && !perChannel) {
            let product = Double(sIn) * Double(wq.scales[0])
            let biasScale = Double(bias.quantization?.scales.first ?? 0)
            guard abs(product - biasScale) / Double(sOut) <= 0.02 else {
                throw .invalid(
                    "bias scale \(biasScale) differs from input scale × weight scale \(product) by more than 2% of the output scale \(sOut)"
                )
            }
        }
        guard let range = FixedPoint.activationRange(activation, scale: sOut, zeroPoint: zOut, qmin: qmin, qmax: qmax)
        else {
            throw .invalid("fused activation \(activation.name) is not supported")
        }
        let scaleOf = { (c: Int) -> Float in perChannel ? wq.scales[c] : wq.scales[0] }
        let mode: Requantizer.Mode
        switch (context.requantization, kind) {
        case (.float32, _):
            // As XNNPACK computes it: in Float, the scales' product first.
            let scales = (0 ..< channels).map { sIn * scaleOf($0) / sOut }
            guard scales.allSatisfy(\.isFinite) else { throw .invalid("a requantization scale is not finite in Float") }
            mode = .float32(scales: scales)
        case (.exact, .fullyConnected):
            mode = .double(scales: (0 ..< channels).map { Double(sIn) * Double(scaleOf($0)) / Double(sOut) })
        case (.exact, .fixedPoint):
            var mantissas: [Int32] = [], exponents: [Int] = []
            for c in 0 ..< channels {
                let real =
                    type == .uint8
                    ? Double(sIn * wq.scales[0]) / Double(sOut)
                    : Double(sIn) * Double(scaleOf(c)) / Double(sOut)
                let (m, e) = FixedPoint.quantizeMultiplier(real)
                // Larger left shifts would overflow every accumulator but 0.
                guard e <= 30 else { throw .invalid("requantization multiplier \(real) is too large") }
                // Scales are checked positive above, so this holds; the fast path relies on it.
                guard m >= 0 else { throw .invalid("requantization multiplier \(real) is negative") }
                mantissas.append(m)
                exponents.append(e)
            }
            mode = .fixedPoint(mantissas: mantissas, exponents: exponents)
        }
        return QuantizedConvParams(
            inputZeroPoint: zIn, weightZeroPoint: weightZeroPoint,
            requantizer: Requantizer(
                mode: mode, outputZeroPoint: zOut,
                lower: range.lower, upper: range.upper,
                level: context.kernelLevel))
    }

    /// Per-tensor scale and zero point of an activation tensor.
    static func perTensor(_ t: TensorState, _ role: String, qmin: Int32, qmax: Int32) throws(KernelError) -> (
        Float, Int32
    ) {
        guard let q = t.quantization, q.scales.count == 1, q.zeroPoints.count == 1 else {
            throw .invalid("the \(role) of type \(t.type) needs one scale and one zero point")
        }
        guard q.scales[0].isFinite, q.scales[0] > 0 else {
            throw .invalid("the \(role) scale must be positive, found \(q.scales[0])")
        }
        guard let z = Int32(exactly: q.zeroPoints[0]), (qmin ... qmax).contains(z) else {
            throw .invalid("the \(role) zero point \(q.zeroPoints[0]) is outside the \(t.type) range")
        }
        return (q.scales[0], z)
    }

    /// Largest `|code - zeroPoint|` of the type.
    static func maxCentered<T: Quantized8>(_: T.Type, zeroPoint: Int32) -> Int {
        Swift.max(Int(zeroPoint) - Int(T.min), Int(T.max) - Int(zeroPoint))
    }
}

/// Exact integer GEMM on BLAS: `acc[i, j] = Σ_k a[i, k] · b[j, k]` where `a` and `b` hold
/// small integers as Float (centered 8-bit codes, `|v| ≤ 255`).
///
/// A single-precision sum of such products is exact while every partial sum stays below
/// 2^24 in magnitude, whatever the order of summation and whether or not BLAS fuses
/// multiply-adds. So the inner dimension is cut into chunks of `chunk` products with
/// `chunk · max|a| · max|b| < 2^24`; each chunk is one `sgemm` whose (exact, integral)
/// result is converted to `Int32` and added with wrap-around, like TFLite's `int32`
/// accumulator. Results are bit-identical to the integer loops for any tiling.
struct ExactGEMM: Sendable {
    let chunk: Int

    init(maxAbsA: Int, maxAbsB: Int) {
        let product = Swift.max(1, maxAbsA) * Swift.max(1, maxAbsB)
        chunk = Swift.max(1, ((1 << 24) - 1) / product)
    }

    /// `acc[m×n]` (row stride `ldacc`) `= A[m×k] · B[n×k]ᵀ`; `temp` holds `m·n` floats.
    /// Single-threaded; callers split tiles over threads.
    @inline(__always)
    func run(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        temp: UnsafeMutablePointer<Float>, acc: UnsafeMutablePointer<Int32>, ldacc: Int
    ) {
        guard m > 0, n > 0 else { return }
        if k <= 0 { for i in 0 ..< m { (acc + i * ldacc).update(repeating: 0, count: n) } }
        var k0 = 0
        while k0 < k {
            let kc = Swift.min(chunk, k - k0)
            sgemm(m: m, n: n, k: kc, a: a + k0, lda: lda, b: b + k0, ldb: ldb, transposeB: true, c: temp, ldc: n)
            // t[j] is an exact integer, |t[j]| < 2^24: adding 1.5·2^52 in Double puts it
            // in the low mantissa bits (two's complement), a conversion without range
            // checks that vectorizes. The first chunk stores, so `acc` needs no clearing.
            @inline(__always) func exact(_ t: Float) -> Int32 {
                Int32(truncatingIfNeeded: (Double(t) + 6_755_399_441_055_744.0).bitPattern)
            }
            for i in 0 ..< m {
                let row = acc + i * ldacc, t = temp + i * n
                if k0 == 0 {
                    for j in 0 ..< n { row[j] = exact(t[j]) }
                } else {
                    for j in 0 ..< n { row[j] = row[j] &+ exact(t[j]) }
                }
            }
            k0 += kc
        }
    }
}

/// The largest `|w - zw|` of the weights (sizes ``ExactGEMM``'s chunks): from the codes'
/// range, `max(maxCode - zw, zw - minCode)`, a byte min/max loop that vectorizes.
func centeredMagnitude<T: Quantized8>(_ weights: UnsafeBufferPointer<T>, zeroPoint: Int32) -> Int {
    guard let w = weights.baseAddress, !weights.isEmpty else { return 0 }
    var lowest = T.max, highest = T.min
    for i in 0 ..< weights.count {
        lowest = Swift.min(lowest, w[i])
        highest = Swift.max(highest, w[i])
    }
    let largest = Swift.max(
        Int32(truncatingIfNeeded: highest) - zeroPoint, zeroPoint - Int32(truncatingIfNeeded: lowest))
    return Int(Swift.max(largest, 0))
}

/// Writes the centered weights `w - zw` as Float (exact: `|v| ≤ 255`), the operand rows
/// of ``ExactGEMM``.
func centerWeights<T: Quantized8>(
    _ weights: UnsafeBufferPointer<T>, zeroPoint: Int32, into out: UnsafeMutablePointer<Float>
) {
    guard let w = weights.baseAddress else { return }
    for i in 0 ..< weights.count {
        out[i] = Float(Int32(truncatingIfNeeded: w[i]) &- zeroPoint)
    }
}

/// An element type of centered im2col rows: `Float` for the BLAS GEMM, `Int16` for the
/// integer GEMMs. Centered codes (`|v| ≤ 255`) are exact in both.
protocol CenteredCode {
    /// `v`, a centered code, as this type (exact).
    static func centered(_ v: Int32) -> Self
}

extension Float: CenteredCode {
    @inline(__always) static func centered(_ v: Int32) -> Float { Float(v) }
}

extension Int16: CenteredCode {
    @inline(__always) static func centered(_ v: Int32) -> Int16 { Int16(truncatingIfNeeded: v) }
}

/// `out[i] = x[i] - zx`, exact. A plain loop, which LLVM vectorizes (a 256-entry table
/// lookup per code was three scalar instructions a code).
@inline(__always)
func centerCodes<T: Quantized8, E: CenteredCode>(
    _ x: UnsafePointer<T>, count: Int, zeroPoint zx: Int32,
    into out: UnsafeMutablePointer<E>
) {
    for i in 0 ..< count { out[i] = E.centered(Int32(truncatingIfNeeded: x[i]) &- zx) }
}

/// The receptive field of output pixel `pixel` (flattened `(b, oy, ox)`) over input
/// channels `firstChannel ..< firstChannel + channels`, as `kh·kw·channels` centered
/// values ordered `(ky, kx, channel)`; taps in the padding are `zero`, the element that
/// stands for the code `zx` (centered: 0, what skipping them means).
/// `center(src, n, dst)` converts the `n` codes of one in-image tap (``centerCodes`` with
/// the input's zero point, or a level's microkernel).
@inline(__always)
func im2colRow<T: Quantized8, E>(
    _ g: Conv2DGeometry, pixel: Int, firstChannel: Int, channels cg: Int,
    _ x: UnsafePointer<T>, into col: UnsafeMutablePointer<E>, zero: E,
    center: (UnsafePointer<T>, Int, UnsafeMutablePointer<E>) -> Void
) {
    let perImage = g.outH * g.outW
    let b = pixel / perImage
    let oy = (pixel % perImage) / g.outW
    let ox = pixel % g.outW
    let iy0 = oy * g.strideH - g.padTop
    let ix0 = ox * g.strideW - g.padLeft
    for ky in 0 ..< g.kh {
        let dst = col + ky * g.kw * cg
        let iy = iy0 + ky * g.dilationH
        guard iy >= 0, iy < g.inH else {
            dst.update(repeating: zero, count: g.kw * cg)
            continue
        }
        let row = x + ((b * g.inH + iy) * g.inW) * g.inC + firstChannel
        if cg == g.inC, g.dilationW == 1 {
            // All channels, no horizontal dilation: the in-image taps of this filter row are
            // one run of the input row, centered in one call (a stem convolution's 3
            // channels a tap would otherwise be a call per tap).
            let kx0 = Swift.min(g.kw, Swift.max(0, -ix0)), kx1 = Swift.max(kx0, Swift.min(g.kw, g.inW - ix0))
            // The fills are skipped when empty, as they are for interior pixels: each is a
            // `memset` call otherwise, a stem convolution's largest cost per pixel.
            if kx0 > 0 { dst.update(repeating: zero, count: kx0 * cg) }
            if kx1 > kx0 { center(row + (ix0 + kx0) * g.inC, (kx1 - kx0) * cg, dst + kx0 * cg) }
            if kx1 < g.kw { (dst + kx1 * cg).update(repeating: zero, count: (g.kw - kx1) * cg) }
            continue
        }
        for kx in 0 ..< g.kw {
            let ix = ix0 + kx * g.dilationW
            let d = dst + kx * cg
            if ix >= 0, ix < g.inW {
                center(row + ix * g.inC, cg, d)
            } else {
                d.update(repeating: zero, count: cg)
            }
        }
    }
}

extension PrepareContext {
    /// The centered Float copy of 8-bit constant weights (``centerWeights``), packed with
    /// the graph's other constants; its ``PackedBuffer/derived`` is the largest `|w - zw|`
    /// (``centeredMagnitude``, taken after the conversion, while the codes are in cache).
    /// Once converted, the weights' file pages are released: the kernel reads only the copy.
    func packCenteredWeights<T: Quantized8>(
        _ constant: ConstantBytes, as _: T.Type,
        zeroPoint: Int32
    ) throws(KernelError) -> PackedBuffer {
        let weights = constant.typed(T.self)
        let bytes = try ConvCheck.product([weights.count, MemoryLayout<Float>.stride], "packed weights")
        return try pack(bytes: bytes) { pointer in
            centerWeights(weights, zeroPoint: zeroPoint, into: pointer.assumingMemoryBound(to: Float.self))
            let magnitude = centeredMagnitude(weights, zeroPoint: zeroPoint)
            constant.releasePages()
            return magnitude
        }
    }
}

extension EvalContext {
    /// The int32 data of an optional tensor captured at prepare.
    @inline(__always)
    func optionalInt32s(_ index: Int?) -> UnsafePointer<Int32>? {
        index.map { UnsafePointer(pointer($0, as: Int32.self)) }
    }
}
