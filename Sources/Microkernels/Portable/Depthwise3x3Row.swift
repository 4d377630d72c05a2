/// The shape of one output row of a 3×3 depthwise convolution with multiplier 1, no
/// dilation and a horizontal stride of 1 or 2, as each level's row kernel
/// (`depthwiseConv3x3F32AVX2`, and the runtime's portable walk) reads it:
///
///     out[ox·C + c] = start + Σ_{ky, kx} r_ky[(ox·stride - padLeft + kx)·C + c] · w[(3·ky + kx)·C + c]
///
/// for `ox < outputWidth`, `c < channels = C`, where `r_0, r_1, r_2` are the window's three
/// input rows (`inputWidth · C` floats each). Taps outside a row, and whole rows in the
/// padding, read zeros: for finite weights `+0·w` leaves a sum unchanged, so one unrolled
/// path serves border and interior pixels alike.
public struct Depthwise3x3Row: Sendable, Equatable {
    public let channels: Int
    public let inputWidth: Int
    public let outputWidth: Int
    public let stride: Int
    public let padLeft: Int
    /// Output columns whose three taps all lie inside the input row: their taps point
    /// straight into the row, with no padding test.
    public let interior: Range<Int>

    public init(channels: Int, inputWidth: Int, outputWidth: Int, stride: Int, padLeft: Int) {
        self.channels = channels
        self.inputWidth = inputWidth
        self.outputWidth = outputWidth
        self.stride = stride
        self.padLeft = padLeft
        interior = Self.interior(output: outputWidth, input: inputWidth, stride: stride, pad: padLeft)
    }

    /// The three taps of output column `ox` in input row `r`: pointers into `r`, or `fill`
    /// (`channels` padding values) for taps outside the row and for every tap of a row in
    /// the padding (`r` nil). For border pixels, which the row kernels take one at a time.
    @inlinable
    public func taps<T>(_ r: UnsafePointer<T>?, column ox: Int, fill: UnsafePointer<T>) -> (
        UnsafePointer<T>, UnsafePointer<T>, UnsafePointer<T>
    ) {
        guard let r else { return (fill, fill, fill) }
        let ix = ox * stride - padLeft
        @inline(__always) func tap(_ i: Int) -> UnsafePointer<T> { i >= 0 && i < inputWidth ? r + i * channels : fill }
        return (tap(ix), tap(ix + 1), tap(ix + 2))
    }

    /// Outputs `o < output` with `o·stride - pad ≥ 0` and `o·stride - pad + 2 < input`: the
    /// windows of a 3-tap axis that need no padding.
    public static func interior(output: Int, input: Int, stride: Int, pad: Int) -> Range<Int> {
        DepthwiseKxKRow.interior(output: output, input: input, stride: stride, pad: pad, size: 3)
    }
}
