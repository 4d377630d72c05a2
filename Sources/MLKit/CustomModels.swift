import Foundation

// `LocalModel`, the base class of `CustomLocalModel`, is in LocalModel.swift (shared with
// the AutoML models).

/// A model hosted on a model server and downloaded by ``ModelManager``: Firebase's
/// `RemoteModel`. Use a subclass such as ``CustomRemoteModel``.
public class RemoteModel: NSObject, @unchecked Sendable {
    /// The name the model is published under (the directory `<server>/<name>/`).
    public let name: String

    /// For subclasses in this module (Firebase's `RemoteModel` has no public initializer).
    init(name: String) {
        self.name = name
        super.init()
    }

    public override var description: String { "\(type(of: self))(name: \(name))" }
}

/// A custom TensorFlow Lite model file on this machine.
public final class CustomLocalModel: LocalModel, @unchecked Sendable {
    /// A model read from the `.tflite` file at `modelPath` (absolute, or relative to the
    /// current directory). The file is read when an interpreter first needs it.
    public init(modelPath: String) {
        super.init(path: modelPath)
    }
}

/// A custom TensorFlow Lite model published on a model server (see `spec/model-server.md`).
public final class CustomRemoteModel: RemoteModel, @unchecked Sendable {
    /// The model published as `name` (letters, digits, `.`, `_` and `-`).
    public override init(name: String) {
        super.init(name: name)
    }
}
