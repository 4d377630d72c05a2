/// A FlexBuffer (the self-describing format of `custom_options`), owning a copy of its
/// bytes so its values stay valid independently of the model's storage.
///
/// Layout, read from the end: the last byte is the root slot's byte width, the byte
/// before it the root's packed type (`type << 2 | log2(child width)`), and the root slot
/// itself the `width` bytes before that. Values that are not inline scalars are reached
/// through unsigned offsets that point *backwards* from the slot holding them.
///
/// ```swift
/// let options = try FlexBuffer(copying: op.customOptions.bytes).root.asMap()
/// let maxDetections = try options["max_detections"]?.asInt() ?? 10
/// ```
/// Every read is bounds-checked; malformed input throws `FlexBufferError`.
package struct FlexBuffer: Sendable {
    /// Maximum nesting of vectors and maps (the root container is depth 1).
    package static let maxDepth = 64

    package let bytes: [UInt8]
    /// The root value.
    package let root: FlexValue

    package init(_ bytes: [UInt8]) throws(FlexBufferError) {
        self.bytes = bytes
        let count = bytes.count
        guard count >= 3 else {
            throw FlexBufferError(.bufferTooSmall, "root: a FlexBuffer needs at least 3 bytes, this one has \(count)")
        }
        let width = Int(bytes[count - 1])
        guard FlexBytes.isValidWidth(width) else {
            throw FlexBufferError(.invalidWidth, "root: byte width \(width) in the last byte is not 1, 2, 4 or 8")
        }
        guard count >= width + 2 else {
            throw FlexBufferError(.bufferTooSmall, "root: a \(width)-byte root slot does not fit in \(count) bytes")
        }
        root = try FlexValue(
            bytes: bytes, slot: count - 2 - width, parentWidth: width, packedType: bytes[count - 2], depth: 0,
            path: "root")
    }

    /// Copies `bytes` (e.g. an operator's custom options) and reads them.
    package init(copying bytes: UnsafeRawBufferPointer) throws(FlexBufferError) {
        try self.init(Array(bytes))
    }

    /// Converts the whole buffer into a tree, verifying every value on the way.
    ///
    /// - Parameter maxNodes: bound on the tree size; shared offsets can make a small
    ///   buffer describe an exponentially large tree. The default, ``defaultMaxNodes``,
    ///   grows with the buffer: every value of a well-formed buffer takes at least one
    ///   byte of its own, so only shared offsets can exceed it.
    package func tree(maxNodes: Int? = nil) throws(FlexBufferError) -> FlexTree {
        var budget = maxNodes ?? defaultMaxNodes
        return try FlexTree.build(root, budget: &budget)
    }

    /// `1,024 + 8 × bytes.count`, at most 1,000,000: the work `tree()` may do is
    /// proportional to the input, not exponential in it (a 217-byte fuzz input reached
    /// the former flat 1,000,000-node limit and took seconds).
    package var defaultMaxNodes: Int { Swift.min(1_000_000, 1_024 + 8 * bytes.count) }
}

/// Bounds-checked little-endian reads over a FlexBuffer's bytes.
enum FlexBytes {
    static func isValidWidth(_ width: Int) -> Bool {
        width == 1 || width == 2 || width == 4 || width == 8
    }

    static func contains(_ bytes: [UInt8], _ position: Int, _ length: Int) -> Bool {
        position >= 0 && length >= 0 && position <= bytes.count && length <= bytes.count - position
    }

    /// Reads an unsigned integer of `width` bytes, or nil when out of range.
    static func uint(_ bytes: [UInt8], at position: Int, width: Int) -> UInt64? {
        guard contains(bytes, position, width) else { return nil }
        var value: UInt64 = 0
        for i in stride(from: width - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(bytes[position + i])
        }
        return value
    }

    /// Reads a signed integer of `width` bytes (sign-extended), or nil when out of range.
    static func int(_ bytes: [UInt8], at position: Int, width: Int) -> Int64? {
        guard let raw = uint(bytes, at: position, width: width) else { return nil }
        let unused = UInt64(64 - 8 * width)
        // Shift the sign bit to the top, then arithmetic-shift back down.
        return Int64(bitPattern: raw << unused) >> Int64(unused)
    }

    /// Reads a float of 4 or 8 bytes. Narrower floats do not occur in valid buffers.
    static func double(_ bytes: [UInt8], at position: Int, width: Int) -> Double? {
        guard let raw = uint(bytes, at: position, width: width) else { return nil }
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))
        case 8: return Double(bitPattern: raw)
        default: return nil
        }
    }
}
