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
///     <root>/<name>/.partial-<uuid>              a download in progress
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
              let descriptor = try? ModelDescriptor.decode(data, expectedName: name) else { return nil }
        let path = folder(name).appendingPathComponent(descriptor.file).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, size.intValue == descriptor.size else { return nil }
        return (descriptor, path)
    }

    /// Whether the installed file of `name` still has the SHA-256 its record names: the
    /// cheap check of ``installed(_:)`` (size) misses a file damaged in place.
    func installedFileIsIntact(_ installed: (descriptor: ModelDescriptor, path: String)) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: installed.path) else { return false }
        defer { try? handle.close() }
        var hash = SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                chunk.withUnsafeBytes { hash.update($0) }
            }
        } catch {
            return false
        }
        return hash.hexDigest() == installed.descriptor.sha256
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
        let temporary = folder(name).appendingPathComponent(".installed-\(UUID().uuidString)")
        do {
            try recordData.write(to: temporary)
            try Self.replace(record(name), with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if previous?.path != target.path { try? FileManager.default.removeItem(at: target) }
            throw error
        }
        if let old = previous?.path, old != target.path { try? FileManager.default.removeItem(atPath: old) }
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
        for file in files where file.hasSuffix(".tflite") {
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
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSFilePathErrorKey: destination.path])
        }
    }
}
