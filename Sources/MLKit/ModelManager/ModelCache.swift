import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The downloaded models in one cache directory.
///
/// Layout, for model `name`:
///
///     <root>/<name>/installed.json               the descriptor of the installed version
///     <root>/<name>/v<version>-<sha256 prefix>.tflite   its verified model file
///     <root>/<name>/v<version>-<sha256 prefix>/  or, for a bundle, its verified files
///     <root>/<name>/.partial-<uuid>[.d]          a download in progress
///
/// `installed.json` is replaced by an atomic rename only after the new model file is in
/// place and verified, so at every moment it names a complete, verified file; the old
/// file is removed afterwards. (On Linux, an interpreter that memory-mapped the old file
/// keeps reading it after the unlink.)
struct ModelCache: Sendable {
    let root: URL

    /// Serializes changes to the installed state of any model in any cache of this process.
    private static let mutationLock = NSLock()

    func folder(_ name: String) -> URL { root.appendingPathComponent(name, isDirectory: true) }
    private func record(_ name: String) -> URL { folder(name).appendingPathComponent("installed.json") }

    /// The installed descriptor of `name` and its file path, if a model is installed and
    /// its file is present with the recorded size.
    func installed(_ name: String) -> (descriptor: ModelDescriptor, path: String)? {
        guard ModelDescriptor.isValidName(name),
            let data = try? Data(contentsOf: record(name)),
            let descriptor = try? ModelDescriptor.decode(data, expectedName: name)
        else { return nil }
        let path = folder(name).appendingPathComponent(descriptor.file).path
        guard Self.size(path) == descriptor.size else { return nil }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        for member in descriptor.bundle ?? []
        where Self.size(directory.appendingPathComponent(member.name).path) != member.size {
            return nil
        }
        return (descriptor, path)
    }

    private static func size(_ path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
    }

    /// Whether the installed file of `name` still has the SHA-256 its record names: the
    /// cheap check of ``installed(_:)`` (size) misses a file damaged in place.
    /// For a bundle, every file of it is checked.
    func installedFileIsIntact(_ installed: (descriptor: ModelDescriptor, path: String)) -> Bool {
        guard Self.sha256(ofFile: installed.path) == installed.descriptor.sha256 else { return false }
        let directory = URL(fileURLWithPath: installed.path).deletingLastPathComponent()
        return (installed.descriptor.bundle ?? []).allSatisfy {
            Self.sha256(ofFile: directory.appendingPathComponent($0.name).path) == $0.sha256
        }
    }

