import Foundation

/// How a ``VisionImage``'s stored pixels are to be turned to show it upright: the eight
/// cases (and raw values) of UIKit's `UIImage.Orientation`.
///
/// Pixel mapping, for a stored image `S` of `W` x `H` pixels and the displayed image `D`
/// (`S[row][column]`; rows top to bottom):
///
/// | case | EXIF | displayed size | `D[y][x]` |
/// |---|---|---|---|
/// | `up` | 1 | W x H | `S[y][x]` |
/// | `upMirrored` | 2 | W x H | `S[y][W-1-x]` |
/// | `down` | 3 | W x H | `S[H-1-y][W-1-x]` (rotated 180°) |
/// | `downMirrored` | 4 | W x H | `S[H-1-y][x]` |
/// | `leftMirrored` | 5 | H x W | `S[x][y]` (transposed) |
/// | `right` | 6 | H x W | `S[H-1-x][y]` (stored image turned 90° clockwise) |
/// | `rightMirrored` | 7 | H x W | `S[H-1-x][W-1-y]` |
/// | `left` | 8 | H x W | `S[x][W-1-y]` (stored image turned 90° counterclockwise) |
///
/// The orientation is applied before anything else: models see the displayed image, and
/// result frames are in its coordinates.
public enum VisionImageOrientation: Int, Sendable, CaseIterable {
    case up = 0
    case down = 1
    case left = 2
    case right = 3
    case upMirrored = 4
    case downMirrored = 5
    case leftMirrored = 6
    case rightMirrored = 7

    /// Whether the displayed image is the stored one with width and height exchanged.
    var swapsAxes: Bool {
        switch self {
        case .up, .down, .upMirrored, .downMirrored: return false
        case .left, .right, .leftMirrored, .rightMirrored: return true
        }
    }

    /// The stored pixel shown at displayed position `(x, y)` (the table above).
    func storedPosition(ofDisplayed x: Int, _ y: Int, storedWidth w: Int, storedHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    /// The stored-image point corresponding to displayed point `(x, y)` in continuous
    /// pixel coordinates (edges at integers), for mapping frames back to stored pixels.
    func storedPoint(ofDisplayed x: Double, _ y: Double, storedWidth w: Double, storedHeight h: Double) -> (
        x: Double, y: Double
    ) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - x, y)
        case .down: return (w - x, h - y)
        case .downMirrored: return (x, h - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - x)
        case .rightMirrored: return (w - y, h - x)
        case .left: return (w - y, x)
        }
    }

    /// The EXIF orientation tag value (1–8) of this orientation.
    public var exifValue: Int {
        switch self {
        case .up: return 1
        case .upMirrored: return 2
        case .down: return 3
        case .downMirrored: return 4
        case .leftMirrored: return 5
        case .right: return 6
        case .rightMirrored: return 7
        case .left: return 8
        }
    }

    /// The orientation with EXIF tag value `exif` (1–8), or `nil` for other values.
    public init?(exifValue exif: Int) {
        guard let match = Self.allCases.first(where: { $0.exifValue == exif }) else { return nil }
        self = match
    }
}

/// The legacy Firebase ML Vision orientation (`VisionDetectorImageOrientation`), named by
/// where the stored image's 0th row and 0th column are displayed; raw values are the EXIF
/// tags 1–8.
public enum VisionDetectorImageOrientation: UInt, Sendable, CaseIterable {
    case topLeft = 1, topRight, bottomRight, bottomLeft, leftTop, rightTop, rightBottom, leftBottom

    /// The equivalent ``VisionImageOrientation``.
    public var imageOrientation: VisionImageOrientation {
        VisionImageOrientation(exifValue: Int(rawValue)) ?? .up
    }
}

/// Legacy Firebase ML Vision image metadata; setting ``VisionImage/metadata`` sets the
/// image's ``VisionImage/orientation``.
public final class VisionImageMetadata: NSObject, @unchecked Sendable {
    /// The orientation; default `.topLeft` (upright).
    public var orientation: VisionDetectorImageOrientation = .topLeft
    public override init() { super.init() }
}
