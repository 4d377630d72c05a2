// A minimal FlexBuffers writer for tests. Every slot and every child uses one byte
// width `W` (1, 2, 4 or 8), which keeps the encoder short and lets tests exercise each
// width. Children are written before their parents, so offsets point backwards.

public indirect enum FlexInput: Sendable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    case key(String)
    case blob([UInt8])
    case indirectInt(Int64)
    case indirectFloat(Double)
    case vector([FlexInput])
    /// A typed vector of ints (type VECTOR_INT).
    case ints([Int64])
    /// A fixed typed vector of 3 floats (type VECTOR_FLOAT3).
    case float3(Double, Double, Double)
    case map([(String, FlexInput)])
}

public struct FlexBufferWriter {
    public private(set) var bytes: [UInt8] = []
    let width: Int

    /// Encodes `root` with every slot `width` bytes wide.
    public static func encode(_ root: FlexInput, width: Int = 1) -> [UInt8] {
        var w = FlexBufferWriter(width: width)
        let slot = w.write(root)
        w.pad()
        w.put(slot, at: w.bytes.count)
        w.bytes.append(slot.packed)
        w.bytes.append(UInt8(width))
        return w.bytes
    }

    init(width: Int) { self.width = width }

    struct Slot {
        var inlineBits: UInt64 = 0
        var target: Int? = nil
        var type: UInt8
        var packed: UInt8
    }

    var log2Width: UInt8 { width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3 }

    mutating func pad() { while bytes.count % width != 0 { bytes.append(0) } }

    mutating func appendUInt(_ v: UInt64) {
        for i in 0 ..< width { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }

    func floatBits(_ d: Double) -> UInt64 {
        width == 4 ? UInt64(Float(d).bitPattern) : d.bitPattern
    }

    /// Writes the slot value at `position` (appending: position == bytes.count).
    mutating func put(_ slot: Slot, at position: Int) {
        if let target = slot.target { appendUInt(UInt64(position - target)) } else { appendUInt(slot.inlineBits) }
    }

    mutating func writeSlots(_ slots: [Slot]) {
        for s in slots { put(s, at: bytes.count) }
    }

    func inline(_ type: UInt8, _ bits: UInt64) -> Slot {
        Slot(inlineBits: bits, target: nil, type: type, packed: type << 2 | log2Width)
    }

    func offset(_ type: UInt8, _ target: Int) -> Slot {
        Slot(inlineBits: 0, target: target, type: type, packed: type << 2 | log2Width)
    }

    mutating func write(_ value: FlexInput) -> Slot {
        switch value {
        case .null: return inline(0, 0)
        case .int(let v): return inline(1, UInt64(bitPattern: v))
        case .uint(let v): return inline(2, v)
        case .float(let v): return inline(3, floatBits(v))
        case .bool(let v): return inline(26, v ? 1 : 0)
        case .indirectInt(let v):
            pad(); let at = bytes.count; appendUInt(UInt64(bitPattern: v))
            return offset(6, at)
        case .indirectFloat(let v):
            pad(); let at = bytes.count; appendUInt(floatBits(v))
            return offset(8, at)
        case .string(let s):
            pad(); appendUInt(UInt64(s.utf8.count))
            let at = bytes.count; bytes += Array(s.utf8) + [0]
            return offset(5, at)
        case .key(let s):
            let at = bytes.count; bytes += Array(s.utf8) + [0]
            return offset(4, at)
        case .blob(let b):
            pad(); appendUInt(UInt64(b.count))
            let at = bytes.count; bytes += b
            return offset(25, at)
        case .ints(let values):
            pad(); appendUInt(UInt64(values.count))
            let at = bytes.count
            for v in values { appendUInt(UInt64(bitPattern: v)) }
            return offset(11, at)
        case .float3(let a, let b, let c):
            pad()
            let at = bytes.count
            for v in [a, b, c] { appendUInt(floatBits(v)) }
            return offset(21, at)
        case .vector(let items):
            let slots = items.map { write($0) }
            pad(); appendUInt(UInt64(slots.count))
            let at = bytes.count
            writeSlots(slots)
            bytes += slots.map(\.packed)
            return offset(10, at)
        case .map(let entries):
            let sorted = entries.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
            let keySlots = sorted.map { write(.key($0.0)) }
            pad(); appendUInt(UInt64(keySlots.count))
            let keysAt = bytes.count
            writeSlots(keySlots)
            let valueSlots = sorted.map { write($0.1) }
            pad()
            put(offset(14, keysAt), at: bytes.count)
            appendUInt(UInt64(width))
            appendUInt(UInt64(valueSlots.count))
            let at = bytes.count
            writeSlots(valueSlots)
            bytes += valueSlots.map(\.packed)
            return offset(9, at)
        }
    }
}
