import Foundation
@testable import MLKit

enum VisionFixtures {
    /// ML Kit custom-detector options that report every object with its label.
    static func everyDetection(_ bundlePath: String) -> CustomObjectDetectorOptions {
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: bundlePath))
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        return options
    }

    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let resources = repoRoot.appendingPathComponent("Fixtures/vision")

    static func resource(_ name: String) -> String { resources.appendingPathComponent(name).path }
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: resources.appendingPathComponent(name)))
    }
    static func floats(_ name: String) throws -> [Float] {
        let b = try bytes(name)
        return (0 ..< b.count / 4).map { i in
            Float(
                bitPattern: UInt32(b[4 * i]) | UInt32(b[4 * i + 1]) << 8 | UInt32(b[4 * i + 2]) << 16 | UInt32(
                    b[4 * i + 3]) << 24)
        }
    }
    static func model(_ name: String) -> String {
        repoRoot.appendingPathComponent("Fixtures/models/\(name).tflite").path
    }
}

/// A fresh temporary directory, removed by the caller with `remove()`.
struct TemporaryDirectory {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "vision-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
    @discardableResult func write(_ name: String, _ text: String) throws -> String {
        let p = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }
    func copy(_ source: String, as name: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: file(name))
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Builds a PNG from chunks, for corrupt-file tests.
enum PNGBuilder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBytes { CRC32.checksum($0) }
        return be32(UInt32(data.count)) + body + be32(crc)
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func ihdr(width: UInt32, height: UInt32, depth: UInt8 = 8, color: UInt8 = 2) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [depth, color, 0, 0, 0])
    }
}
