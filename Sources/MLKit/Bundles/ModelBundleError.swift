import Foundation

/// Why a model bundle (`manifest.json`, `dict.txt`, `tflite_metadata.json`, model file)
/// could not be used. Each message names the file and the problem.
public enum ModelBundleError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file is missing or unreadable.
    case unreadable(path: String, reason: String)
    /// The file is not valid JSON (byte offset and reason).
    case invalidJSON(path: String, offset: Int, reason: String)
    /// A required key is absent.
    case missingKey(path: String, key: String)
    /// A key holds the wrong kind of value.
    case invalidValue(path: String, key: String, expected: String)
    /// The manifest is for another task than the one asked for.
    case unsupportedModelType(path: String, modelType: String)
    /// The labels file has no labels, or a problem on a line.
    case invalidLabels(path: String, reason: String)
    /// The labels do not fit the model (e.g. count differs from the output size).
    case labelCountMismatch(labels: Int, classes: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalidJSON(let path, let offset, let reason):
            return "\(path) is not valid JSON at byte \(offset): \(reason)"
        case .missingKey(let path, let key): return "\(path) has no \"\(key)\""
        case .invalidValue(let path, let key, let expected): return "\(path): \"\(key)\" must be \(expected)"
        case .unsupportedModelType(let path, let type): return "\(path): modelType \"\(type)\" is not supported here"
        case .invalidLabels(let path, let reason): return "labels file \(path): \(reason)"
        case .labelCountMismatch(let labels, let classes):
            return "the labels file has \(labels) labels but the model outputs \(classes) classes"
        }
    }

    public var errorDescription: String? { description }
}

/// Reading helpers shared by the bundle parsers.
enum BundleFiles {
    static func read(_ path: String) throws(ModelBundleError) -> [UInt8] {
        do { return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The top-level object of JSON `bytes` read from `path`.
    static func json(_ bytes: [UInt8], path: String) throws(ModelBundleError) -> [String: JSONNode] {
        let node: JSONNode
        do { node = try TolerantJSON.parse(bytes) } catch {
            throw .invalidJSON(path: path, offset: error.offset, reason: error.reason)
        }
        guard case .object(let members) = node else {
            throw .invalidJSON(path: path, offset: 0, reason: "the top level is not an object")
        }
        return members
    }

    /// `path` resolved against `directory` unless absolute.
    static func resolve(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
    }

    static func directory(of path: String) -> String {
        let d = (path as NSString).deletingLastPathComponent
        return d.isEmpty ? "." : d
    }
}
