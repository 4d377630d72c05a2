// A minimal FlatBuffers writer for tests: describe a tree of tables, vectors and strings,
// and serialize it front to back (parents before children, so every offset points
// forward). It exists to build valid inputs and, by editing the result, malformed ones.

/// One field of a table: inline scalar bytes, or an offset to a child object.
public enum FBField: Sendable {
    case scalar([UInt8])
    case child(FBObject)

    public static func u8(_ v: UInt8) -> FBField { .scalar([v]) }
    public static func i8(_ v: Int8) -> FBField { .scalar([UInt8(bitPattern: v)]) }
    public static func bool(_ v: Bool) -> FBField { .scalar([v ? 1 : 0]) }
    public static func u16(_ v: UInt16) -> FBField { .scalar(le(v)) }
    public static func i32(_ v: Int32) -> FBField { .scalar(le(v)) }
    public static func u32(_ v: UInt32) -> FBField { .scalar(le(v)) }
    public static func i64(_ v: Int64) -> FBField { .scalar(le(v)) }
    public static func u64(_ v: UInt64) -> FBField { .scalar(le(v)) }
    public static func f32(_ v: Float) -> FBField { .scalar(le(v.bitPattern)) }
    public static func f64(_ v: Double) -> FBField { .scalar(le(v.bitPattern)) }
    public static func table(_ t: FBTable) -> FBField { .child(.table(t)) }
    public static func string(_ s: String) -> FBField { .child(.string(s)) }
    public static func i32s(_ v: [Int32]) -> FBField { .child(.scalars(v.flatMap(le), elementSize: 4)) }
    public static func u16s(_ v: [UInt16]) -> FBField { .child(.scalars(v.flatMap(le), elementSize: 2)) }
    public static func i64s(_ v: [Int64]) -> FBField { .child(.scalars(v.flatMap(le), elementSize: 8)) }
    public static func f32s(_ v: [Float]) -> FBField {
        .child(.scalars(v.flatMap { le($0.bitPattern) }, elementSize: 4))
    }
    public static func bytes(_ v: [UInt8], align: Int = 16) -> FBField {
        .child(.scalars(v, elementSize: 1, align: align))
    }
    public static func bools(_ v: [Bool]) -> FBField { .child(.scalars(v.map { $0 ? 1 : 0 }, elementSize: 1)) }
    public static func tables(_ v: [FBTable]) -> FBField { .child(.tables(v)) }
    public static func strings(_ v: [String]) -> FBField { .child(.strings(v)) }
}

/// An object reached through an offset.
public indirect enum FBObject: Sendable {
    case table(FBTable)
    case string(String)
    /// A vector of scalars given as little-endian bytes; `align` applies to the elements.
    case scalars([UInt8], elementSize: Int, align: Int = 4)
    case tables([FBTable])
    case strings([String])
}

/// A table: fields by slot. Missing slots are absent (vtable entry 0 or beyond the vtable).
public struct FBTable: Sendable {
    public var fields: [Int: FBField]
    public init(_ fields: [Int: FBField] = [:]) { self.fields = fields }
    public subscript(slot: Int) -> FBField? {
        get { fields[slot] }
        set { fields[slot] = newValue }
    }
}

public func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
    withUnsafeBytes(of: v.littleEndian) { Array($0) }
}

/// Serializes FlatBuffers front to back.
public struct FlatBufferWriter {
    public private(set) var bytes: [UInt8] = []

    /// Serializes `root` with a 4-byte `identifier` (or zeros) at bytes 4..<8.
    public static func serialize(_ root: FBTable, identifier: String? = "TFL3") -> [UInt8] {
        var w = FlatBufferWriter()
        w.bytes = [0, 0, 0, 0]
        w.bytes += identifier.map { Array($0.utf8.prefix(4)) } ?? [0, 0, 0, 0]
        let position = w.write(root)
        w.patchOffset(at: 0, to: position)
        return w.bytes
    }

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func patchOffset(at slot: Int, to target: Int) {
        let value = le(UInt32(target - slot))
        for i in 0 ..< 4 { bytes[slot + i] = value[i] }
    }

    mutating func write(_ object: FBObject) -> Int {
        switch object {
        case .table(let t): return write(t)
        case .string(let s):
            pad(to: 4)
            let at = bytes.count
            let utf8 = Array(s.utf8)
            bytes += le(UInt32(utf8.count)) + utf8 + [0]
            return at
        case .scalars(let data, let elementSize, let align):
            // Place the count so that the elements start aligned.
            let alignment = max(align, elementSize, 4)
            while (bytes.count + 4) % alignment != 0 { bytes.append(0) }
            let at = bytes.count
            bytes += le(UInt32(data.count / elementSize)) + data
            return at
        case .tables(let tables):
            return writeOffsets(tables.map { .table($0) })
        case .strings(let strings):
            return writeOffsets(strings.map { .string($0) })
        }
    }

    mutating func writeOffsets(_ objects: [FBObject]) -> Int {
        pad(to: 4)
        let at = bytes.count
        bytes += le(UInt32(objects.count))
        let slots = objects.indices.map { at + 4 + 4 * $0 }
        bytes += [UInt8](repeating: 0, count: 4 * objects.count)
        for (slot, object) in zip(slots, objects) {
            let target = write(object)
            patchOffset(at: slot, to: target)
        }
        return at
    }

    mutating func write(_ table: FBTable) -> Int {
        let slots = table.fields.keys.sorted()
        let slotCount = (slots.last ?? -1) + 1
        // Inline layout: the soffset, then each field aligned to its size.
        var layout: [Int: Int] = [:]
        var size = 4
        for slot in slots {
            let width: Int
            switch table.fields[slot] {
            case .scalar(let b)?: width = b.count
            default: width = 4
            }
            while size % width != 0 { size += 1 }
            layout[slot] = size
            size += width
        }
        pad(to: 2)
        let vtable = bytes.count
        bytes += le(UInt16(4 + 2 * slotCount)) + le(UInt16(size))
        for slot in 0 ..< slotCount { bytes += le(UInt16(layout[slot] ?? 0)) }
        pad(to: 8)
        let at = bytes.count
        bytes += le(Int32(at - vtable)) + [UInt8](repeating: 0, count: size - 4)
        var children: [(Int, FBObject)] = []
        for slot in slots {
            let fieldAt = at + (layout[slot] ?? 0)
            switch table.fields[slot] {
            case .scalar(let b)?: for (i, byte) in b.enumerated() { bytes[fieldAt + i] = byte }
            case .child(let object)?: children.append((fieldAt, object))
            case nil: break
            }
        }
        for (slot, object) in children {
            let target = write(object)
            patchOffset(at: slot, to: target)
        }
        return at
    }
}
