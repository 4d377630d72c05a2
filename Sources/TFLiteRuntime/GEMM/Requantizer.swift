import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// How an `Int32` accumulator becomes an output code.
///
/// - `fixedPoint`: TFLite's `MultiplyByQuantizedMultiplier` with a Q31 mantissa and
///   exponent per output channel (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV).
/// - `double`: `round(Double(acc) · scale)`, ties away from zero, with
///   `scale = Double(s_in) · Double(s_w[c]) / Double(s_out)`: what LiteRT's reference
///   FULLY_CONNECTED kernels do (they requantize in floating point).
/// - `float32` (opt-in, ``Requantization/float32``): XNNPACK's `Float(acc) · scale` with a
///   `Float` scale, clamped, then rounded to nearest with ties to even.
///
/// Then the output zero point is added and the result clamped to the fused activation's
/// range. The sum is formed in `Int64`, so values TFLite would overflow saturate instead.
struct Requantizer: Sendable {
    enum Mode: Sendable {
        case fixedPoint(mantissas: [Int32], exponents: [Int])
        case double(scales: [Double])
        case float32(scales: [Float])
    }
    enum Arithmetic: Sendable { case fixedPoint, double, float32 }
    /// Per-channel parameters of the mode in use (the other arrays are empty), kept as
    /// plain arrays so that the per-element path does no enum payload copies.
    let arithmetic: Arithmetic
    let mantissas: [Int32]
    let exponents: [Int]
    let scales: [Double]
    let floatScales: [Float]
    /// `mantissas` and `exponents` precomputed for the per-element path.
    let fixed: [FixedChannel]
    /// The same for the eight-lane path (nil for the floating modes).
    let lanes: FixedChannelLanes?
    /// Per-channel left and right shifts (`max(e, 0)`, `max(-e, 0)`) for the levels whose
    /// lanes shift by a count per lane (empty for the floating modes).
    let leftShifts: [Int32]
    let rightShifts: [Int32]
    /// Some channel shifts left (a multiplier of 1 or more).
    let anyLeftShift: Bool
    /// int8 codes over the whole int8 range, every right shift at least 1 and an int8 zero
    /// point: the clamp is the AVX-512 narrowing's signed saturation (see the AVX-512
    /// requantization kernels).
    let saturates: Bool
    /// The microkernel level ``store(_:count:firstChannel:bias:into:)`` runs.
    let level: KernelLevel
    let outputZeroPoint: Int32
    let lower: Int32
    let upper: Int32

    init(mode: Mode, outputZeroPoint: Int32, lower: Int32, upper: Int32, level: KernelLevel = .portable) {
        switch mode {
        case .fixedPoint(let m, let e):
            (arithmetic, mantissas, exponents, scales, floatScales) = (.fixedPoint, m, e, [], [])
        case .double(let s): (arithmetic, mantissas, exponents, scales, floatScales) = (.double, [], [], s, [])
        case .float32(let s): (arithmetic, mantissas, exponents, scales, floatScales) = (.float32, [], [], [], s)
        }
        self.outputZeroPoint = outputZeroPoint
        self.lower = lower
        self.upper = upper
        fixed = zip(mantissas, exponents).map { FixedChannel(mantissa: $0, exponent: $1) }
        lanes = arithmetic == .fixedPoint ? FixedChannelLanes(mantissas: mantissas, exponents: exponents) : nil
        // The lane kernels take shifts of 0...31, which `QuantizedConvParams` guarantees;
        // any other exponent keeps the portable path.
        let shiftable = exponents.allSatisfy { (-31 ... 30).contains($0) } && mantissas.allSatisfy { $0 >= 0 }
        leftShifts = shiftable ? exponents.map { Int32(Swift.max($0, 0)) } : []
        rightShifts = shiftable ? exponents.map { Int32(Swift.max(-$0, 0)) } : []
        anyLeftShift = leftShifts.contains { $0 != 0 }
        saturates =
            lower == -128 && upper == 127 && (-128 ... 127).contains(outputZeroPoint) && !rightShifts.isEmpty
            && rightShifts.allSatisfy { $0 >= 1 }
        self.level = shiftable ? level : .portable
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
        switch arithmetic {
        case .fixedPoint:
            scaled = fixed[channel].apply(acc)
        case .double:
            let v = (Double(acc) * scales[channel]).rounded(.toNearestOrAwayFromZero)
            scaled = Int64(Swift.max(Swift.min(v, 4.0e9), -4.0e9))
        case .float32:
            // Clamped first, as XNNPACK does; the bounds are integers, so the order of
            // clamping and rounding does not matter, and the rounding sees a small value.
            let v = Float(acc) * floatScales[channel]
            let lo = Float(lower &- outputZeroPoint), hi = Float(upper &- outputZeroPoint)
            scaled = Int64((v < lo ? lo : v > hi ? hi : v).rounded(.toNearestOrEven))
        }
        let shifted = scaled + Int64(outputZeroPoint)
        return Int32(Swift.min(Swift.max(shifted, Int64(lower)), Int64(upper)))
    }

