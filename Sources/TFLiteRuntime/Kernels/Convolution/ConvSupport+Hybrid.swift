import TFLiteModel

/// Pieces shared by the hybrid kernels: float32 activations with constant int8 weights
/// (dynamic-range quantized models). LiteRT quantizes each input row (FULLY_CONNECTED,
/// BATCH_MATMUL) or image (the convolutions) to int8 at run time, multiplies int8 by int8
/// exactly in `Int32`, and rescales the sum to float. The float steps are reproduced here
/// in the same order, so results match LiteRT's reference kernels bit for bit.
enum HybridInput {
    /// Symmetric quantization of `count` values `x[i·stride]`: `s = r / 127` with
    /// `r = max(|min|, |max|)`, codes `clamp(round(x · (127 / r)), -127, 127)` (ties away from
    /// zero), offset 0. All zeros give scale 1.
    @inline(__always)
    static func symmetric<C: HybridCode>(
        _ x: UnsafePointer<Float>, count: Int, stride: Int,
        into q: UnsafeMutablePointer<C>
    ) -> (scale: Float, offset: Int32) {
        let (lo, hi) = minMax(x, count: count, stride: stride)
        return codes(x, count: count, stride: stride, rule: RowRule(lo: lo, hi: hi, asymmetric: false), into: q)
    }

    /// Asymmetric quantization to `[-128, 127]` over the range `[rmin, rmax] = [min(0, lo), max(0, hi)]`:
    /// the scale `Double(Float(rmax - rmin)) / 255` and the zero point (from whichever end has
    /// the smaller error, rounded half away from zero and clamped) are computed in double precision;
    /// codes are `clamp(round(offset + x · (1 / Float(scale))), -128, 127)` in single
    /// precision. A range of zero gives scale 1, offset 0 and zero codes.
    @inline(__always)
    static func asymmetric<C: HybridCode>(
        _ x: UnsafePointer<Float>, count: Int, stride: Int,
        into q: UnsafeMutablePointer<C>
    ) -> (scale: Float, offset: Int32) {
        let (lo, hi) = minMax(x, count: count, stride: stride)
        return codes(x, count: count, stride: stride, rule: RowRule(lo: lo, hi: hi, asymmetric: true), into: q)
    }

    /// How a row with bounds `lo`, `hi` becomes codes: `code = clamp(round(base + x ·
    /// inverse), lowest, highest)`, with the row's `scale` and `offset` (see ``symmetric``
    /// and ``asymmetric``); `zero` when the range is empty (every code 0, scale 1).
    struct RowRule {
        let scale: Float, offset: Int32
        let inverse: Float, base: Float
        let lowest: Int32, highest: Int32
        let zero: Bool

        @inline(__always)
        init(lo: Float, hi: Float, asymmetric: Bool) {
            guard asymmetric else {
                let range = Swift.max(Swift.abs(lo), Swift.abs(hi))
                zero = range == 0
                (scale, offset, base, lowest, highest) = (zero ? 1 : range / Float(127), 0, 0, -127, 127)
                inverse = Float(127) / range
                return
            }
            let low = Swift.min(0, lo), high = Swift.max(0, hi)
            (lowest, highest) = (-128, 127)
            zero = low == high
            if zero {
                (scale, offset, inverse, base) = (1, 0, 0, 0)
                return
            }
            // LiteRT 2.3.0 takes the range's width in single precision (measured: a double
            // subtraction gives a scale one ulp off on about half the rows).
            let rmin = Double(low), rmax = Double(high)
            let scale = Double(high - low) / 255
            let fromMin = -128 - rmin / scale, fromMax = 127 - rmax / scale
            let chosen = 128 + Swift.abs(rmin / scale) < 127 + Swift.abs(rmax / scale) ? fromMin : fromMax
            // NaN (from an infinite input) gives 0, as x86 converts it; Swift would trap.
            offset = chosen <= -128 ? -128 : chosen >= 127 ? 127 : chosen.isNaN ? 0 : Int32(chosen.rounded())
            self.scale = Float(scale)
            inverse = 1 / self.scale
            base = Float(offset)
        }
    }

