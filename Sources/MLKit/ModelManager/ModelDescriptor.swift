import Foundation

/// A model server's description of the current version of one model: the file
/// `<server>/<name>/model.json` (see `spec/model-server.md`).
///
///     {"name": "flowers", "version": 3, "size": 9044,
///      "sha256": "3f0c…", "file": "model-v3.tflite"}
public struct ModelDescriptor: Codable, Sendable, Equatable {
    /// The model's name; must equal the directory it is published in.
    public var name: String
    /// The version, a non-negative integer the publisher increases with each release.
    public var version: Int
    /// Size of the model file in bytes.
    public var size: Int
    /// SHA-256 of the model file, 64 lowercase hexadecimal digits.
    public var sha256: String
    /// The model file: a URL relative to the descriptor (usually a bare file name), or absolute.
    public var file: String
    /// For a bundle (an AutoML export: `model.tflite` with `manifest.json`, `dict.txt`…),
    /// the files that come with the model; `nil` for a single model file. The model is
    /// stored under ``bundleModelName`` beside them.
    public var bundle: [Member]?
    /// The model file's name inside a bundle (`nil` for a single model file).
    public var bundleModelName: String?

    /// One file of a bundle besides the model.
    public struct Member: Codable, Sendable, Equatable {
        /// Its file name in the bundle's directory (a valid model name: no `/`).
        public var name: String
        /// Size in bytes.
        public var size: Int
        /// SHA-256, 64 lowercase hexadecimal digits.
        public var sha256: String
        /// URL relative to the descriptor, or absolute, as for ``ModelDescriptor/file``.
        public var file: String

        public init(name: String, size: Int, sha256: String, file: String) {
            self.name = name; self.size = size; self.sha256 = sha256; self.file = file
        }
    }

    public init(
        name: String, version: Int, size: Int, sha256: String, file: String,
        bundle: [Member]? = nil, bundleModelName: String? = nil
    ) {
        self.name = name; self.version = version; self.size = size; self.sha256 = sha256; self.file = file
        self.bundle = bundle; self.bundleModelName = bundleModelName
    }

    /// Whether `hex` is 64 hexadecimal digits.
    static func isSHA256(_ hex: String) -> Bool {
        hex.utf8.count == 64
            && hex.lowercased().utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Whether `name` can name a model: 1–128 ASCII letters, digits, `.`, `_` or `-`, not
    /// starting with `.` (so it is one safe path component and one URL path segment).
    public static func isValidName(_ name: String) -> Bool {
        guard (1 ... 128).contains(name.utf8.count), name.first != "." else { return false }
        return name.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }
    }

    /// Decodes and checks a descriptor served for model `expectedName`.
    ///
    /// - Throws: a description of the first problem found.
    static func decode(_ data: Data, expectedName: String) throws(ModelDescriptorProblem) -> ModelDescriptor {
        let descriptor: ModelDescriptor
        do {
            descriptor = try JSONDecoder().decode(ModelDescriptor.self, from: data)
        } catch {
            throw ModelDescriptorProblem(
                "is not a valid model descriptor (expected a JSON object with name, version, size, sha256 and file): \(error)"
            )
        }
        guard descriptor.name == expectedName else {
            throw ModelDescriptorProblem("describes model '\(descriptor.name)', not '\(expectedName)'")
        }
        guard descriptor.version >= 0 else {
            throw ModelDescriptorProblem("has version \(descriptor.version); expected a non-negative integer")
        }
        guard descriptor.size > 0 else {
            throw ModelDescriptorProblem("has size \(descriptor.size); expected a positive number of bytes")
        }
        guard isSHA256(descriptor.sha256) else {
            throw ModelDescriptorProblem("has sha256 '\(descriptor.sha256)'; expected 64 hexadecimal digits")
        }
        guard !descriptor.file.isEmpty else { throw ModelDescriptorProblem("has an empty file") }
        var checked = descriptor
        checked.sha256 = descriptor.sha256.lowercased()
        if let members = descriptor.bundle {
            guard let modelName = descriptor.bundleModelName, isValidName(modelName) else {
                throw ModelDescriptorProblem("describes a bundle without a valid bundleModelName (a file name)")
            }
            var names: Set<String> = [modelName]
            checked.bundle = try members.map { (member: Member) throws(ModelDescriptorProblem) -> Member in
                guard isValidName(member.name), names.insert(member.name).inserted else {
                    throw ModelDescriptorProblem("has bundle file name '\(member.name)', which is invalid or repeated")
                }
                guard member.size >= 0, isSHA256(member.sha256), !member.file.isEmpty else {
                    throw ModelDescriptorProblem(
                        "has bundle file '\(member.name)' without a size, a sha256 of 64 hexadecimal digits and a file")
                }
                var m = member
                m.sha256 = member.sha256.lowercased()
                return m
            }
        }
        return checked
    }

    /// The descriptor as written to `model.json`: pretty-printed with sorted keys.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// What is wrong with a descriptor, completing "The descriptor at <url> …".
struct ModelDescriptorProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
