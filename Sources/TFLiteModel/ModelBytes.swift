import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The immutable bytes of a model file, kept alive for as long as any `Model`,
/// constant tensor view or interpreter refers to them.
///
/// A file is memory-mapped read-only, so constant weights are never copied into the
/// heap; an in-memory `Data` is retained and read through its own storage.
///
/// The bytes never change after `init`, which is what makes sharing this object (and
/// every `Model` built on it) across threads safe.
public final class ModelBytes: @unchecked Sendable {
    private enum Owner {
        case mapped(UnsafeMutableRawPointer, Int)
        case data(Data)
        case allocated(UnsafeMutableRawPointer)
    }

    /// The whole file. Valid until this object is deinitialized.
    public let buffer: UnsafeRawBufferPointer
    private let owner: Owner

    /// Memory-maps the file at `path` read-only.
    ///
    /// - Throws: `ModelError.cannotOpenFile` if the file cannot be opened, sized or mapped.
    public init(contentsOfFile path: String) throws(ModelError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .cannotOpenFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .cannotOpenFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .cannotOpenFile(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        if size == 0 {
            // mmap rejects zero lengths; an empty file is still a (malformed) model.
            let p = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64)
            owner = .allocated(p)
            buffer = UnsafeRawBufferPointer(start: p, count: 0)
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw .cannotOpenFile(path: path, reason: String(cString: strerror(errno)))
        }
        owner = .mapped(p, size)
        buffer = UnsafeRawBufferPointer(start: p, count: size)
    }

    /// Keeps `data` alive and reads the model from it without copying.
    ///
    /// Small buffers (which Foundation may store inline, at no stable address) and
    /// non-contiguous buffers are copied once into an owned, 64-byte aligned allocation.
    public init(data: Data) {
        let count = data.count
        var stable: UnsafeRawBufferPointer?
        if count >= 64 {
            // A `let` Data with heap storage keeps its bytes at one address until it is
            // released or mutated; we hold the only reference that matters and never mutate.
            stable = data.withUnsafeBytes { raw in raw.baseAddress == nil ? nil : raw }
        }
        if let stable, stable.count == count {
            owner = .data(data)
            buffer = stable
        } else {
            let p = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 64)
            data.withUnsafeBytes { raw in
                if let base = raw.baseAddress, count > 0 { p.copyMemory(from: base, byteCount: count) }
            }
            owner = .allocated(p)
            buffer = UnsafeRawBufferPointer(start: p, count: count)
        }
    }

    /// Copies `bytes` into an owned, 64-byte aligned allocation.
    public convenience init(_ bytes: [UInt8]) {
        self.init(copying: bytes)
    }

    private init(copying bytes: [UInt8]) {
        let p = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(bytes.count, 1), alignment: 64)
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress, !bytes.isEmpty { p.copyMemory(from: base, byteCount: bytes.count) }
        }
        owner = .allocated(p)
        buffer = UnsafeRawBufferPointer(start: p, count: bytes.count)
    }

    deinit {
        switch owner {
        case .mapped(let p, let size): munmap(p, size)
        case .data: break
        case .allocated(let p): p.deallocate()
        }
    }

    public var count: Int { buffer.count }

    /// Gives the pages that lie wholly inside `range` back to the system when the bytes
    /// are a memory-mapped file: they leave this process's resident memory, and a later
    /// read maps them again from the file, with the same contents (the mapping is
    /// read-only and private, so no page was ever modified). For bytes held in memory
    /// (`Data`, copies) nothing happens: there the memory is the only copy.
    ///
    /// For callers that have consumed a large constant (copied it into another form) and
    /// will not read it again soon. Safe while other threads read the same bytes: they
    /// fault the pages in again. (As for any page of the mapping not read yet, that needs
    /// the file to keep its contents while the model is in use, which mapping it assumes.)
    public func releasePages(_ range: Range<Int>) {
        #if os(Linux) || canImport(Darwin)
        guard case .mapped(let base, let size) = owner, range.lowerBound >= 0, range.upperBound <= size else { return }
        let page = Self.pageSize
        let first = (range.lowerBound + page - 1) / page * page
        let end = range.upperBound / page * page
        guard end > first else { return }
        _ = madvise(base + first, end - first, MADV_DONTNEED)
        #endif
    }

    private static let pageSize: Int = {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        return size > 0 ? size : 4096
    }()
}

/// A read-only view of a byte range inside a model's bytes (constant tensor data,
/// custom options, metadata). Holding it keeps the model bytes alive.
public struct ByteView: Sendable {
    public let storage: ModelBytes
    /// Start offset inside `storage`. Validated at load to lie inside the file.
    public let offset: Int
    public let count: Int

    /// Creates a view; returns nil when the range is not inside `storage`.
    public init?(storage: ModelBytes, offset: Int, count: Int) {
        guard offset >= 0, count >= 0, offset <= storage.count, count <= storage.count - offset else { return nil }
        self.storage = storage
        self.offset = offset
        self.count = count
    }

    /// The viewed bytes. The pointer is valid while `storage` is alive.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage.buffer[offset ..< offset + count])
    }

    /// A copy of the viewed bytes.
    public var array: [UInt8] { Array(bytes) }

    /// ``ModelBytes/releasePages(_:)`` for the viewed range.
    public func releasePages() {
        storage.releasePages(offset ..< offset + count)
    }
}
