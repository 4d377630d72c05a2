import TFLiteModel

/// The two 8-bit storage types of quantized activations and weights.
protocol Quantized8: FixedWidthInteger, Sendable {
    /// Position of the code in a 256-entry table (the byte's bit pattern).
    var tableIndex: Int { get }
    /// Eight consecutive codes widened to `Int32` (unaligned load).
    static func widen8(_ p: UnsafePointer<Self>) -> SIMD8<Int32>
}

extension UInt8: Quantized8 {
    @inline(__always) var tableIndex: Int { Int(self) }
    @inline(__always) static func widen8(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }
}

extension Int8: Quantized8 {
    @inline(__always) var tableIndex: Int { Int(UInt8(bitPattern: self)) }
    @inline(__always) static func widen8(_ p: UnsafePointer<Int8>) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int8>.self))
    }
}

/// How an `Int32` accumulator becomes an output code.
///
/// - `fixedPoint`: TFLite's `MultiplyByQuantizedMultiplier` with a Q31 mantissa and
///   exponent per output channel (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV).
/// - `double`: `round(Double(acc) · scale)`, ties away from zero, with
///   `scale = Double(s_in) · Double(s_w[c]) / Double(s_out)`: what LiteRT's reference
///   FULLY_CONNECTED kernels do (they requantize in floating point).
///
/// Then the output zero point is added and the result clamped to the fused activation's
/// range. The sum is formed in `Int64`, so values TFLite would overflow saturate instead.
struct Requantizer: Sendable {
    enum Mode: Sendable {
        case fixedPoint(mantissas: [Int32], exponents: [Int])
        case double(scales: [Double])
    }
    /// Per-channel parameters of the mode in use (the other arrays are empty), kept as
    /// plain arrays so that the per-element path does no enum payload copies.
    let floating: Bool
    let mantissas: [Int32]
    let exponents: [Int]
    let scales: [Double]
    /// `mantissas` and `exponents` precomputed for the per-element path.
    let fixed: [FixedChannel]
    let outputZeroPoint: Int32
    let lower: Int32
    let upper: Int32

    init(mode: Mode, outputZeroPoint: Int32, lower: Int32, upper: Int32) {
        switch mode {
        case let .fixedPoint(m, e): (floating, mantissas, exponents, scales) = (false, m, e, [])
        case let .double(s): (floating, mantissas, exponents, scales) = (true, [], [], s)
        }
        self.outputZeroPoint = outputZeroPoint
        self.lower = lower
        self.upper = upper
        fixed = zip(mantissas, exponents).map { FixedChannel(mantissa: $0, exponent: $1) }
    }

    /// One channel's `MultiplyByQuantizedMultiplier`, rewritten as a few branch-free
    /// `Int64` operations (``FixedChannel/apply(_:)``) that give the same bits.
    struct FixedChannel: Sendable {
        /// The mantissa `M ∈ [0, 2^31)` (never `Int32.min`, so the saturating case of
        /// `SaturatingRoundingDoublingHighMul` cannot occur).
        let mantissa: Int64
        /// `max(e, 0)`: the wrapping `Int32` left shift applied first.
        let left: Int32
        /// `max(-e, 0)`: the rounding right shift applied last.
        let right: Int64
        /// `2^(right-1)` when `right > 0`, else 0.
        let half: Int64
        /// All ones when `right > 0` (negative values round with one less), else 0.
        let negative: Int64

        /// `m` must be non-negative: `QuantizedConvParams.make` (the only source of
        /// mantissas) rejects a negative one at prepare with a typed error.
        init(mantissa m: Int32, exponent e: Int) {
            mantissa = Int64(m)
            left = Int32(Swift.max(e, 0))
            let r = Swift.max(-e, 0)
            right = Int64(r)
            half = r > 0 ? Int64(1) << (r - 1) : 0
            negative = r > 0 ? -1 : 0
        }

        /// `FixedPoint.multiplyByQuantizedMultiplier(x, M, e)`, bit for bit:
        /// - `SaturatingRoundingDoublingHighMul(s, M)` with `s = x << left` and `M ≥ 0` is
        ///   `trunc((s·M + nudge) / 2^31)` with nudge `2^30` (`s·M ≥ 0`) or `1 - 2^30`;
        ///   both cases equal `floor((s·M + 2^30) / 2^31)`, an arithmetic shift.
        /// - `RoundingDivideByPOT(h, r)` (ties away from zero) is
        ///   `floor((h + 2^(r-1) - [h < 0]) / 2^r)` for `r > 0`, and `h` for `r = 0`.
        @inline(__always)
        func apply(_ x: Int32) -> Int64 {
            let s = Int64(x &<< left)
            let h = (s &* mantissa &+ (1 << 30)) &>> 31
            return (h &+ half &+ ((h &>> 63) & negative)) &>> right
        }
    }

