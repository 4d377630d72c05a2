import Foundation

/// One box to draw on an annotated image: a frame in displayed-image pixels and an
/// optional caption.
public struct ImageAnnotation: Equatable, Sendable {
    public var frame: CGRect
    public var caption: String

    public init(frame: CGRect, caption: String) {
        self.frame = frame
        self.caption = caption
    }
}

extension VisionImage {
    /// The upright image with every annotation drawn as a rectangle outline and its caption
    /// in a 5x7 bitmap font (on a filled band above the box, or inside it at the top edge),
    /// cycling through a fixed palette. Line width and font scale grow with the image size.
    public func annotated(_ annotations: [ImageAnnotation]) -> VisionImage {
        var canvas = upright()
        let palette: [RGBImage.Color] = [
            (255, 48, 48), (48, 200, 48), (64, 128, 255), (255, 200, 0), (255, 0, 255), (0, 220, 220),
        ]
        let longSide = max(canvas.width, canvas.height)
        let thickness = max(1, longSide / 200)
        let scale = max(1, longSide / 320)
        for (i, a) in annotations.enumerated() {
            let color = palette[i % palette.count]
            let f = a.frame.standardized
            guard f.minX.isFinite, f.minY.isFinite, f.maxX.isFinite, f.maxY.isFinite else { continue }
            let clamp = { (v: CGFloat, limit: Int) -> Int in Int(min(max(v.rounded(), -1), CGFloat(limit + 1))) }
            let x0 = clamp(f.minX, canvas.width), y0 = clamp(f.minY, canvas.height)
            let x1 = clamp(f.maxX, canvas.width), y1 = clamp(f.maxY, canvas.height)
            canvas.strokeRect(x0: x0, y0: y0, x1: x1, y1: y1, thickness: thickness, color)
            guard !a.caption.isEmpty else { continue }
            let textHeight = BitmapFont.glyphHeight * scale
            let bandHeight = textHeight + 2 * scale
            let bandTop = y0 - bandHeight >= 0 ? y0 - bandHeight : y0
            let bandWidth = BitmapFont.width(of: a.caption, scale: scale) + 2 * scale
            canvas.fill(x0: x0, y0: bandTop, x1: x0 + bandWidth, y1: bandTop + bandHeight, color)
            canvas.drawText(a.caption, x: x0 + scale, y: bandTop + scale, scale: scale, (0, 0, 0))
        }
        return VisionImage(stored: canvas)
    }

    /// Writes the upright image as a PNG file.
    public func writePNG(toFile path: String) throws {
        let data = try pngData()
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw ImageError.encodingFailed("cannot write \(path): \((error as NSError).localizedDescription)")
        }
    }
}