    private static func sha256(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                chunk.withUnsafeBytes { hash.update($0) }
            }
        } catch {
            return nil
        }
        return hash.hexDigest()
    }

    /// A new, empty directory for the files of a bundle being downloaded.
    func makeStagingDirectory(_ name: String) throws -> URL {
        let url = folder(name).appendingPathComponent(".partial-\(UUID().uuidString).d", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Makes a verified bundle the installed version of `descriptor.name`: moves the model
    /// file `model` into `staging` (which holds the bundle's other files), renames
    /// `staging` to `v<version>-<sha256 prefix>/` and then replaces `installed.json`, so the
    /// bundle is installed as a unit.
    ///
    /// - Returns: the installed model file's path.
    func installBundle(_ staging: URL, model: URL, as descriptor: ModelDescriptor) throws -> String {
        let name = descriptor.name
        let modelName = descriptor.bundleModelName ?? "model.tflite"
        let directoryName = "v\(descriptor.version)-\(descriptor.sha256.prefix(16))"
        var installedRecord = descriptor
        installedRecord.file = directoryName + "/" + modelName
        let recordData = try installedRecord.encoded()
        try Self.replace(staging.appendingPathComponent(modelName), with: model)
        Self.mutationLock.lock(); defer { Self.mutationLock.unlock() }
        let previous = installed(name)
        let target = folder(name).appendingPathComponent(directoryName, isDirectory: true)
        let targetModel = target.appendingPathComponent(modelName).path
        if let previous, previous.path == targetModel, installedFileIsIntact(previous) {
            try? FileManager.default.removeItem(at: staging)
        } else {
            // A leftover directory at the target (or the installed copy, damaged) goes
            // first; installed.json still names it until the record below is replaced, so
            // a crash in between leaves no model installed rather than a damaged one.
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try Self.replace(target, with: staging)
        }
        try writeRecord(recordData, name: name, removingOnFailure: previous?.path == targetModel ? nil : target)
        if let previous, previous.path != targetModel { removeInstalledFiles(previous) }
        return targetModel
    }

    /// Replaces `installed.json` atomically; on failure removes `newFiles` (the version
    /// that was to be installed).
    private func writeRecord(_ data: Data, name: String, removingOnFailure newFiles: URL?) throws {
        let temporary = folder(name).appendingPathComponent(".installed-\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
            try Self.replace(record(name), with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let newFiles { try? FileManager.default.removeItem(at: newFiles) }
            throw error
        }
    }

    /// Removes the files of a version that is no longer installed: its model file, or its
    /// bundle's directory.
    private func removeInstalledFiles(_ old: (descriptor: ModelDescriptor, path: String)) {
        let url = URL(fileURLWithPath: old.path)
        try? FileManager.default.removeItem(at: old.descriptor.bundle == nil ? url : url.deletingLastPathComponent())
    }

    /// A new, empty file for downloading `name` into (in the model's folder, so the final
    /// rename stays on one file system).
    func makePartialFile(_ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder(name), withIntermediateDirectories: true)
        let url = folder(name).appendingPathComponent(".partial-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url
    }

    /// Makes the verified file `partial` the installed version of `descriptor.name`.
    ///
    /// - Returns: the installed file's path.
    func install(_ partial: URL, as descriptor: ModelDescriptor) throws -> String {
        let name = descriptor.name
        let fileName = "v\(descriptor.version)-\(descriptor.sha256.prefix(16)).tflite"
        var installedRecord = descriptor
        installedRecord.file = fileName
        let recordData = try installedRecord.encoded()
        Self.mutationLock.lock(); defer { Self.mutationLock.unlock() }
        let previous = installed(name)
        let target = folder(name).appendingPathComponent(fileName)
        if let previous, previous.path == target.path, installedFileIsIntact(previous) {
            // Same version and hash already installed and intact: keep it, drop the new copy.
            try? FileManager.default.removeItem(at: partial)
        } else {
            // A leftover file at the target, or the installed copy damaged in place, is
            // replaced atomically by the verified one.
            try Self.replace(target, with: partial)
        }
        try writeRecord(recordData, name: name, removingOnFailure: previous?.path == target.path ? nil : target)
        if let previous, previous.path != target.path { removeInstalledFiles(previous) }
        return target.path
    }

    /// Removes the installed version of `name` (not downloads in progress).
    ///
    /// - Returns: whether a model was installed.
    @discardableResult
    func delete(_ name: String) throws -> Bool {
        Self.mutationLock.lock(); defer { Self.mutationLock.unlock() }
        let current = installed(name)
        if FileManager.default.fileExists(atPath: record(name).path) {
            try FileManager.default.removeItem(at: record(name))
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder(name).path)) ?? []
        // Model files, and bundles' version directories (`v…`); not partial downloads.
        for file in files where file.hasSuffix(".tflite") || (file.hasPrefix("v") && !file.contains(".")) {
            try FileManager.default.removeItem(at: folder(name).appendingPathComponent(file))
        }
        return current != nil
    }

    /// `rename(2)`: atomically replaces `destination` (FileManager's move refuses to).
    private static func replace(_ destination: URL, with source: URL) throws {
        let result = source.withUnsafeFileSystemRepresentation { from in
            destination.withUnsafeFileSystemRepresentation { to -> Int32 in
                guard let from, let to else { return -1 }
                return rename(from, to)
            }
        }
        guard result == 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSFilePathErrorKey: destination.path])
        }
    }
}
