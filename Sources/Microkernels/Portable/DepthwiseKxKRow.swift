/// A filter size for the K×K depthwise walk (``DepthwiseKxKWalk``), as a type: the walk's
/// loops over the taps then have constant trip counts, which LLVM unrolls, and each size is
/// a specialization of its own.
public protocol DepthwiseKernelSize {
    /// Taps per filter row and column (`K`).
    static var taps: Int { get }
}

/// The 5×5 filter (MobileNet v3, EfficientNet).
public enum DepthwiseKernel5x5: DepthwiseKernelSize {
    @inlinable public static var taps: Int { 5 }
}

/// The shape of one output row of a K×K depthwise convolution with multiplier 1, no
/// dilation and any horizontal stride, as the K×K row kernels read it:
///
///     out[ox·P + c] = Σ_{ky, kx} r_ky[(ox·stride - padLeft + kx)·P + c] · w[(K·ky + kx)·P + c]
///
/// for `ox < outputWidth` and `c < channels`, where `r_0 … r_{K-1}` are the window's input
/// rows and `P = pixelStride` the tensor's channel count, the distance between pixels in
/// the input rows, the output row and between taps in `w` (`[K·K, P]`). `channels ≤ P`
/// lets a caller hand one slice of the channels to each thread: the rows, weights, bias
/// and output then all point at the slice's first channel. Taps left or right of a row
/// read `fill` (`channels` values; zeros for float, the input zero point for 8-bit codes),
/// and a row wholly in the padding is passed as a row of `fill` values, so that every
/// interior pixel of every output row takes the same unrolled path.
public struct DepthwiseKxKRow: Sendable, Equatable {
    /// `K`, the filter's width and height.
    public let size: Int
    public let channels: Int
    public let pixelStride: Int
    public let inputWidth: Int
    public let outputWidth: Int
    public let stride: Int
    public let padLeft: Int
    /// Output columns whose `K` taps all lie inside the input row.
    public let interior: Range<Int>

    public init(
        size: Int, channels: Int, pixelStride: Int, inputWidth: Int, outputWidth: Int, stride: Int, padLeft: Int
    ) {
        self.size = size
        self.channels = channels
        self.pixelStride = pixelStride
        self.inputWidth = inputWidth
        self.outputWidth = outputWidth
        self.stride = stride
        self.padLeft = padLeft
        interior = Self.interior(output: outputWidth, input: inputWidth, stride: stride, pad: padLeft, size: size)
    }

    /// The same row narrowed to `channels` channels (a thread's slice).
    public func slice(channels: Int) -> DepthwiseKxKRow {
        DepthwiseKxKRow(
            size: size, channels: channels, pixelStride: pixelStride, inputWidth: inputWidth,
            outputWidth: outputWidth, stride: stride, padLeft: padLeft)
    }

    /// Outputs `o < output` with `o·stride - pad ≥ 0` and `o·stride - pad + size - 1 <
    /// input`: the windows of a `size`-tap axis that need no padding.
    public static func interior(output: Int, input: Int, stride: Int, pad: Int, size: Int) -> Range<Int> {
        let lo = Swift.min(output, (pad + stride - 1) / stride)
        let last = input - size + pad
        let hi = last < 0 ? 0 : Swift.min(output, last / stride + 1)
        return lo ..< Swift.max(lo, hi)
    }

    /// Tap `kx` of output column `ox` in row `r`: a pointer into `r`, or `fill` when the
    /// tap falls outside the row.
    @inlinable @inline(__always)
    public func tap<T>(_ r: UnsafePointer<T>, column ox: Int, _ kx: Int, fill: UnsafePointer<T>) -> UnsafePointer<T> {
        let ix = ox * stride - padLeft + kx
        return ix >= 0 && ix < inputWidth ? r + ix * pixelStride : fill
    }
}
