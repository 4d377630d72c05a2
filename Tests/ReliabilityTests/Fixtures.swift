import Foundation

/// Paths of the committed fixture models.
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func model(_ name: String) -> String {
        root.appendingPathComponent("Fixtures/models/\(name).tflite").path
    }
}
