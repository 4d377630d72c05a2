import Testing
import FlatBufferTestSupport
import TFLiteFormat

@Suite("FlatBuffers: malformed input and verifier limits")
struct FlatBufferMalformedTests {
    /// Root table with slot 0 = vector of 3 i32 and slot 1 = string "abc".
    func sample() -> [UInt8] {
        FlatBufferWriter.serialize(FBTable([0: .i32s([1, 2, 3]), 1: .string("abc")]))
    }

    /// Position of the count of the vector in slot 0 / the string in slot 1 of `sample()`.
    func targets(_ bytes: [UInt8]) throws -> (vector: Int, string: Int) {
        try withReader(bytes) { reader in
            let t = try reader.rootTable(name: "Root")
            let v = try #require(try t.vector(0, "v", elementSize: 4))
            let s = t.position + (t.fieldOffset(1) ?? 0)
            let sTarget = s + Int(reader.load(UInt32.self, at: s) ?? 0)
            return (v.start - 4, sTarget)
        }
    }

    @Test func tooSmallBuffer() {
        expectFlatBufferError(.bufferTooSmall, "8 bytes") {
            _ = try withReader([UInt8](repeating: 0, count: 8)) { r in try r.rootTable(name: "Root") }
        }
    }

    @Test func rootOffsetOutOfRangeOrZero() {
        var bytes = sample()
        let count = bytes.count
        bytes.replaceSubrange(0 ..< 4, with: le(UInt32(count + 10)))
        expectFlatBufferError(.invalidOffset, "points past the end of the \(count)-byte buffer") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root") }
        }
        bytes.replaceSubrange(0 ..< 4, with: le(UInt32(0)))
        expectFlatBufferError(.invalidOffset, "is zero") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root") }
        }
        bytes.replaceSubrange(0 ..< 4, with: le(UInt32(0x8000_0010)))
        expectFlatBufferError(.invalidOffset, "negative as a signed value") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root") }
        }
    }

    @Test func vtableOutsideBufferOrOddSize() throws {
        var bytes = sample()
        let root = Int(bytes[0]) | Int(bytes[1]) << 8
        bytes.replaceSubrange(root ..< root + 4, with: le(Int32(-100_000)))
        expectFlatBufferError(.invalidVTable, "outside the") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root") }
        }
        bytes = sample()
        let vtable =
            root
            - Int(Int32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: root, as: Int32.self) }))
        bytes[vtable] = 7
        expectFlatBufferError(.invalidVTable, "declares 7 bytes") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root") }
        }
    }

    @Test func truncatedVectorIsLocated() throws {
        var bytes = sample()
        let (vector, _) = try targets(bytes)
        bytes.replaceSubrange(vector ..< vector + 4, with: le(UInt32(300)))
        let count = bytes.count
        expectFlatBufferError(
            .outOfBounds,
            "Root field 'values': vector of 300 elements at offset \(vector) runs past the end of the \(count)-byte buffer"
        ) {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root").scalars(0, "values", as: Int32.self) }
        }
        // A count so large that count × element size would overflow 32 bits.
        bytes.replaceSubrange(vector ..< vector + 4, with: le(UInt32.max))
        expectFlatBufferError(.outOfBounds, "vector of 4294967295 elements") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root").scalars(0, "values", as: Int64.self) }
        }
    }

    @Test func stringWithoutTerminator() throws {
        var bytes = sample()
        let (_, string) = try targets(bytes)
        bytes[string + 4 + 3] = UInt8(ascii: "!")
        expectFlatBufferError(.missingTerminator, "Root field 'name': string of 3 bytes") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root").string(1, "name") }
        }
        // The string runs exactly to the end of the buffer: no room for the NUL.
        bytes = Array(sample()[..<(string + 4 + 3)])
        expectFlatBufferError(.missingTerminator, "no NUL terminator inside") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root").string(1, "name") }
        }
        bytes = sample()
        bytes.replaceSubrange(string ..< string + 4, with: le(UInt32(1000)))
        expectFlatBufferError(.outOfBounds, "string of 1000 bytes") {
            _ = try withReader(bytes) { r in try r.rootTable(name: "Root").string(1, "name") }
        }
    }

    @Test func fieldPastTheEnd() throws {
        // Cut the buffer inside the table so a field's bytes are missing while the vtable
        // and the table's soffset are still present.
        let bytes = FlatBufferWriter.serialize(FBTable([0: .i32(1), 5: .i64(2)]))
        let cut = try withReader(bytes) { r in try r.rootTable(name: "Root").position + 8 }
        expectFlatBufferError(.invalidVTable, "inline size") {
            _ = try withReader(Array(bytes[..<cut])) { r in try r.rootTable(name: "Root") }
        }
    }

    /// `depth` tables, each holding the next in slot 0.
    func nested(_ depth: Int) -> [UInt8] {
        var table = FBTable([1: .i32(Int32(depth))])
        for i in 1 ..< depth { table = FBTable([0: .table(table), 1: .i32(Int32(depth - i))]) }
        return FlatBufferWriter.serialize(table)
    }

    func descend(_ reader: FlatBufferReader) throws -> Int {
        var table = try reader.rootTable(name: "T")
        var depth = 1
        while let next = try table.table(0, "next") {
            table = next
            depth += 1
        }
        return depth
    }

    @Test func depthLimit() throws {
        #expect(FlatBufferLimits().maxDepth == 64)
        #expect(try withReader(nested(64)) { r in try descend(r) } == 64)
        expectFlatBufferError(.depthLimitExceeded, "deeper than 64") {
            _ = try withReader(nested(65)) { r in try descend(r) }
        }
        expectFlatBufferError(.depthLimitExceeded, "deeper than 5") {
            _ = try withReader(nested(10), limits: FlatBufferLimits(maxDepth: 5)) { r in try descend(r) }
        }
    }

    @Test func tableCountLimit() throws {
        #expect(FlatBufferLimits().maxTables == 1_000_000)
        let bytes = FlatBufferWriter.serialize(
            FBTable([0: .tables(Array(repeating: FBTable([0: .i32(1)]), count: 20))]))
        func visitAll(_ r: FlatBufferReader) throws -> Int {
            let list = try #require(try r.rootTable(name: "Root").tables(0, "items"))
            for i in 0 ..< list.count { _ = try list.table(at: i) }
            return r.tablesVisited
        }
        #expect(try withReader(bytes, limits: FlatBufferLimits(maxTables: 21), visitAll) == 21)
        expectFlatBufferError(.tableLimitExceeded, "more than 10 tables") {
            _ = try withReader(bytes, limits: FlatBufferLimits(maxTables: 10), visitAll)
        }
    }

    @Test func apparentSizeLimit() {
        let bytes = FlatBufferWriter.serialize(FBTable([0: .i32s(Array(repeating: 1, count: 100))]))
        expectFlatBufferError(.sizeLimitExceeded) {
            _ = try withReader(bytes, limits: FlatBufferLimits(maxApparentSize: 100)) { r in
                try r.rootTable(name: "Root").scalars(0, "v", as: Int32.self)
            }
        }
    }

    /// Reads everything `sample`-like buffers contain; used on corrupted copies.
    func readAll(_ r: FlatBufferReader) throws {
        let t = try r.rootTable(name: "Root")
        _ = try t.scalars(0, "a", as: Int32.self)
        _ = try t.string(1, "b")
        if let list = try t.tables(2, "c") {
            for i in 0 ..< list.count {
                let e = try list.table(at: i)
                _ = try e.string(0, "name")
                _ = try e.union(1, "u")
                _ = try e.floats(3, "f")
            }
        }
        _ = try t.strings(3, "d")
    }

    /// The kind of `FlatBufferError` reading `bytes` throws, nil if it reads; any other
    /// error is recorded as an issue.
    func readAllError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> FlatBufferError.Kind? {
        do {
            try withReader(bytes, readAll)
            return nil
        } catch let error as FlatBufferError {
            return error.kind
        } catch {
            Issue.record("\(error) is not a FlatBufferError", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Every strict prefix of a buffer, and random byte corruptions of it, are read to the
    /// end: each must either read or throw a structural `FlatBufferError` (the default
    /// limits are far above this buffer), and every prefix must be refused, as too small
    /// below `FlatBufferReader.minimumSize` and as out of bounds or a bad offset above.
    @Test func everyPrefixAndRandomCorruptionIsAnErrorNotACrash() throws {
        let element = FBTable([0: .string("x"), 1: .u8(1), 2: .table(FBTable([0: .i32(3)])), 3: .f32s([1, 2])])
        let bytes = FlatBufferWriter.serialize(
            FBTable([
                0: .i32s([1, 2, 3]), 1: .string("abc"), 2: .tables([element, element]), 3: .strings(["p", "q"]),
            ]))
        #expect(readAllError(bytes) == nil)
        let structural: Set<FlatBufferError.Kind> = [.outOfBounds, .invalidOffset, .invalidVTable, .missingTerminator]
        for n in 0 ..< bytes.count {
            let kind = readAllError(Array(bytes[..<n]))
            if n < FlatBufferReader.minimumSize {
                #expect(kind == .bufferTooSmall, "prefix of \(n) bytes")
            } else {
                #expect(kind.map(structural.contains) == true, "prefix of \(n) bytes: \(String(describing: kind))")
            }
        }
        var rng = SeededGenerator(seed: 0xF1A7)
        var refused = 0
        for _ in 0 ..< 3000 {
            var copy = bytes
            for _ in 0 ..< Int.random(in: 1 ... 4, using: &rng) {
                copy[Int.random(in: 0 ..< copy.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
            }
            guard let kind = readAllError(copy) else { continue }
            refused += 1
            #expect(structural.contains(kind), "\(kind)")
        }
        // Corruptions that land in string or scalar bytes read fine; most do not.
        #expect(refused > 1000 && refused < 3000)
    }
}
