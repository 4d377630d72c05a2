// `import Firebase`, as the Firebase ML guides' Swift code begins, brings in the
// Firebase-era API: custom models (`ModelInterpreter`, `CustomLocalModel`,
// `CustomRemoteModel`, `ModelManager`, `ModelInputOutputOptions`…), the legacy AutoML
// labeler (`Vision`, `AutoMLLocalModel`, `AutoMLRemoteModel`,
// `VisionOnDeviceAutoMLImageLabelerOptions`…) and the download notifications. They are
// the MLKit module's types, re-exported, so code mixing `import Firebase` and
// `import MLKit` sees one set of types.
@_exported import MLKit

/// Firebase's app object. There is no Firebase project here: remote models come from the
/// model server `ModelManager` is configured with (`TFLITE_MODEL_SERVER`, or
/// `ModelManager.modelManager(source:cacheDirectory:)`), so configuring does nothing.
public final class FirebaseApp: Sendable {
    private init() {}

    /// Accepted so that an app's start-up code compiles unchanged; it has no effect.
    public static func configure() {}
}
