/// A heap buffer aligned to 64 bytes (a cache line, and enough for any SIMD load),
/// owned by the runtime: the tensor arena, packed weights, folded constants.
public final class AlignedBuffer: @unchecked Sendable {
    public static let alignment = 64
    public let pointer: UnsafeMutableRawPointer
    public let count: Int

    /// Allocates `count` zeroed bytes.
    public convenience init(zeroedCount count: Int) {
        self.init(uninitializedCount: count)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(count, 1))
    }

    /// Allocates `count` bytes the caller initializes entirely (packed weights): zeroing
    /// them first would be a second pass over memory that is often megabytes.
    public init(uninitializedCount count: Int) {
        self.count = count
        pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: Self.alignment)
    }

    /// Copies `bytes`.
    public convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(zeroedCount: bytes.count)
        if let base = bytes.baseAddress, bytes.count > 0 { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }

    /// Copies the elements of `array`.
    public convenience init<T>(_ array: [T]) {
        let size = MemoryLayout<T>.stride * array.count
        self.init(zeroedCount: size)
        array.withUnsafeBytes { raw in
            if let base = raw.baseAddress, size > 0 { pointer.copyMemory(from: base, byteCount: size) }
        }
    }

    deinit { pointer.deallocate() }

    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }

    public func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: T.self) }
}
