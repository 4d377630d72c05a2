/// Facts about this TensorFlow Lite runtime, as TensorFlowLiteSwift's `Runtime` gives them.
public enum Runtime {
    /// The runtime's semantic version (`major.minor.patch`). It is swift-tflite's own
    /// version, not the version of a TensorFlow Lite C library: there is none here.
    public static var version: String { "0.1.0" }
}
