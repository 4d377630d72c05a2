import Foundation

/// An image ML Kit detectors accept (ML Kit's `MLKCompatibleImage`).
public protocol MLKCompatibleImage: AnyObject {}

/// An image to run a detector on: ML Kit's `VisionImage`, built on Linux from a PNG file,
/// PNG bytes or a raw pixel buffer instead of `UIImage`/`CMSampleBuffer`.
///
///     let image = try VisionImage(contentsOfFile: "photo.png")
///     image.orientation = .right      // the stored pixels are turned 90° clockwise for display
///
/// Pixels are kept as 8-bit RGB in stored order; ``orientation`` is applied (first) when a
/// detector reads the image, so models see — and frames refer to — the displayed image.
/// Thread-safe: the orientation is read under a lock when a detector takes a snapshot.
public final class VisionImage: NSObject, MLKCompatibleImage, @unchecked Sendable {
    /// Layout of a raw pixel buffer given to ``init(width:height:pixelFormat:bytesPerRow:pixels:)``.
    public enum PixelFormat: Sendable, CaseIterable {
        /// 4 bytes per pixel, `R G B A`; alpha is ignored.
        case rgba8
        /// 4 bytes per pixel, `B G R A` (CoreVideo's 32BGRA); alpha is ignored.
        case bgra8
        /// 3 bytes per pixel, `R G B`.
        case rgb8

        var bytesPerPixel: Int { self == .rgb8 ? 3 : 4 }
    }

    /// The stored pixels (before orientation).
    let stored: RGBImage
    private let lock = NSLock()
    private var _orientation: VisionImageOrientation = .up

    /// How to turn the stored pixels to show the image upright; default `.up`.
    public var orientation: VisionImageOrientation {
        get { lock.withLock { _orientation } }
        set { lock.withLock { _orientation = newValue } }
    }

    /// Legacy Firebase metadata: reading it reports ``orientation``; setting it sets it.
    public var metadata: VisionImageMetadata? {
        get {
            let m = VisionImageMetadata()
            m.orientation = VisionDetectorImageOrientation(rawValue: UInt(orientation.exifValue)) ?? .topLeft
            return m
        }
        set { orientation = newValue?.orientation.imageOrientation ?? .up }
    }

    /// Width of the stored pixels (before orientation).
    public var width: Int { stored.width }
    /// Height of the stored pixels (before orientation).
    public var height: Int { stored.height }

    init(stored: RGBImage) {
        self.stored = stored
        super.init()
    }

    /// Reads and decodes the PNG file at `path`.
    ///
    /// - Throws: ``ImageError`` — ``ImageError/unreadableFile(path:reason:)`` or any
    ///   decoding error of ``init(data:)``.
    public convenience init(contentsOfFile path: String) throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ImageError.unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(data: data)
    }

    /// Decodes PNG bytes (any color type and bit depth, interlaced or not) to 8-bit RGB.
    ///
    /// - Throws: ``ImageError`` when the bytes are not a PNG, are truncated, have a bad
    ///   CRC, declare a zero or too large size (``ImageLimits``), or fail to decode.
    public convenience init(data: Data) throws {
        self.init(stored: try PNGCodec.decodeRGB(data))
    }

    /// Wraps a raw pixel buffer (copied).
    ///
    /// - Parameters:
    ///   - width: pixels per row.
    ///   - height: rows.
    ///   - pixelFormat: the layout of each pixel's bytes.
    ///   - bytesPerRow: distance between rows in bytes (≥ `width` x bytes per pixel);
    ///     `nil` for tightly packed rows.
    ///   - pixels: at least `bytesPerRow * (height - 1) + width * bytesPerPixel` bytes.
    /// - Throws: ``ImageError/zeroSize(width:height:)``, ``ImageError/tooLarge(width:height:)``
    ///   or ``ImageError/invalidBuffer(_:)``.
    public convenience init<Bytes: Collection<UInt8>>(
        width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int? = nil, pixels: Bytes
    ) throws {
        try ImageLimits.check(width: width, height: height)
        let bpp = pixelFormat.bytesPerPixel
        let rowBytes = width * bpp // bounded by ImageLimits
        let stride = bytesPerRow ?? rowBytes
        guard stride >= rowBytes else {
            throw ImageError.invalidBuffer("bytesPerRow \(stride) is less than width x \(bpp) = \(rowBytes)")
        }
        let (rows, o1) = stride.multipliedReportingOverflow(by: height - 1)
        let (needed, o2) = rows.addingReportingOverflow(rowBytes)
        guard !o1, !o2 else { throw ImageError.invalidBuffer("bytesPerRow \(stride) x height \(height) overflows") }
        let bytes = Array(pixels)
        guard bytes.count >= needed else {
            throw ImageError.invalidBuffer(
                "\(bytes.count) bytes given, \(needed) needed for \(width)x\(height) \(pixelFormat) with bytesPerRow \(stride)"
            )
        }
        let (r, b) = pixelFormat == .bgra8 ? (2, 0) : (0, 2)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let s = y * stride + x * bpp, d = 3 * (y * width + x)
                rgb[d] = bytes[s + r]; rgb[d + 1] = bytes[s + 1]; rgb[d + 2] = bytes[s + b]
            }
        }
        self.init(stored: RGBImage(width: width, height: height, pixels: rgb))
    }

    /// The image as displayed (orientation applied), as the pipeline sees it.
    func upright() -> RGBImage { stored.oriented(orientation) }

    /// Width of the image as displayed (after ``orientation``).
    public var displayedWidth: Int { orientation.swapsAxes ? height : width }
    /// Height of the image as displayed (after ``orientation``).
    public var displayedHeight: Int { orientation.swapsAxes ? width : height }

    /// The upright image's pixels as tightly packed 8-bit `R G B` rows.
    public func rgbPixels() -> [UInt8] { upright().pixels }

    /// The upright image encoded as PNG.
    public func pngData() throws -> Data { try PNGCodec.encodeRGB(upright()) }

    /// Maps a frame given in displayed-image pixels (as detectors report them) to the
    /// stored pixel grid, undoing ``orientation``.
    public func storedFrame(forDisplayed frame: CGRect) -> CGRect {
        let o = orientation
        let w = Double(width), h = Double(height)
        let a = o.storedPoint(ofDisplayed: Double(frame.minX), Double(frame.minY), storedWidth: w, storedHeight: h)
        let b = o.storedPoint(ofDisplayed: Double(frame.maxX), Double(frame.maxY), storedWidth: w, storedHeight: h)
        return CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }
}
