#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A heap buffer aligned to 64 bytes (a cache line, and enough for any SIMD load),
/// owned by the runtime: the tensor arena, packed weights, folded constants.
///
/// Buffers of ``PageMemory/threshold`` bytes or more are whole pages mapped from the
/// system (see ``PageMemory``): they start zero-filled without being written, and are
/// returned to the system when the buffer is released.
package final class AlignedBuffer: @unchecked Sendable {
    package static let alignment = 64
    package let pointer: UnsafeMutableRawPointer
    package let count: Int
    /// Bytes mapped at `pointer` (a multiple of the page size), or 0 for a heap allocation.
    private let mappedBytes: Int

    /// Allocates `count` zeroed bytes. Large buffers are fresh zero pages, which cost
    /// nothing until first touched (a tensor arena is not written at allocation), and
    /// are 2 MiB pages where the system offers them, like packed weights.
    package convenience init(zeroedCount count: Int) {
        self.init(count: count, populate: false)
        if mappedBytes == 0 { pointer.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(count, 1)) }
    }

    /// Allocates `count` bytes the caller initializes entirely (packed weights): zeroing
    /// them first would be a second pass over memory that is often megabytes. Large
    /// buffers are mapped with their pages already present (and 2 MiB pages where the
    /// system offers them), which is cheaper than faulting them in one by one as they
    /// are written.
    package convenience init(uninitializedCount count: Int) {
        self.init(count: count, populate: true)
    }

    private init(count: Int, populate: Bool) {
        self.count = count
        if let mapped = PageMemory.map(count, populate: populate) {
            (pointer, mappedBytes) = mapped
        } else {
            pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: Self.alignment)
            mappedBytes = 0
        }
    }

    /// Copies `bytes`.
    package convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(uninitializedCount: bytes.count)
        if let base = bytes.baseAddress, bytes.count > 0 { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }

    /// Copies the elements of `array`.
    package convenience init<T>(_ array: [T]) {
        let size = MemoryLayout<T>.stride * array.count
        self.init(uninitializedCount: size)
        array.withUnsafeBytes { raw in
            if let base = raw.baseAddress, size > 0 { pointer.copyMemory(from: base, byteCount: size) }
        }
    }

    deinit {
        if mappedBytes > 0 {
            PageMemory.unmap(pointer, mappedBytes)
        } else {
            pointer.deallocate()
        }
    }

    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }

    package func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: T.self) }
}

/// Anonymous memory mapped directly from the system, for buffers large enough that the
/// page faults of filling them dominate: a 4-byte-per-weight copy of MobileNet v1 is
/// 17 MB, over 4,000 faults of a 4 KiB page when written first.
///
/// - Mapped pages are zero-filled by the system, so a zeroed buffer needs no writes.
/// - Each 2 MiB-aligned run of 2 MiB inside a buffer is marked `MADV_HUGEPAGE`, so where
///   transparent huge pages are enabled it becomes one 2 MiB page. Only runs wholly
///   inside the buffer are marked: a huge page is resident as a whole, and one that
///   straddled the end would hold memory the buffer does not use. This matters for the
///   tensor arena as much as for packed weights: MobileNet v2's 6.3 MiB arena on 4 KiB
///   pages plus its 14 MB of weights outgrow the second-level TLB, and at 2 threads its
///   float and int8 forms ran 1-5% faster (Zen 4) with the arena on 2 MiB pages too.
/// - `populate` asks for every page up front (`MADV_POPULATE_WRITE`, Linux 5.14), one
///   system call instead of a fault per page.
///
/// Both hints are advice: when the system declines, pages fault in as they are written,
/// with the same contents.
enum PageMemory {
    /// Smallest buffer worth its own mapping (glibc's default `mmap` threshold).
    static let threshold = 128 << 10
    static let hugePage = 2 << 20
    static let page: Int = {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        return size > 0 ? size : 4096
    }()

    /// Under AddressSanitizer buffers stay on the heap, where its redzones catch an access
    /// past a buffer's end (in a mapping, the rest of the last page would not).
    static let sanitized: Bool = {
        #if canImport(Glibc)
        return dlsym(nil, "__asan_init") != nil // nil is RTLD_DEFAULT in glibc
        #elseif canImport(Darwin)
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__asan_init") != nil // RTLD_DEFAULT
        #else
        return false
        #endif
    }()

    /// Maps at least `count` bytes (rounded up to whole pages), or returns nil when
    /// `count` is below ``threshold``, under AddressSanitizer, or when the system refuses
    /// (callers then use the heap).
    static func map(_ count: Int, populate: Bool) -> (UnsafeMutableRawPointer, Int)? {
        guard count >= threshold, !sanitized else { return nil }
        let (rounded, o1) = count.addingReportingOverflow(page - 1)
        guard !o1 else { return nil }
        let length = rounded / page * page
        #if os(Linux)
        // Room to start the buffer on a 2 MiB boundary, so that whole huge pages fit in it.
        let huge = length >= hugePage
        let (span, o2) = length.addingReportingOverflow(huge ? hugePage : 0)
        guard !o2, let raw = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            raw != MAP_FAILED
        else { return nil }
        var start = raw
        if huge {
            let address = UInt(bitPattern: raw)
            let aligned = (address + UInt(hugePage - 1)) & ~UInt(hugePage - 1)
            let head = Int(aligned - address)
            if head > 0 { munmap(raw, head) }
            start = raw + head
            let tail = span - head - length
            if tail > 0 { munmap(start + length, tail) }
            let whole = length / hugePage * hugePage
            if whole > 0 { _ = madvise(start, whole, MADV_HUGEPAGE) }
        }
        if populate { _ = madvise(start, length, 23 /* MADV_POPULATE_WRITE */) }
        return (start, length)
        #else
        guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0),
            raw != MAP_FAILED
        else { return nil }
        return (raw, length)
        #endif
    }

    static func unmap(_ pointer: UnsafeMutableRawPointer, _ length: Int) {
        munmap(pointer, length)
    }
}
