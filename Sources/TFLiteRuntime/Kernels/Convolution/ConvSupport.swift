import TFLiteModel

/// Geometry of a 2-D convolution over NHWC tensors, validated at prepare.
///
/// Output pixel `(oy, ox)` reads input rows `oy * strideH - padTop + ky * dilationH`
/// and columns `ox * strideW - padLeft + kx * dilationW`; taps outside the image read
/// zeros (they are skipped).
struct Conv2DGeometry: Hashable, Sendable {
    var batch: Int
    var inH: Int, inW: Int, inC: Int
    var outH: Int, outW: Int, outC: Int
    var kh: Int, kw: Int
    var strideH: Int, strideW: Int
    var dilationH: Int, dilationW: Int
    var padTop: Int, padLeft: Int

    /// Computes output size and padding (TFLite's rule, see ``AxisGeometry``) and rejects
    /// geometries that would produce an empty image.
    static func make(
        batch: Int, inH: Int, inW: Int, inC: Int, outC: Int, kh: Int, kw: Int,
        strideH: Int, strideW: Int, dilationH: Int, dilationW: Int,
        padding: Padding
    ) throws(KernelError) -> Conv2DGeometry {
        let y = try AxisGeometry.compute(input: inH, filter: kh, stride: strideH, dilation: dilationH, padding: padding)
        let x = try AxisGeometry.compute(input: inW, filter: kw, stride: strideW, dilation: dilationW, padding: padding)
        guard y.output > 0, x.output > 0 else {
            throw .invalid(
                "the output would be empty: input \(inH)x\(inW), filter \(kh)x\(kw), dilation \(dilationH)x\(dilationW), padding \(padding)"
            )
        }
        return Conv2DGeometry(
            batch: batch, inH: inH, inW: inW, inC: inC, outH: y.output, outW: x.output, outC: outC,
            kh: kh, kw: kw, strideH: strideH, strideW: strideW,
            dilationH: dilationH, dilationW: dilationW, padTop: y.padBefore, padLeft: x.padBefore)
    }

    var outputShape: [Int] { [batch, outH, outW, outC] }
    /// `batch * outH * outW`; bounded by the output's element count, which prepare checked.
    var outputPixels: Int { batch * outH * outW }
}

/// Prepare-time checks shared by the convolution family.
enum ConvCheck {
    /// Requires a rank-4 tensor and returns its dimensions.
    static func rank4(_ t: TensorState, _ role: String) throws(KernelError) -> (Int, Int, Int, Int) {
        guard t.rank == 4 else { throw .invalid("\(role) must have rank 4, found shape \(t.shape)") }
        return (t.shape[0], t.shape[1], t.shape[2], t.shape[3])
    }

    /// Requires `bias` (when present) to hold one value per output channel.
    static func bias(_ bias: TensorState?, channels: Int) throws(KernelError) {
        guard let bias else { return }
        guard bias.elementCount == channels else {
            throw .invalid(
                "bias has shape \(bias.shape) (\(bias.elementCount) values) but there are \(channels) output channels")
        }
    }

    /// CBLAS takes 32-bit sizes: rejects any GEMM dimension or leading dimension past `Int32.max`.
    static func blasSizes(_ sizes: [Int], _ what: String) throws(KernelError) {
        for s in sizes where s < 0 || s > Int(Int32.max) {
            throw .invalid("\(what): GEMM size \(s) does not fit the 32-bit BLAS interface")
        }
    }

    /// `a * b * ...` with overflow checks.
    static func product(_ values: [Int], _ what: String) throws(KernelError) -> Int {
        guard let n = Shape.elementCount(values) else { throw .invalid("\(what): size \(values) overflows") }
        return n
    }

    /// `a + b + ...` bytes rounded up to whole 64-byte cache lines, with overflow checks:
    /// the size of one worker's scratch made of such parts.
    static func cacheLines(_ bytes: [Int], _ what: String) throws(KernelError) -> Int {
        var total = 0
        for b in bytes {
            let (sum, overflow) = total.addingReportingOverflow(b)
            guard b >= 0, !overflow else { throw .invalid("\(what): size \(bytes) overflows") }
            total = sum
        }
        guard total <= Int.max - 63 else { throw .invalid("\(what): size \(bytes) overflows") }
        return (total + 63) / 64 * 64
    }

    /// Float clamp range of a fused activation, naming the operator's option.
    static func activation(_ a: FusedActivation) throws(KernelError) -> FloatActivationRange {
        try FloatActivationRange.of(a)
    }
}

/// The float epilogue shared by GEMM-based kernels: `y = clamp(y + bias[c])` over rows of
/// `channels` values, in one pass.
///
/// Plain loops over pointers, which LLVM vectorizes: the `SIMD8<Float>` form with
/// `clamped(lowerBound:upperBound:)` was far slower (the generic mask operations
/// behind it are not lowered to min/max instructions), and was most of the time of a
/// pointwise convolution.
struct FloatBiasActivation {
    let channels: Int
    let range: FloatActivationRange

    /// True when the epilogue changes nothing (no bias, no clamp) and may be skipped.
    func isIdentity(hasBias: Bool) -> Bool {
        !hasBias && range.lower == -.infinity && range.upper == .infinity
    }

    /// Applies the epilogue to `rows` rows starting at `output`, rows `rowStride` apart.
    @inline(__always)
    func apply(rows: Range<Int>, output: UnsafeMutablePointer<Float>, rowStride: Int, bias: UnsafePointer<Float>?) {
        let lower = range.lower, upper = range.upper, channels = self.channels
        for r in rows {
            let y = output + r * rowStride
            if let bias {
                for c in 0 ..< channels { y[c] = Swift.min(Swift.max(y[c] + bias[c], lower), upper) }
            } else {
                for c in 0 ..< channels { y[c] = Swift.min(Swift.max(y[c], lower), upper) }
            }
        }
    }

    /// Clamps `count` values in place (the activation without the bias).
    @inline(__always)
    func clamp(_ y: UnsafeMutablePointer<Float>, count: Int) {
        let lower = range.lower, upper = range.upper
        for i in 0 ..< count { y[i] = Swift.min(Swift.max(y[i], lower), upper) }
    }
}

extension EvalContext {
    /// The float data of an optional tensor captured at prepare.
    @inline(__always)
    func optionalFloats(_ index: Int?) -> UnsafePointer<Float>? {
        index.map { UnsafePointer(pointer($0, as: Float.self)) }
    }
}

/// Unaligned SIMD loads of floats (tensor rows are not 32-byte aligned in general).
/// Shared by the convolution and pooling kernels.
@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self) }
@inline(__always)
func load8(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}
@inline(__always)
func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self) }
