/// Bounds-checked access to the bytes of one FlatBuffer.
///
/// The reader owns no memory: `bytes` must stay valid while the reader and any table,
/// vector or view made from it are in use. Every load checks its whole byte range first
/// and uses unaligned little-endian loads, so misaligned data is read correctly rather
/// than trapping. The reader also keeps the verifier's running counters (tables visited,
/// bytes of vectors read), which is why it is a class: all views share one budget.
package final class FlatBufferReader {
    package let bytes: UnsafeRawBufferPointer
    package let limits: FlatBufferLimits
    /// Number of table visits so far.
    package private(set) var tablesVisited = 0
    /// Total bytes of vectors and strings opened so far.
    package private(set) var apparentSize = 0

    /// The smallest buffer that can hold a root offset, an identifier and a table.
    package static let minimumSize = 12

    package init(bytes: UnsafeRawBufferPointer, limits: FlatBufferLimits = FlatBufferLimits()) {
        self.bytes = bytes
        self.limits = limits
    }

    package var count: Int { bytes.count }

    /// The four bytes at 4..<8 (the file identifier), or nil when the buffer is shorter.
    package var fileIdentifier: [UInt8]? {
        guard bytes.count >= 8 else { return nil }
        return Array(bytes[4 ..< 8])
    }

    /// Opens the root table: the u32 at byte 0 is the offset of the root table.
    ///
    /// - Parameter name: the name used for the root in error messages (`Model`).
    package func rootTable(name: String) throws(FlatBufferError) -> FlatBufferTable {
        guard bytes.count >= Self.minimumSize else {
            throw FlatBufferError(
                .bufferTooSmall,
                "\(name): the buffer is \(bytes.count) bytes; a FlatBuffer needs at least \(Self.minimumSize)")
        }
        let position = try followOffset(at: 0) { "\(name): root offset" }
        return try openTable(at: position, depth: 1, path: name)
    }

    // MARK: - Checked loads

    /// True when `length` bytes starting at `position` lie inside the buffer.
    package func contains(_ position: Int, length: Int) -> Bool {
        position >= 0 && length >= 0 && position <= bytes.count && length <= bytes.count - position
    }

    /// Loads a little-endian integer, or nil when it does not fit in the buffer.
    package func load<T: FixedWidthInteger>(_ type: T.Type, at position: Int) -> T? {
        guard contains(position, length: MemoryLayout<T>.size) else { return nil }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// Loads a little-endian integer or throws `outOfBounds` naming `what`.
    @inline(__always)
    func read<T: FixedWidthInteger>(_ type: T.Type, at position: Int, _ what: () -> String) throws(FlatBufferError) -> T
    {
        guard let value = load(T.self, at: position) else {
            throw FlatBufferError(
                .outOfBounds,
                "\(what()): \(MemoryLayout<T>.size)-byte value at offset \(position) runs past the end of the \(bytes.count)-byte buffer"
            )
        }
        return value
    }

    /// Reads the u32 offset stored at `position` and returns the position it points to.
    ///
    /// The offset must be non-zero, below 2^31 (non-negative as a signed value, as the
    /// official verifier demands) and land inside the buffer.
    @inline(__always)
    func followOffset(at position: Int, _ what: () -> String) throws(FlatBufferError) -> Int {
        let raw = try read(UInt32.self, at: position, what)
        guard raw != 0, raw <= UInt32(Int32.max) else {
            throw FlatBufferError(
                .invalidOffset,
                "\(what()): offset \(raw) stored at offset \(position) is \(raw == 0 ? "zero" : "negative as a signed value")"
            )
        }
        let (target, overflow) = position.addingReportingOverflow(Int(raw))
        guard !overflow, target < bytes.count else {
            throw FlatBufferError(
                .invalidOffset,
                "\(what()): offset \(raw) stored at offset \(position) points past the end of the \(bytes.count)-byte buffer"
            )
        }
        return target
    }

    // MARK: - Budget

    func countTable(depth: Int, path: String) throws(FlatBufferError) {
        guard depth <= limits.maxDepth else {
            throw FlatBufferError(.depthLimitExceeded, "\(path): tables nested deeper than \(limits.maxDepth) levels")
        }
        tablesVisited += 1
        guard tablesVisited <= limits.maxTables else {
            throw FlatBufferError(.tableLimitExceeded, "\(path): more than \(limits.maxTables) tables visited")
        }
    }

    @inline(__always)
    func countBytes(_ byteCount: Int, path: () -> String) throws(FlatBufferError) {
        let (total, overflow) = apparentSize.addingReportingOverflow(byteCount)
        guard !overflow, total <= limits.maxApparentSize else {
            throw FlatBufferError(
                .sizeLimitExceeded,
                "\(path()): vectors and strings read exceed \(limits.maxApparentSize) bytes in total")
        }
        apparentSize = total
    }

    // MARK: - Tables

    /// Opens the table that starts at `position`, validating its vtable.
    func openTable(at position: Int, depth: Int, path: String) throws(FlatBufferError) -> FlatBufferTable {
        try countTable(depth: depth, path: path)
        let relative = try read(Int32.self, at: position) { "\(path): table vtable offset" }
        // The vtable lies at `position - relative`; the offset is signed, so either side.
        let (vtable, overflow) = position.subtractingReportingOverflow(Int(relative))
        guard !overflow, let vtableSize = load(UInt16.self, at: vtable),
            let objectSize = load(UInt16.self, at: vtable + 2)
        else {
            throw FlatBufferError(
                .invalidVTable,
                "\(path): table at offset \(position) has its vtable at \(position) - (\(relative)), outside the \(bytes.count)-byte buffer"
            )
        }
        guard vtableSize >= 4, vtableSize % 2 == 0, contains(vtable, length: Int(vtableSize)) else {
            throw FlatBufferError(
                .invalidVTable,
                "\(path): vtable at offset \(vtable) declares \(vtableSize) bytes, which is odd, below 4 or past the end of the \(bytes.count)-byte buffer"
            )
        }
        guard objectSize >= 4, contains(position, length: Int(objectSize)) else {
            throw FlatBufferError(
                .invalidVTable,
                "\(path): table at offset \(position) declares an inline size of \(objectSize) bytes, which is below 4 or past the end of the \(bytes.count)-byte buffer"
            )
        }
        return FlatBufferTable(
            reader: self, position: position, vtable: vtable, vtableSize: Int(vtableSize), depth: depth, path: path)
    }
}
