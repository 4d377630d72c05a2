import Foundation
import MLKit

/// Shared pieces of the vision subcommands (`label`, `detect`, `faces`).
enum VisionCommandSupport {
    /// `path` if given; else the bundled default `relative`, looked up from the current
    /// directory (the README runs commands from the repository root).
    static func locate(_ path: String?, default relative: String, what: String, option: String) throws -> String {
        if let path { return path }
        guard FileManager.default.fileExists(atPath: relative) else {
            throw ToolError(
                "the \(what) \(relative) was not found relative to the current directory (\(FileManager.default.currentDirectoryPath)); run from the repository root or pass \(option)"
            )
        }
        return relative
    }

    static func loadImage(_ path: String) throws -> VisionImage {
        do { return try VisionImage(contentsOfFile: path) } catch {
            throw ToolError("image \(path): \(error)")
        }
    }

    /// A box as `[top, left, bottom, right]` in pixels.
    static func box(_ r: CGRect) -> JSONValue {
        .array([r.minY, r.minX, r.maxY, r.maxX].map { .float(Float($0)) })
    }

    static func boxText(_ r: CGRect) -> String {
        String(format: "[%.1f, %.1f, %.1f, %.1f]", Double(r.minY), Double(r.minX), Double(r.maxY), Double(r.maxX))
    }

    static func writeAnnotated(
        _ image: VisionImage, _ annotations: [ImageAnnotation], to path: String?, console: Console
    ) throws {
        guard let path else { return }
        try image.annotated(annotations).writePNG(toFile: path)
        console.err("annotated image written to \(path)\n")
    }
}
