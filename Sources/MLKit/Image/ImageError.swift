import Foundation

/// Why an image could not be read, built or written. Every malformed input — a file that
/// is not a PNG, a truncated or corrupted one, an empty or absurdly large one, a raw
/// buffer too short for its declared size — is one of these, never a crash.
public enum ImageError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The bytes do not start with the 8-byte PNG signature.
    case notPNG
    /// The data ends inside the chunk starting at `offset` (or before the IEND chunk).
    case truncated(offset: Int)
    /// A chunk's stored CRC differs from the CRC of its type and data.
    case badCRC(chunk: String, offset: Int)
    /// The chunk layout breaks the PNG rules (wrong first chunk, bad type, bad length…).
    case malformed(String)
    /// The header declares a zero width or height.
    case zeroSize(width: Int, height: Int)
    /// The image is larger than ``ImageLimits`` allow.
    case tooLarge(width: Int, height: Int)
    /// libpng rejected the image data (its message).
    case decodingFailed(String)
    /// libpng could not encode the image (its message), or the file could not be written.
    case encodingFailed(String)
    /// A raw pixel buffer does not match its declared layout.
    case invalidBuffer(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read image file \(path): \(reason)"
        case .notPNG: return "not a PNG image (the PNG signature is missing)"
        case .truncated(let offset): return "truncated PNG: the data ends inside the chunk at byte \(offset)"
        case .badCRC(let chunk, let offset): return "corrupted PNG: CRC mismatch in chunk \(chunk) at byte \(offset)"
        case .malformed(let reason): return "malformed PNG: \(reason)"
        case .zeroSize(let w, let h): return "PNG has zero size (\(w)x\(h))"
        case .tooLarge(let w, let h):
            return
                "PNG is too large (\(w)x\(h)); the limit is \(ImageLimits.maxSide) pixels per side and \(ImageLimits.maxPixels) pixels"
        case .decodingFailed(let message): return "PNG decoding failed: \(message)"
        case .encodingFailed(let message): return "PNG encoding failed: \(message)"
        case .invalidBuffer(let reason): return "invalid pixel buffer: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

/// Size limits for images, checked before any pixel memory is allocated.
public enum ImageLimits {
    /// Largest width or height (2^14).
    public static let maxSide = 1 << 14
    /// Largest number of pixels (2^26, i.e. 8192 x 8192).
    public static let maxPixels = 1 << 26

    /// Throws unless `width` x `height` is a non-empty image within the limits.
    static func check(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .zeroSize(width: width, height: height) }
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }
}