    /// The codes of `rule` for `count` values `x[i·stride]`; returns the row's scale and offset.
    @inline(__always)
    static func codes<C: HybridCode>(
        _ x: UnsafePointer<Float>, count: Int, stride: Int, rule: RowRule, into q: UnsafeMutablePointer<C>
    ) -> (scale: Float, offset: Int32) {
        if rule.zero {
            q.update(repeating: C(code: 0), count: count)
            return (1, 0)
        }
        let (inverse, base, lowest, highest) = (rule.inverse, rule.base, rule.lowest, rule.highest)
        for i in 0 ..< count {
            q[i] = C(code: roundedCode(base + x[i * stride] * inverse, lowest: lowest, highest: highest))
        }
        return (rule.scale, rule.offset)
    }

    /// Quantizes with the symmetric or asymmetric rule.
    @inline(__always)
    static func quantize<C: HybridCode>(
        _ x: UnsafePointer<Float>, count: Int, stride: Int, asymmetric: Bool,
        into q: UnsafeMutablePointer<C>
    ) -> (scale: Float, offset: Int32) {
        asymmetric
            ? self.asymmetric(x, count: count, stride: stride, into: q)
            : symmetric(x, count: count, stride: stride, into: q)
    }

    /// Smallest and largest value (NaN never replaces a bound once one is set).
    ///
    /// Four running bounds, each over every fourth value and all starting from `x[0]`, then
    /// merged: the same rule in another order, so the same bounds (equal values may come
    /// from another position, which only matters for the sign of a zero, and the callers
    /// take `|lo|`, `|hi|`, `min(0, lo)` and `max(0, hi)`). Selects instead of branches:
    /// a branch per value mispredicted on noisy rows and was a third of a hybrid RNN step.
    @inline(__always)
    static func minMax(_ x: UnsafePointer<Float>, count: Int, stride: Int) -> (Float, Float) {
        guard count > 0 else { return (0, 0) }
        let first = x[0]
        var lo = SIMD4<Float>(repeating: first), hi = lo
        var i = 1
        while i + 4 <= count {
            let v = SIMD4<Float>(x[i * stride], x[(i + 1) * stride], x[(i + 2) * stride], x[(i + 3) * stride])
            lo.replace(with: v, where: v .< lo)
            hi.replace(with: v, where: v .> hi)
            i += 4
        }
        var l = lo[0], h = hi[0]
        for j in 1 ..< 4 {
            l = lo[j] < l ? lo[j] : l
            h = hi[j] > h ? hi[j] : h
        }
        while i < count {
            let v = x[i * stride]
            l = v < l ? v : l
            h = v > h ? v : h
            i += 1
        }
        return (l, h)
    }

    /// `clamp(truncatingToInt32(v.rounded()), lowest, highest)`, with no library call and no
    /// checked conversion, so that the quantization loops vectorize (`rounded()` is a call
    /// to `roundf` on x86-64's baseline, a tenth of a hybrid RNN's time). NaN and values out
    /// of `Int32`'s range give `lowest` (x86 converts them to `Int32.min`). Otherwise `v` is
    /// clamped to one past the bounds (which changes no result), and `|v|` rounded half
    /// away from zero as `floor(|v| + 1/2)` (exact here but for the float just below 1/2,
    /// which must give 0), the floor taken from the nearest integer `(y + 2^23) - 2^23`.
    /// The integral result's code is read from the mantissa of `result + 1.5·2^23`.
    /// `HybridTests` checks it against the plain formula on every tie and its neighbours.
    @inline(__always)
    static func roundedCode(_ v: Float, lowest: Int32, highest: Int32) -> Int32 {
        let inRange = v > -2_147_483_904 && v < 2_147_483_648 // false for NaN
        let c = Swift.min(Swift.max(inRange ? v : Float(lowest), Float(lowest - 1)), Float(highest + 1))
        let a = Swift.abs(c)
        let y = a + 0.5
        let nearest = (y + 8_388_608) - 8_388_608
        let floor = nearest > y ? nearest - 1 : nearest
        let magnitude: Float = a < 0.5 ? 0 : floor
        let r = Swift.min(Swift.max(c < 0 ? -magnitude : magnitude, Float(lowest)), Float(highest))
        return Int32(bitPattern: (r + 12_582_912).bitPattern) &- 0x4B40_0000
    }

