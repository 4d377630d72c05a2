/// Where the source image sits in the canvas that is resampled to a model's input size.
///
/// A plain resize uses the whole image as canvas; a center crop uses a smaller canvas
/// (the image at a negative offset); a letterbox uses a larger one (the image centered,
/// the rest filled with ``padValue``).
struct ResampleLayout: Equatable, Sendable {
    var canvasWidth: Int
    var canvasHeight: Int
    /// Position of the image's top-left pixel in canvas pixels.
    var imageX: Int
    var imageY: Int
    /// Channel value of canvas pixels outside the image.
    var padValue: Float = 0

    /// The whole image, stretched to the output size.
    static func stretch(_ image: RGBImage) -> ResampleLayout {
        ResampleLayout(canvasWidth: image.width, canvasHeight: image.height, imageX: 0, imageY: 0)
    }

    /// The largest centered region of the image with the output's aspect ratio:
    /// `cropW = min(W, round(H * outW / outH))`, `cropH = min(H, round(W * outH / outW))`,
    /// offset `((W - cropW) / 2, (H - cropH) / 2)` rounded down.
    static func centerCrop(_ image: RGBImage, outputWidth: Int, outputHeight: Int) -> ResampleLayout {
        let w = image.width, h = image.height
        let cropW = max(1, min(w, Int((Double(h) * Double(outputWidth) / Double(outputHeight)).rounded())))
        let cropH = max(1, min(h, Int((Double(w) * Double(outputHeight) / Double(outputWidth)).rounded())))
        return ResampleLayout(
            canvasWidth: cropW, canvasHeight: cropH, imageX: -((w - cropW) / 2), imageY: -((h - cropH) / 2))
    }

    /// The image centered in the smallest canvas with the output's aspect ratio that holds
    /// it: `canvasW = max(W, round(H * outW / outH))`, `canvasH = max(H, round(W * outH / outW))`,
    /// image at `((canvasW - W) / 2, (canvasH - H) / 2)` rounded down.
    static func letterbox(_ image: RGBImage, outputWidth: Int, outputHeight: Int, padValue: Float) -> ResampleLayout {
        let w = image.width, h = image.height
        let canvasW = max(w, Int((Double(h) * Double(outputWidth) / Double(outputHeight)).rounded()))
        let canvasH = max(h, Int((Double(w) * Double(outputHeight) / Double(outputWidth)).rounded()))
        return ResampleLayout(
            canvasWidth: canvasW, canvasHeight: canvasH, imageX: (canvasW - w) / 2, imageY: (canvasH - h) / 2,
            padValue: padValue)
    }
}

/// Bilinear resampling with half-pixel centers: TensorFlow's `tf.image.resize(images,
/// size, method="bilinear", antialias=False)` (`ResizeBilinear` with
/// `half_pixel_centers=True`), computed in `Float` exactly as TensorFlow's kernel does.
///
/// For output column `x` (rows alike), with `scale = Float(inW) / Float(outW)`:
///
///     in    = (Float(x) + 0.5) * scale - 0.5
///     x0    = max(floor(in), 0),  x1 = min(ceil(in), inW - 1),  fx = in - floor(in)
///     top    = S[y0][x0] + (S[y0][x1] - S[y0][x0]) * fx
///     bottom = S[y1][x0] + (S[y1][x1] - S[y1][x0]) * fx
///     out    = top + (bottom - top) * fy
///
/// Samples are in `[0, 255]`; `S` is the canvas of ``ResampleLayout`` (pad value outside
/// the image). There is no antialiasing when shrinking, as in the TF default.
enum BilinearResampler {
    /// Returns `outputHeight * outputWidth * 3` floats, `R G B` interleaved, rows top to bottom.
    static func resample(_ image: RGBImage, layout: ResampleLayout, outputWidth: Int, outputHeight: Int) -> [Float] {
        let xs = weights(input: layout.canvasWidth, output: outputWidth)
        let ys = weights(input: layout.canvasHeight, output: outputHeight)
        var out = [Float](repeating: 0, count: outputWidth * outputHeight * 3)
        let pad = layout.padValue
        @inline(__always) func sample(_ cx: Int, _ cy: Int, _ c: Int) -> Float {
            let x = cx - layout.imageX, y = cy - layout.imageY
            guard x >= 0, y >= 0, x < image.width, y < image.height else { return pad }
            return Float(image.pixels[3 * (y * image.width + x) + c])
        }
        for oy in 0 ..< outputHeight {
            let wy = ys[oy]
            for ox in 0 ..< outputWidth {
                let wx = xs[ox]
                for c in 0 ..< 3 {
                    let tl = sample(wx.lower, wy.lower, c), tr = sample(wx.upper, wy.lower, c)
                    let bl = sample(wx.lower, wy.upper, c), br = sample(wx.upper, wy.upper, c)
                    let top = tl + (tr - tl) * wx.lerp
                    let bottom = bl + (br - bl) * wx.lerp
                    out[3 * (oy * outputWidth + ox) + c] = top + (bottom - top) * wy.lerp
                }
            }
        }
        return out
    }

    struct Weight { var lower: Int; var upper: Int; var lerp: Float }

    static func weights(input: Int, output: Int) -> [Weight] {
        let scale = Float(input) / Float(output)
        return (0 ..< output).map { i in
            let position = (Float(i) + 0.5) * scale - 0.5
            let floorPosition = position.rounded(.down)
            let lower = max(Int(floorPosition), 0)
            let upper = min(Int(position.rounded(.up)), input - 1)
            return Weight(lower: lower, upper: upper, lerp: position - floorPosition)
        }
    }
}
