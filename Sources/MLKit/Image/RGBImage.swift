/// An 8-bit RGB raster, rows top to bottom, pixels left to right, `R G B` interleaved.
/// The internal currency of the vision pipeline: every ``VisionImage`` becomes one.
struct RGBImage: Equatable, Sendable {
    var width: Int
    var height: Int
    /// `width * height * 3` bytes.
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A `width` x `height` image filled with one color.
    init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.width = width
        self.height = height
        var p = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0 ..< width * height { p[3 * i] = fill.0; p[3 * i + 1] = fill.1; p[3 * i + 2] = fill.2 }
        pixels = p
    }

    /// The `(r, g, b)` of pixel `(x, y)`; both must be in range.
    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let i = 3 * (y * width + x)
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Sets pixel `(x, y)` when it lies inside the image (drawing clips silently).
    mutating func setPixel(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = 3 * (y * width + x)
        pixels[i] = c.0; pixels[i + 1] = c.1; pixels[i + 2] = c.2
    }

    /// The image as it is meant to be displayed under `orientation` (see
    /// ``VisionImageOrientation`` for the exact pixel mapping).
    func oriented(_ orientation: VisionImageOrientation) -> RGBImage {
        if orientation == .up { return self }
        let (w, h) = orientation.swapsAxes ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0 ..< h {
            for x in 0 ..< w {
                let (sx, sy) = orientation.storedPosition(ofDisplayed: x, y, storedWidth: width, storedHeight: height)
                let s = 3 * (sy * width + sx), d = 3 * (y * w + x)
                out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
