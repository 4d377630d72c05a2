/// A table inside a FlatBuffer: an inline object whose fields are located through its
/// vtable. A field whose vtable entry is missing (beyond the vtable) or zero is absent,
/// and reads of it return the schema default passed by the caller.
///
/// Fields are addressed by *slot*, their declaration index in the schema (a union takes
/// two slots: its type, then its value). `name` arguments only label error messages.
package struct FlatBufferTable {
    package let reader: FlatBufferReader
    /// Offset of the table's first byte (its signed vtable offset).
    package let position: Int
    let vtable: Int
    let vtableSize: Int
    /// Nesting depth: 1 for the root table.
    package let depth: Int
    /// Where this table sits, e.g. `Model.subgraphs[0].tensors[5]`, for error messages.
    package let path: String

    /// Offset of field `slot` from the table start, or nil when the field is absent.
    package func fieldOffset(_ slot: Int) -> Int? {
        guard slot >= 0, slot < (vtableSize - 4) / 2 else { return nil }
        // The vtable was checked to lie inside the buffer, so its entries load.
        guard let entry = reader.load(UInt16.self, at: vtable + 4 + 2 * slot), entry != 0 else { return nil }
        return Int(entry)
    }

    package func hasField(_ slot: Int) -> Bool { fieldOffset(slot) != nil }

    /// The absolute position of a present field whose inline value has `size` bytes.
    func fieldPosition(_ slot: Int, _ name: String, size: Int) throws(FlatBufferError) -> Int? {
        guard let offset = fieldOffset(slot) else { return nil }
        let (at, overflow) = position.addingReportingOverflow(offset)
        guard !overflow, reader.contains(at, length: size) else {
            throw FlatBufferError(
                .outOfBounds,
                "\(path) field '\(name)': \(size)-byte value at offset \(at) runs past the end of the \(reader.count)-byte buffer"
            )
        }
        return at
    }

    // MARK: - Scalars

    package func scalar<T: FixedWidthInteger>(_ slot: Int, _ name: String, default value: T) throws(FlatBufferError)
        -> T
    {
        guard let at = try fieldPosition(slot, name, size: MemoryLayout<T>.size) else { return value }
        return try reader.read(T.self, at: at) { "\(path) field '\(name)'" }
    }

    /// A `bool` field: one byte, true when non-zero.
    package func bool(_ slot: Int, _ name: String, default value: Bool = false) throws(FlatBufferError) -> Bool {
        try scalar(slot, name, default: UInt8(value ? 1 : 0)) != 0
    }

    package func float(_ slot: Int, _ name: String, default value: Float = 0) throws(FlatBufferError) -> Float {
        Float(bitPattern: try scalar(slot, name, default: value.bitPattern))
    }

    package func double(_ slot: Int, _ name: String, default value: Double = 0) throws(FlatBufferError) -> Double {
        Double(bitPattern: try scalar(slot, name, default: value.bitPattern))
    }

    // MARK: - Offsets

    /// The position an offset field points to, or nil when the field is absent.
    func target(_ slot: Int, _ name: String) throws(FlatBufferError) -> Int? {
        guard let at = try fieldPosition(slot, name, size: 4) else { return nil }
        return try reader.followOffset(at: at) { "\(path) field '\(name)'" }
    }

    /// A sub-table field, or nil when absent.
    package func table(_ slot: Int, _ name: String) throws(FlatBufferError) -> FlatBufferTable? {
        guard let at = try target(slot, name) else { return nil }
        return try reader.openTable(at: at, depth: depth + 1, path: "\(path).\(name)")
    }

    /// A string field (UTF-8, NUL-terminated inside the buffer), or nil when absent.
    /// Invalid UTF-8 is repaired with replacement characters rather than rejected.
    package func string(_ slot: Int, _ name: String) throws(FlatBufferError) -> String? {
        guard let at = try target(slot, name) else { return nil }
        return try reader.string(at: at) { "\(path) field '\(name)'" }
    }

    /// A vector field with `elementSize`-byte elements, or nil when absent.
    package func vector(_ slot: Int, _ name: String, elementSize: Int) throws(FlatBufferError) -> FlatBufferVector? {
        guard let at = try target(slot, name) else { return nil }
        return try reader.vector(at: at, elementSize: elementSize, parentPath: path, name: name)
    }

    /// A vector of integers, copied out, or nil when absent.
    package func scalars<T: FixedWidthInteger>(_ slot: Int, _ name: String, as type: T.Type) throws(FlatBufferError)
        -> [T]?
    {
        try vector(slot, name, elementSize: MemoryLayout<T>.size)?.scalars(as: T.self)
    }

    /// A vector of `float`, copied out, or nil when absent.
    package func floats(_ slot: Int, _ name: String) throws(FlatBufferError) -> [Float]? {
        try vector(slot, name, elementSize: 4)?.floats()
    }

    /// A vector of `bool`, copied out, or nil when absent.
    package func bools(_ slot: Int, _ name: String) throws(FlatBufferError) -> [Bool]? {
        try scalars(slot, name, as: UInt8.self).map { bytes in bytes.map { $0 != 0 } }
    }

    /// Where the bytes of a `[ubyte]` field lie in the buffer (no copy), or nil when absent.
    package func byteRange(_ slot: Int, _ name: String) throws(FlatBufferError) -> Range<Int>? {
        try vector(slot, name, elementSize: 1)?.byteRange
    }

    /// A vector of tables, or nil when absent.
    package func tables(_ slot: Int, _ name: String) throws(FlatBufferError) -> FlatBufferTableVector? {
        guard let vector = try vector(slot, name, elementSize: 4) else { return nil }
        return FlatBufferTableVector(vector: vector, depth: depth + 1, path: "\(path).\(name)")
    }

    /// A vector of strings, copied out, or nil when absent.
    package func strings(_ slot: Int, _ name: String) throws(FlatBufferError) -> [String]? {
        guard let vector = try vector(slot, name, elementSize: 4) else { return nil }
        var result: [String] = []
        result.reserveCapacity(vector.count)
        for i in 0 ..< vector.count {
            let at = try reader.followOffset(at: vector.start + 4 * i) { "\(path) field '\(name)' element \(i)" }
            result.append(try reader.string(at: at) { "\(path) field '\(name)' element \(i)" })
        }
        return result
    }

    // MARK: - Unions

    /// A union field declared at `typeSlot`: its type tag (0 = NONE) and, when the tag is
    /// non-zero and the value is present, the value table (stored in `typeSlot + 1`).
    /// An unknown tag is not an error here; the caller decides what it means.
    package func union(_ typeSlot: Int, _ name: String) throws(FlatBufferError) -> (
        type: UInt8, table: FlatBufferTable?
    ) {
        let type = try scalar(typeSlot, "\(name)_type", default: UInt8(0))
        guard type != 0 else { return (0, nil) }
        return (type, try table(typeSlot + 1, name))
    }
}