    @inline(__always)
    func apply(_ acc: Int32, channel: Int) -> Int32 {
        let scaled: Int64
        if floating {
            let v = (Double(acc) * scales[channel]).rounded(.toNearestOrAwayFromZero)
            scaled = Int64(Swift.max(Swift.min(v, 4.0e9), -4.0e9))
        } else {
            scaled = fixed[channel].apply(acc)
        }
        let shifted = scaled + Int64(outputZeroPoint)
        return Int32(Swift.min(Swift.max(shifted, Int64(lower)), Int64(upper)))
    }

    /// Requantizes `count` accumulators of consecutive channels `firstChannel...` (plus
    /// `bias[channel]` when given) into `output`. Same arithmetic as `apply`, with the
    /// mode test and the array accesses hoisted out of the loop.
    @inline(__always)
    func store<T: Quantized8>(_ acc: UnsafePointer<Int32>, count: Int, firstChannel: Int,
                              bias: UnsafePointer<Int32>?, into output: UnsafeMutablePointer<T>) {
        guard count > 0 else { return }
        let zero = Int64(outputZeroPoint), lo = Int64(lower), hi = Int64(upper)
        // Branch-free clamp (`min`/`max` compile to branches here, which mispredict on
        // ReLU outputs): `max(v, lo) = lo + (d & ~(d >> 63))` with `d = v - lo`, and alike.
        @inline(__always) func finish(_ scaled: Int64) -> T {
            let v = scaled &+ zero
            let d = v &- lo
            let atLeast = lo &+ (d & ~(d &>> 63))
            let e = hi &- atLeast
            return T(truncatingIfNeeded: hi &- (e & ~(e &>> 63)))
        }
        let b = bias.map { $0 + firstChannel }
        if floating {
            scales.withUnsafeBufferPointer { s in
                for j in 0 ..< count {
                    let a = b.map { acc[j] &+ $0[j] } ?? acc[j]
                    let v = (Double(a) * s[firstChannel + j]).rounded(.toNearestOrAwayFromZero)
                    output[j] = finish(Int64(Swift.max(Swift.min(v, 4.0e9), -4.0e9)))
                }
            }
        } else {
            // Two passes over blocks of 64: the scalar Int64 rounding into Int32 (|r| ≤ 2^31,
            // exact), then the clamp and narrowing, which LLVM vectorizes (as scalar code its
            // min/max become branches that mispredict on ReLU outputs).
            // clamp(r + zp, lo, hi) = clamp(r, lo - zp, hi - zp) + zp, with no overflow.
            let lo32 = Int32(lo - zero), hi32 = Int32(hi - zero), zp32 = Int32(zero)
            fixed.withUnsafeBufferPointer { q in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { tmp in
                    let r = tmp.baseAddress!
                    var j0 = 0
                    while j0 < count {
                        let n = Swift.min(64, count - j0)
                        let q = q.baseAddress! + firstChannel + j0, a = acc + j0
                        if let b {
                            let b = b + j0
                            for j in 0 ..< n { r[j] = Int32(truncatingIfNeeded: q[j].apply(a[j] &+ b[j])) }
                        } else {
                            for j in 0 ..< n { r[j] = Int32(truncatingIfNeeded: q[j].apply(a[j])) }
                        }
                        let o = output + j0
                        for j in 0 ..< n {
                            var v = r[j]
                            v = v < lo32 ? lo32 : v
                            v = v > hi32 ? hi32 : v
                            o[j] = T(truncatingIfNeeded: v &+ zp32)
                        }
                        j0 += n
                    }
                }
            }
        }
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

    static func make(_ context: PrepareContext, input: TensorState, weights: TensorState, bias: TensorState?,
                     output: TensorState, activation: FusedActivation, channels: Int, channelAxis: Int,
                     kind: Kind) throws(KernelError) -> QuantizedConvParams {
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
                throw .invalid("\(wq.scales.count) weight scales along dimension \(wq.quantizedDimension); expected \(channels) along dimension \(channelAxis)")
            }
        }
        let weightZeroPoint: Int32
        if type == .int8 {
            guard wq.zeroPoints.allSatisfy({ $0 == 0 }) else {
                throw .invalid("int8 weights must be symmetric (zero point 0), found \(wq.zeroPoints.first(where: { $0 != 0 }) ?? 0)")
            }
            weightZeroPoint = 0
        } else {
            guard let z = Int32(exactly: wq.zeroPoints[0]), (qmin...qmax).contains(z) else {
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
                throw .invalid("bias scale \(biasScale) differs from input scale × weight scale \(product) by more than 2% of the output scale \(sOut)")
            }
        }
        guard let range = FixedPoint.activationRange(activation, scale: sOut, zeroPoint: zOut, qmin: qmin, qmax: qmax) else {
            throw .invalid("fused activation \(activation.name) is not supported")
        }
        let scaleOf = { (c: Int) -> Float in perChannel ? wq.scales[c] : wq.scales[0] }
        let mode: Requantizer.Mode
        switch kind {
        case .fullyConnected:
            mode = .double(scales: (0 ..< channels).map { Double(sIn) * Double(scaleOf($0)) / Double(sOut) })
        case .fixedPoint:
            var mantissas: [Int32] = [], exponents: [Int] = []
            for c in 0 ..< channels {
                let real = type == .uint8
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
        return QuantizedConvParams(inputZeroPoint: zIn, weightZeroPoint: weightZeroPoint,
                                   requantizer: Requantizer(mode: mode, outputZeroPoint: zOut,
                                                            lower: range.lower, upper: range.upper))
    }

    /// Per-tensor scale and zero point of an activation tensor.
    static func perTensor(_ t: TensorState, _ role: String, qmin: Int32, qmax: Int32) throws(KernelError) -> (Float, Int32) {
        guard let q = t.quantization, q.scales.count == 1, q.zeroPoints.count == 1 else {
            throw .invalid("the \(role) of type \(t.type) needs one scale and one zero point")
        }
        guard q.scales[0].isFinite, q.scales[0] > 0 else { throw .invalid("the \(role) scale must be positive, found \(q.scales[0])") }
        guard let z = Int32(exactly: q.zeroPoints[0]), (qmin...qmax).contains(z) else {
            throw .invalid("the \(role) zero point \(q.zeroPoints[0]) is outside the \(t.type) range")
        }
        return (q.scales[0], z)
    }

    /// `Float(code - zeroPoint)` for every code, indexed by `Quantized8.tableIndex`.
    static func centeredTable<T: Quantized8>(_: T.Type, zeroPoint: Int32) -> [Float] {
        var table = [Float](repeating: 0, count: 256)
        for v in Int(T.min) ... Int(T.max) {
            let code = T(truncatingIfNeeded: v)
            table[code.tableIndex] = Float(Int32(v) - zeroPoint)
        }
        return table
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
    func run(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
             temp: UnsafeMutablePointer<Float>, acc: UnsafeMutablePointer<Int32>, ldacc: Int) {
        guard m > 0, n > 0 else { return }
        for i in 0 ..< m { (acc + i * ldacc).update(repeating: 0, count: n) }
        var k0 = 0
        while k0 < k {
            let kc = Swift.min(chunk, k - k0)
            sgemm(m: m, n: n, k: kc, a: a + k0, lda: lda, b: b + k0, ldb: ldb, transposeB: true, c: temp, ldc: n)
            for i in 0 ..< m {
                let row = acc + i * ldacc, t = temp + i * n
                // t[j] is an exact integer, |t[j]| < 2^24: adding 1.5·2^52 in Double puts it
                // in the low mantissa bits (two's complement), a conversion without range
                // checks that vectorizes.
                for j in 0 ..< n {
                    row[j] = row[j] &+ Int32(truncatingIfNeeded: (Double(t[j]) + 6_755_399_441_055_744.0).bitPattern)
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
    let largest = Swift.max(Int32(truncatingIfNeeded: highest) - zeroPoint, zeroPoint - Int32(truncatingIfNeeded: lowest))
    return Int(Swift.max(largest, 0))
}

/// Writes the centered weights `w - zw` as Float (exact: `|v| ≤ 255`), the operand rows
/// of ``ExactGEMM``.
func centerWeights<T: Quantized8>(_ weights: UnsafeBufferPointer<T>, zeroPoint: Int32, into out: UnsafeMutablePointer<Float>) {
    guard let w = weights.baseAddress else { return }
    for i in 0 ..< weights.count {
        out[i] = Float(Int32(truncatingIfNeeded: w[i]) &- zeroPoint)
    }
}

extension PrepareContext {
    /// The centered Float copy of 8-bit constant weights (``centerWeights``), packed with
    /// the graph's other constants; its ``PackedBuffer/derived`` is the largest `|w - zw|`
    /// (``centeredMagnitude``, taken after the conversion, while the codes are in cache).
    /// Once converted, the weights' file pages are released: the kernel reads only the copy.
    func packCenteredWeights<T: Quantized8>(_ constant: ConstantBytes, as _: T.Type,
                                            zeroPoint: Int32) throws(KernelError) -> PackedBuffer {
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

/// Splits `count` items over at most `threads` workers, each a contiguous block, and calls
/// `body(worker, range)`; `worker` indexes per-worker scratch. The split may depend on the
/// thread count: kernels using it compute every output exactly, whatever the block.
func forEachWorker(_ parallel: Parallel, _ count: Int, _ body: (Int, Range<Int>) -> Void) {
    guard count > 0 else { return }
    let workers = Swift.min(parallel.threadCount, count)
    parallel.forEachChunk(workers) { ws in
        for w in ws { body(w, count * w / workers ..< count * (w + 1) / workers) }
    }
}
