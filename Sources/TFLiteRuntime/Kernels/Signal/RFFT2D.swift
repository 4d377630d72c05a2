#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// RFFT2D: the 2-D discrete Fourier transform of real float32 input over its last two
/// axes, `X[k, l] = Σ_{m,n} x[m, n] · e^{−2πi(km/H + ln/W)}`, with `(H, W)` the constant
/// `fft_length` (input 1, two int32 values, powers of two as in TFLite). Each `[..., h, w]`
/// matrix is first cropped or zero-padded to `H × W`. Only the non-redundant half of the
/// last axis is kept: the output is complex64 of shape `[..., H, W/2 + 1]`, each element
/// (real, imaginary) float32.
///
/// Computed in double precision (as TFLite does) by radix-2 FFTs over the rows, keeping
/// `W/2 + 1` bins, then over those columns; the results are rounded to float32 at the end.
enum RFFT2DKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == .float32, output.type == .complex64 else { throw context.unsupportedTypes() }
        guard input.rank >= 2 else { throw .invalid("the input must have rank 2 or more, found shape \(input.shape)") }
        let lengths = try ShapeSupport.constantIntegers(try context.input(1), role: "fft_length")
        guard lengths.count == 2 else { throw .invalid("fft_length must hold two values, found \(lengths.count)") }
        let (fftH, fftW) = (lengths[0], lengths[1])
        for n in [fftH, fftW] where n < 1 || n > 1 << 24 || n & (n - 1) != 0 {
            throw .invalid("fft_length \(lengths) must be powers of two between 1 and 2^24")
        }
        let bins = fftW / 2 + 1
        let rank = input.rank
        let shape = Array(input.shape[..<(rank - 2)]) + [fftH, bins]
        try context.setOutputShape(0, shape)
        let batches = input.shape[..<(rank - 2)].reduce(1, *)
        // Scratch: the H × bins half spectrum, one line of max(H, W), and the twiddles, all
        // complex doubles (16 bytes).
        let line = Swift.max(fftH, fftW)
        guard let spectrum = Shape.byteCount([fftH, bins], elementSize: 16) else {
            throw .invalid("fft_length \(lengths) is too large")
        }
        context.declareWork([batches, fftH, fftW, Int.bitWidth - line.leadingZeroBitCount])
        return RFFT2D(
            input: input.index, output: output.index, batches: batches,
            height: input.shape[rank - 2], width: input.shape[rank - 1], fftH: fftH, fftW: fftW,
            spectrum: context.requestScratch(bytes: spectrum),
            line: context.requestScratch(bytes: line * 16),
            twiddles: context.requestScratch(bytes: Swift.max(line / 2, 1) * 16))
    }
}

struct RFFT2D: PreparedKernel {
    let input: Int
    let output: Int
    let batches: Int
    /// The input's last two dimensions.
    let height: Int
    let width: Int
    let fftH: Int
    let fftW: Int
    let spectrum: Int
    let line: Int
    let twiddles: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let spec = context.scratch(spectrum, as: Double.self)
        let buf = context.scratch(line, as: Double.self)
        let tw = context.scratch(twiddles, as: Double.self)
        let bins = fftW / 2 + 1
        let longest = Swift.max(fftH, fftW)
        // e^{−2πik/N} for the longest length; a shorter power of two N' uses every (N/N')-th.
        for k in 0 ..< longest / 2 {
            let angle = -2 * Double.pi * Double(k) / Double(longest)
            tw[2 * k] = cos(angle)
            tw[2 * k + 1] = sin(angle)
        }
        let rows = Swift.min(height, fftH), cols = Swift.min(width, fftW)
        for b in 0 ..< batches {
            let matrix = x + b * height * width
            for m in 0 ..< fftH {
                for n in 0 ..< fftW {
                    let v = m < rows && n < cols ? Double(matrix[m * width + n]) : 0
                    buf[2 * n] = v
                    buf[2 * n + 1] = 0
                }
                Self.fft(buf, count: fftW, twiddles: tw, twiddleStride: longest / fftW)
                for l in 0 ..< bins {
                    spec[2 * (m * bins + l)] = buf[2 * l]
                    spec[2 * (m * bins + l) + 1] = buf[2 * l + 1]
                }
            }
            let out = y + 2 * b * fftH * bins
            for l in 0 ..< bins {
                for m in 0 ..< fftH {
                    buf[2 * m] = spec[2 * (m * bins + l)]
                    buf[2 * m + 1] = spec[2 * (m * bins + l) + 1]
                }
                Self.fft(buf, count: fftH, twiddles: tw, twiddleStride: longest / fftH)
                for m in 0 ..< fftH {
                    out[2 * (m * bins + l)] = Float(buf[2 * m])
                    out[2 * (m * bins + l) + 1] = Float(buf[2 * m + 1])
                }
            }
        }
    }

    /// In-place iterative radix-2 decimation-in-time FFT of `count` (a power of two)
    /// interleaved complex doubles; `twiddles[j·twiddleStride]` is `e^{−2πij/count}`.
    static func fft(
        _ a: UnsafeMutablePointer<Double>, count n: Int, twiddles: UnsafePointer<Double>, twiddleStride: Int
    ) {
        guard n > 1 else { return }
        // Bit-reversal permutation.
        var j = 0
        for i in 1 ..< n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j {
                swap(&a[2 * i], &a[2 * j])
                swap(&a[2 * i + 1], &a[2 * j + 1])
            }
        }
        var length = 2
        while length <= n {
            let half = length / 2
            let step = (n / length) * twiddleStride
            var start = 0
            while start < n {
                for k in 0 ..< half {
                    let wr = twiddles[2 * k * step], wi = twiddles[2 * k * step + 1]
                    let p = start + k, q = p + half
                    let xr = a[2 * q] * wr - a[2 * q + 1] * wi
                    let xi = a[2 * q] * wi + a[2 * q + 1] * wr
                    a[2 * q] = a[2 * p] - xr
                    a[2 * q + 1] = a[2 * p + 1] - xi
                    a[2 * p] += xr
                    a[2 * p + 1] += xi
                }
                start += length
            }
            length *= 2
        }
    }
}