    /// Requantizes `count` accumulators of consecutive channels `firstChannel...` (plus
    /// `bias[channel]` when given) into `output`. Same arithmetic as `apply`, with the
    /// mode test and the array accesses hoisted out of the loop.
    @inline(__always)
    func store<T: Quantized8>(
        _ acc: UnsafePointer<Int32>, count: Int, firstChannel: Int,
        bias: UnsafePointer<Int32>?, into output: UnsafeMutablePointer<T>
    ) {
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
        #if arch(x86_64) || arch(arm64)
        if storeRowsVectorized(
            acc, rows: 1, count: count, accStride: count, firstChannel: firstChannel, bias: bias,
            into: UnsafeMutableRawPointer(output), outStride: count)
        {
            return
        }
        #endif
        let b = bias.map { $0 + firstChannel }
        switch arithmetic {
        case .double:
            // Clamped to the codes' range before rounding (the bounds are integers, so the
            // code is the same) and rounded half away from zero from the truncation, with
            // no call to the C library's `round`.
            let lo = Double(lower &- outputZeroPoint), hi = Double(upper &- outputZeroPoint)
            scales.withUnsafeBufferPointer { s in
                for j in 0 ..< count {
                    let a = b.map { acc[j] &+ $0[j] } ?? acc[j]
                    let v = Swift.min(Swift.max(Double(a) * s[firstChannel + j], lo), hi)
                    let t = Int32(v), f = v - Double(t)
                    let r = t &+ (f >= 0.5 ? 1 : 0) &- (f <= -0.5 ? 1 : 0) &+ outputZeroPoint
                    output[j] = T(truncatingIfNeeded: r)
                }
            }
        case .float32:
            storeFloat32(acc, count: count, firstChannel: firstChannel, bias: bias, into: output)
        case .fixedPoint:
            if let lanes {
                storeFixed(acc, count: count, firstChannel: firstChannel, bias: bias, into: output, lanes: lanes)
            } else {
                for j in 0 ..< count {
                    output[j] = finish(fixed[firstChannel + j].apply(b.map { acc[j] &+ $0[j] } ?? acc[j]))
                }
            }
        }
    }
}

extension Requantizer {
    /// ``store(_:count:firstChannel:bias:into:)`` for `rows` rows of accumulators
    /// (`accStride` apart) into output rows `outStride` codes apart: one call per GEMM
    /// tile, so the per-channel arrays are reached once per tile rather than per row.
    @inline(__always)
    func storeRows<T: Quantized8>(
        _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, firstChannel: Int,
        bias: UnsafePointer<Int32>?, into output: UnsafeMutablePointer<T>, outStride: Int
    ) {
        #if arch(x86_64) || arch(arm64)
        if storeRowsVectorized(
            acc, rows: rows, count: count, accStride: accStride, firstChannel: firstChannel, bias: bias,
            into: UnsafeMutableRawPointer(output), outStride: outStride)
        {
            return
        }
        #endif
        for r in 0 ..< rows {
            store(
                acc + r * accStride, count: count, firstChannel: firstChannel, bias: bias, into: output + r * outStride)
        }
    }

