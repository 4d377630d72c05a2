/// An AutoML Vision Edge export's `manifest.json`:
/// `{"modelType": "IMAGE_LABELING", "modelFile": "model.tflite", "labelsFile": "dict.txt"}`.
///
/// File names are relative to the manifest's directory (absolute paths are kept). A
/// trailing comma is accepted (Google's own sample manifest has one). `modelType` is
/// optional; labelers call ``requireImageLabeling()`` so that another kind of bundle fails
/// by name instead of later, when its outputs do not look like class scores.
struct AutoMLManifest: Equatable, Sendable {
    var manifestPath: String
    var modelType: String?
    /// Resolved path of the model file.
    var modelPath: String
    /// Resolved path of the labels file.
    var labelsPath: String

    init(contentsOfFile path: String) throws(ModelBundleError) {
        try self.init(bytes: BundleFiles.read(path), path: path)
    }

    /// Parses manifest bytes read from `path` (which names the file in errors and
    /// anchors relative file names).
    init(bytes: [UInt8], path: String) throws(ModelBundleError) {
        let members = try BundleFiles.json(bytes, path: path)
        let directory = BundleFiles.directory(of: path)
        func string(_ key: String, required: Bool) throws(ModelBundleError) -> String? {
            guard let node = members[key] else {
                if required { throw .missingKey(path: path, key: key) }
                return nil
            }
            guard case .string(let s) = node, !s.isEmpty else {
                throw .invalidValue(path: path, key: key, expected: "a non-empty string")
            }
            return s
        }
        manifestPath = path
        modelType = try string("modelType", required: false)
        modelPath = BundleFiles.resolve(try string("modelFile", required: true) ?? "", in: directory)
        labelsPath = BundleFiles.resolve(try string("labelsFile", required: true) ?? "", in: directory)
    }

    /// The manifest itself when it describes an image labeling model (or does not say);
    /// ``ModelBundleError/unsupportedModelType(path:modelType:)`` otherwise.
    func requireImageLabeling() throws(ModelBundleError) -> AutoMLManifest {
        if let modelType, modelType != "IMAGE_LABELING" {
            throw .unsupportedModelType(path: manifestPath, modelType: modelType)
        }
        return self
    }
}

/// A labels file (`dict.txt`): line `i` is the label of class `i`.
///
/// UTF-8; lines end with `\n` or `\r\n` (a `\r` before `\n` is dropped); one trailing
/// empty line (the final newline) is ignored. Empty lines elsewhere are an error — they
/// would shift every later class index.
enum LabelDictionary {
    static func read(contentsOfFile path: String) throws(ModelBundleError) -> [String] {
        try parse(BundleFiles.read(path), path: path)
    }

    static func parse(_ bytes: [UInt8], path: String) throws(ModelBundleError) -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidLabels(path: path, reason: "not valid UTF-8")
        }
        // Split on the byte: as Characters, "\r\n" is one grapheme and never equals "\n".
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }
        guard !lines.isEmpty, lines != [""] else { throw .invalidLabels(path: path, reason: "no labels") }
        if let empty = lines.firstIndex(where: { $0.allSatisfy { $0 == " " || $0 == "\t" } }) {
            throw .invalidLabels(path: path, reason: "line \(empty + 1) is empty")
        }
        return lines
    }
}