    /// `Int32(v)` truncating toward zero, with x86's answer (`Int32.min`) for NaN and values
    /// out of range, where C++'s conversion is undefined and Swift's would trap.
    @inline(__always)
    static func truncatingToInt32(_ v: Float) -> Int32 {
        guard v > -2_147_483_904, v < 2_147_483_648 else { return .min } // also false for NaN
        return Int32(v)
    }
}

/// Where quantized input codes are stored: as `Int8`, or as `Float` ready for ``ExactGEMM``.
protocol HybridCode {
    init(code: Int32)
}

extension Float: HybridCode {
    @inline(__always) init(code: Int32) { self.init(code) }
}

extension Int8: HybridCode {
    @inline(__always) init(code: Int32) { self.init(truncatingIfNeeded: code) }
}

/// Validated int8 weights of a hybrid operator: constant, zero points all 0, one scale or
/// one per output channel along `channelAxis`. `scales` has one entry per channel (a
/// per-tensor scale repeated); `perChannel` tells whether the file had distinct scales.
struct HybridWeights {
    let codes: UnsafeBufferPointer<Int8>
    let scales: [Float]
    /// More than one scale, and not all equal (CONV_2D picks its input quantization by it).
    let distinctScales: Bool

    init(_ weights: TensorState, channels: Int, channelAxis: Int, op: String) throws(KernelError) {
        guard weights.type == .int8 else { throw .types("\(op): hybrid weights must be int8, found \(weights.type)") }
        guard let constant = weights.constant else {
            throw .invalid(
                "\(op): hybrid int8 weights must be constant (float input, int8 weights computed at run time)")
        }
        guard let q = weights.quantization, !q.scales.isEmpty else {
            throw .invalid("\(op): int8 weights (tensor \(weights.index)) have no quantization parameters")
        }
        guard q.zeroPoints.allSatisfy({ $0 == 0 }), q.zeroPoints.count <= q.scales.count else {
            throw .invalid("\(op): hybrid int8 weights must have zero points 0, found \(q.zeroPoints)")
        }
        for s in q.scales where !(s.isFinite && s > 0) {
            throw .invalid("\(op): weight scale \(s) is not a finite positive value")
        }
        if q.scales.count == 1 {
            scales = [Float](repeating: q.scales[0], count: channels)
        } else {
            guard q.scales.count == channels, q.quantizedDimension == channelAxis else {
                throw .invalid(
                    "\(op): \(q.scales.count) weight scales along dimension \(q.quantizedDimension); expected 1, or \(channels) along dimension \(channelAxis)"
                )
            }
            scales = q.scales
        }
        distinctScales = q.scales.count > 1 && q.scales.contains { $0 != q.scales[0] }
        codes = constant.typed(Int8.self)
        guard codes.count == weights.elementCount else {
            throw .invalid("\(op): weight data size does not match shape \(weights.shape)")
        }
    }

    /// The codes as floats (exact), for ``ExactGEMM``.
    func packedFloats() -> AlignedBuffer {
        let buffer = AlignedBuffer(zeroedCount: codes.count * MemoryLayout<Float>.stride)
        let out = buffer.typed(Float.self)
        for i in codes.indices { out[i] = Float(codes[i]) }
        return buffer
    }
}

/// Prepare-time checks of a hybrid operator's float operands.
enum HybridCheck {
    static func floats(_ context: PrepareContext, input: TensorState, bias: TensorState?, output: TensorState)
        throws(KernelError)
    {
        guard input.type == .float32, output.type == .float32, bias.map({ $0.type == .float32 }) ?? true else {
            throw context.unsupportedTypes()
        }
    }
}