    #if arch(x86_64)
    /// Rows through the level's microkernel: true when this requantizer's arithmetic has
    /// one at ``level`` (every arithmetic at `.avx2` and `.avx512`, double on AVX2's; `init` allows
    /// those levels only for shifts the kernels take), false when the portable loops must run.
    @inline(__always)
    private func storeRowsVectorized(
        _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, firstChannel: Int,
        bias: UnsafePointer<Int32>?, into output: UnsafeMutableRawPointer, outStride: Int
    ) -> Bool {
        guard level.hasVectorKernels, count > 0 else { return false }
        let b = bias.map { $0 + firstChannel }
        switch arithmetic {
        case .double:
            scales.withUnsafeBufferPointer { s in
                guard let s = s.baseAddress else { return }
                requantizeF64AVX2(
                    acc, rows: rows, count: count, accStride: accStride, bias: b, scale: s + firstChannel,
                    outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: output, outStride: outStride)
            }
        case .float32:
            floatScales.withUnsafeBufferPointer { s in
                guard let s = s.baseAddress else { return }
                let kernel = level >= .avx512 ? requantizeF32AVX512 : requantizeF32AVX2
                kernel(
                    acc, rows, count, accStride, b, s + firstChannel, outputZeroPoint, lower, upper, output, outStride)
            }
        case .fixedPoint:
            mantissas.withUnsafeBufferPointer { m in
                leftShifts.withUnsafeBufferPointer { l in
                    rightShifts.withUnsafeBufferPointer { r in
                        guard let m = m.baseAddress, let l = l.baseAddress, let r = r.baseAddress else { return }
                        if level >= .avx512 {
                            requantizeQ31AVX512(
                                acc, rows: rows, count: count, accStride: accStride, bias: b,
                                mantissa: m + firstChannel,
                                left: l + firstChannel, shiftsLeft: anyLeftShift, right: r + firstChannel,
                                outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, saturating: saturates,
                                into: output, outStride: outStride)
                        } else {
                            requantizeQ31AVX2(
                                acc, rows: rows, count: count, accStride: accStride, bias: b,
                                mantissa: m + firstChannel,
                                left: l + firstChannel, shiftsLeft: anyLeftShift, right: r + firstChannel,
                                outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: output,
                                outStride: outStride)
                        }
                    }
                }
            }
        }
        return true
    }
    #elseif arch(arm64)
    /// Rows through the NEON requantization kernels (every aarch64 level), as on x86-64:
    /// true when this requantizer's arithmetic has one, false when the portable loops must run.
    @inline(__always)
    private func storeRowsVectorized(
        _ acc: UnsafePointer<Int32>, rows: Int, count: Int, accStride: Int, firstChannel: Int,
        bias: UnsafePointer<Int32>?, into output: UnsafeMutableRawPointer, outStride: Int
    ) -> Bool {
        guard level.hasVectorKernels, count > 0 else { return false }
        let b = bias.map { $0 + firstChannel }
        switch arithmetic {
        case .double:
            return false
        case .float32:
            floatScales.withUnsafeBufferPointer { s in
                guard let s = s.baseAddress else { return }
                requantizeF32NEON(
                    acc, rows: rows, count: count, accStride: accStride, bias: b, scale: s + firstChannel,
                    outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: output, outStride: outStride)
            }
        case .fixedPoint:
            mantissas.withUnsafeBufferPointer { m in
                leftShifts.withUnsafeBufferPointer { l in
                    rightShifts.withUnsafeBufferPointer { r in
                        guard let m = m.baseAddress, let l = l.baseAddress, let r = r.baseAddress else { return }
                        requantizeQ31NEON(
                            acc, rows: rows, count: count, accStride: accStride, bias: b, mantissa: m + firstChannel,
                            left: l + firstChannel, shiftsLeft: anyLeftShift, right: r + firstChannel,
                            outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: output,
                            outStride: outStride)
                    }
                }
            }
        }
        return true
    }
    #endif
}
