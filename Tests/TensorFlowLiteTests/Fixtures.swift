import Foundation

/// Paths of the committed fixture models.
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func model(_ name: String) -> String {
        root.appendingPathComponent("Fixtures/models/\(name).tflite").path
    }

    /// A model TensorFlowLiteSwift's unit tests load, rebuilt by
    /// scripts/fixtures/tensorflowliteswift_models.py (`add`, `add_quantized`,
    /// `mul_quantized`, `multi_add`, `multi_signatures`).
    static func google(_ name: String) -> String {
        root.appendingPathComponent("Fixtures/tensorflowliteswift/\(name).bin").path
    }

    /// The deterministic float input used for the recorded reference outputs:
    /// `x[i] = sin(0.1 * i)` over the flattened `[1, 32, 32, 3]` image.
    static var sineImage: [Float] { (0 ..< 32 * 32 * 3).map { Float(sin(0.1 * Double($0))) } }
}
