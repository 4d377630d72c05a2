import Testing
import SeededRandom
import TFLiteFormat

/// Runs `body` over `bytes` as a FlatBuffer.
func withReader<T>(
    _ bytes: [UInt8], limits: FlatBufferLimits = FlatBufferLimits(), _ body: (FlatBufferReader) throws -> T
) throws -> T {
    try bytes.withUnsafeBytes { raw in try body(FlatBufferReader(bytes: raw, limits: limits)) }
}

/// Expects `body` to throw a `FlatBufferError` of `kind` whose message contains `text`.
func expectFlatBufferError(
    _ kind: FlatBufferError.Kind, _ text: String = "", sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected a \(kind) error", sourceLocation: sourceLocation)
    } catch let error as FlatBufferError {
        #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
        #expect(
            text.isEmpty || error.message.contains(text), "message: \(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a `FlexBufferError` of `kind` whose message contains `text`.
func expectFlexError(
    _ kind: FlexBufferError.Kind, _ text: String = "", sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected a \(kind) error", sourceLocation: sourceLocation)
    } catch let error as FlexBufferError {
        #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
        #expect(
            text.isEmpty || error.message.contains(text), "message: \(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

typealias SeededGenerator = SplitMix64

/// Little-endian byte appends for hand-made buffers.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    mutating func u32(_ v: UInt32) { bytes += withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    mutating func i32(_ v: Int32) { bytes += withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    mutating func patchU32(_ v: UInt32, at i: Int) {
        let b = withUnsafeBytes(of: v.littleEndian) { Array($0) }
        for k in 0 ..< 4 { bytes[i + k] = b[k] }
    }
}
