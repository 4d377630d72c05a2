/// A vector inside a FlatBuffer: a u32 element count followed by the elements, whose
/// whole byte range has been checked to lie inside the buffer.
package struct FlatBufferVector {
    package let reader: FlatBufferReader
    /// Position of element 0 (just after the count).
    package let start: Int
    package let count: Int
    package let elementSize: Int

    /// The byte range of the elements.
    package var byteRange: Range<Int> { start ..< start + count * elementSize }

    /// Copies the elements out as little-endian integers of `T` (of `elementSize` bytes).
    package func scalars<T: FixedWidthInteger>(as type: T.Type) -> [T] {
        #if _endian(big)
        return copy(as: T.self).map { T(littleEndian: $0) }
        #else
        return copy(as: T.self)
        #endif
    }

    /// Copies the elements out as little-endian `float`s (4-byte elements).
    package func floats() -> [Float] {
        #if _endian(big)
        return copy(as: UInt32.self).map { Float(bitPattern: UInt32(littleEndian: $0)) }
        #else
        return copy(as: Float.self)
        #endif
    }

    /// The elements' bytes copied as they are (one copy: they may be unaligned) into an
    /// array of a trivial type of `elementSize` bytes.
    private func copy<T>(as _: T.Type) -> [T] {
        // Checked at construction: start + count * elementSize is inside the buffer.
        let source = UnsafeRawBufferPointer(rebasing: reader.bytes[start ..< start + count * MemoryLayout<T>.size])
        return [T](unsafeUninitializedCapacity: count) { elements, initialized in
            if let base = elements.baseAddress, let bytes = source.baseAddress, count > 0 {
                UnsafeMutableRawPointer(base).copyMemory(from: bytes, byteCount: source.count)
            }
            initialized = count
        }
    }
}

/// A vector of offsets to tables.
package struct FlatBufferTableVector {
    package let vector: FlatBufferVector
    /// Depth of the element tables.
    let depth: Int
    /// Path of the field, e.g. `Model.subgraphs`; element `i` is `<path>[i]`.
    package let path: String

    package var count: Int { vector.count }

    /// Opens element `index` (which must be in `0..<count`).
    package func table(at index: Int) throws(FlatBufferError) -> FlatBufferTable {
        let elementPath = "\(path)[\(index)]"
        guard index >= 0, index < vector.count else {
            throw FlatBufferError(.outOfBounds, "\(elementPath): index outside the \(vector.count)-element vector")
        }
        let at = try vector.reader.followOffset(at: vector.start + 4 * index) { elementPath }
        return try vector.reader.openTable(at: at, depth: depth, path: elementPath)
    }
}

extension FlatBufferReader {
    /// Opens the vector whose count is stored at `position`.
    /// `parentPath` and `name` only label errors (closures passed straight to the calls
    /// that may throw, so that nothing is captured on the path that succeeds).
    @inline(__always)
    func vector(at position: Int, elementSize: Int, parentPath: String, name: String) throws(FlatBufferError)
        -> FlatBufferVector
    {
        let rawCount = try read(UInt32.self, at: position) { "\(parentPath) field '\(name)'" }
        let count = Int(rawCount)
        let (byteCount, overflow1) = count.multipliedReportingOverflow(by: elementSize)
        let (start, overflow2) = position.addingReportingOverflow(4)
        guard !overflow1, !overflow2, contains(start, length: byteCount) else {
            throw FlatBufferError(
                .outOfBounds,
                "\(parentPath) field '\(name)': vector of \(count) elements at offset \(position) runs past the end of the \(self.count)-byte buffer"
            )
        }
        try countBytes(byteCount + 4) { "\(parentPath) field '\(name)'" }
        return FlatBufferVector(reader: self, start: start, count: count, elementSize: elementSize)
    }

    /// Reads the string whose length is stored at `position`; its NUL must be in range.
    @inline(__always)
    func string(at position: Int, _ what: () -> String) throws(FlatBufferError) -> String {
        let length = Int(try read(UInt32.self, at: position, what))
        let start = position + 4
        guard contains(start, length: length) else {
            throw FlatBufferError(
                .outOfBounds,
                "\(what()): string of \(length) bytes at offset \(position) runs past the end of the \(count)-byte buffer"
            )
        }
        guard contains(start + length, length: 1) else {
            throw FlatBufferError(
                .missingTerminator,
                "\(what()): string of \(length) bytes at offset \(position) has no NUL terminator inside the \(count)-byte buffer"
            )
        }
        guard bytes[start + length] == 0 else {
            throw FlatBufferError(
                .missingTerminator,
                "\(what()): string of \(length) bytes at offset \(position) is not followed by a NUL byte")
        }
        try countBytes(length + 5, path: what)
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start ..< start + length]), as: UTF8.self)
    }
}
