/// Why a FlatBuffer could not be read.
///
/// The message names what was being read (the table path and field) and where (a byte
/// offset), e.g. `Model.subgraphs[0] field 'tensors': vector of 300 elements at offset
/// 1234 runs past the end of the 2000-byte buffer`.
package struct FlatBufferError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// The buffer is shorter than the smallest possible FlatBuffer.
        case bufferTooSmall
        /// A value, vector or string would extend past the end of the buffer.
        case outOfBounds
        /// An offset is zero, negative when read as signed, or points outside the buffer.
        case invalidOffset
        /// A table's vtable is outside the buffer or has an impossible size.
        case invalidVTable
        /// A string has no NUL terminator inside the buffer.
        case missingTerminator
        /// Tables are nested deeper than `FlatBufferLimits.maxDepth`.
        case depthLimitExceeded
        /// More tables were visited than `FlatBufferLimits.maxTables`.
        case tableLimitExceeded
        /// The vectors and strings read add up to more than `FlatBufferLimits.maxApparentSize`.
        case sizeLimitExceeded
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// True for the three limit kinds (depth, table count, apparent size).
    package var isLimit: Bool {
        switch kind {
        case .depthLimitExceeded, .tableLimitExceeded, .sizeLimitExceeded: return true
        default: return false
        }
    }

    package var description: String { message }
}

/// Limits applied while reading, as the official FlatBuffers verifier applies them.
public struct FlatBufferLimits: Hashable, Sendable {
    /// Maximum nesting of tables (the root table is depth 1).
    public var maxDepth: Int = 64
    /// Maximum number of table visits; a table reached twice counts twice.
    public var maxTables: Int = 1_000_000
    /// Maximum total bytes of vectors and strings read. Shared offsets can make a small
    /// file describe a huge logical tree; this bounds the work done on one.
    public var maxApparentSize: Int = 1 << 31

    public init(maxDepth: Int = 64, maxTables: Int = 1_000_000, maxApparentSize: Int = 1 << 31) {
        self.maxDepth = maxDepth
        self.maxTables = maxTables
        self.maxApparentSize = maxApparentSize
    }
}
