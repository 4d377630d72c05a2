import Testing
import FlatBufferTestSupport
import TFLiteFormat

@Suite("FlexBuffers")
struct FlexBufferTests {
    /// Options as the SSD detection post-processing op stores them.
    let detectionOptions: FlexInput = .map([
        ("max_detections", .int(10)),
        ("max_classes_per_detection", .int(1)),
        ("nms_score_threshold", .float(0.5)),
        ("nms_iou_threshold", .float(0.25)),
        ("num_classes", .int(90)),
        ("y_scale", .float(10)),
        ("use_regular_nms", .bool(false)),
        ("name", .string("ssd")),
    ])

    @Test(arguments: [4, 8])
    func mapLookupAtWidth(width: Int) throws {
        let buffer = try FlexBuffer(FlexBufferWriter.encode(detectionOptions, width: width))
        #expect(buffer.root.type == .map)
        let map = try buffer.root.asMap()
        #expect(map.count == 8)
        #expect(map.keys == map.keys.sorted())
        #expect(try map["max_detections"]?.asInt() == 10)
        #expect(try map["num_classes"]?.asInt32() == 90)
        #expect(try map["nms_score_threshold"]?.asFloat() == 0.5)
        #expect(try map["nms_iou_threshold"]?.asDouble() == 0.25)
        #expect(try map["y_scale"]?.asFloat() == 10)
        #expect(try map["use_regular_nms"]?.asBool() == false)
        #expect(try map["name"]?.asString() == "ssd")
        #expect(map["detections_per_class"] == nil)
        #expect(map["max_detections"]?.path == "root[\"max_detections\"]")
    }

    @Test(arguments: [1, 2, 4, 8])
    func integersStringsAndVectorsAtEveryWidth(width: Int) throws {
        let input: FlexInput = .vector([
            .int(-5), .uint(100), .bool(true), .null, .string("hi"), .key("k"), .blob([1, 2, 3]),
            .ints([1, -1, 7]), .vector([.int(1), .map([("a", .int(2))])]), .indirectInt(-3),
        ])
        let root = try FlexBuffer(FlexBufferWriter.encode(input, width: width)).root
        let v = try root.asVector()
        #expect(v.count == 10)
        #expect(try v[0]?.asInt() == -5)
        #expect(try v[1]?.asUInt64() == 100)
        #expect(try v[2]?.asBool() == true)
        #expect(v[3]?.isNull == true)
        #expect(try v[3]?.asInt() == 0)
        #expect(try v[4]?.asString() == "hi")
        #expect(try v[5]?.asString() == "k")
        #expect(try v[6]?.asBlob() == [1, 2, 3])
        #expect(try v[7]?.asVector().asInt64Array() == [1, -1, 7])
        #expect(v[7]?.type == .vectorInt)
        #expect(try v[8]?.asVector()[1]?.asMap()["a"]?.asInt() == 2)
        #expect(try v[9]?.asInt() == -3)
        #expect(v[10] == nil && v[-1] == nil)
    }

    @Test func floatsIndirectFloatsAndFixedVectors() throws {
        let input: FlexInput = .vector([.float(1.5), .indirectFloat(-2.25), .float3(1, 2, 3)])
        for width in [4, 8] {
            let v = try FlexBuffer(FlexBufferWriter.encode(input, width: width)).root.asVector()
            #expect(try v[0]?.asDouble() == 1.5)
            #expect(try v[1]?.asFloat() == -2.25)
            #expect(v[2]?.type == .vectorFloat3)
            #expect(try v[2]?.asVector().asDoubleArray() == [1, 2, 3])
        }
    }

    @Test func scalarRoots() throws {
        #expect(try FlexBuffer(FlexBufferWriter.encode(.int(-100), width: 1)).root.asInt() == -100)
        #expect(try FlexBuffer(FlexBufferWriter.encode(.int(-70000), width: 4)).root.asInt() == -70000)
        #expect(try FlexBuffer(FlexBufferWriter.encode(.uint(UInt64.max), width: 8)).root.asUInt64() == UInt64.max)
        #expect(try FlexBuffer(FlexBufferWriter.encode(.bool(true), width: 1)).root.asBool())
        #expect(try FlexBuffer(FlexBufferWriter.encode(.string("abc"), width: 2)).root.asString() == "abc")
    }

    @Test func conversions() throws {
        let v = try FlexBuffer(
            FlexBufferWriter.encode(
                .vector([
                    .float(-2.75), .int(3), .string("42"), .string("x"), .uint(UInt64.max), .int(1 << 40), .float(.nan),
                ]),
                width: 8)
        ).root.asVector()
        #expect(try v[0]?.asInt() == -2) // truncation toward zero
        #expect(try v[0]?.asBool() == true)
        #expect(try v[1]?.asDouble() == 3)
        #expect(try v[1]?.asFloat() == 3)
        #expect(try v[2]?.asInt() == 42)
        expectFlexError(.typeMismatch, "root[3]: string \"x\" is not an integer") { _ = try v[3]?.asInt() }
        expectFlexError(.valueOutOfRange, "does not fit a 64-bit signed integer") { _ = try v[4]?.asInt64() }
        expectFlexError(.valueOutOfRange, "does not fit a 32-bit signed integer") { _ = try v[5]?.asInt32() }
        expectFlexError(.valueOutOfRange, "nan") { _ = try v[6]?.asInt() }
        expectFlexError(.valueOutOfRange, "negative") { _ = try v[0]?.asUInt64() }
        expectFlexError(.typeMismatch, "a int value cannot be read as a map") { _ = try v[1]?.asMap() }
        expectFlexError(.typeMismatch, "cannot be read as a vector") { _ = try v[1]?.asVector() }
        expectFlexError(.typeMismatch, "cannot be read as a string") { _ = try v[1]?.asString() }
        expectFlexError(.typeMismatch, "cannot be read as a blob") { _ = try v[1]?.asBlob() }
        expectFlexError(.typeMismatch, "cannot be read as a bool") { _ = try v[2]?.asBool() }
        expectFlexError(.typeMismatch, "cannot be read as an integer") {
            _ = try FlexBuffer(FlexBufferWriter.encode(.vector([]), width: 1)).root.asInt()
        }
    }

    @Test func treeAndJSON() throws {
        let buffer = try FlexBuffer(
            FlexBufferWriter.encode(
                .map([
                    ("b", .vector([.int(1), .float(0.5), .bool(true), .null])), ("a", .string("q\"\n")),
                    ("c", .blob([7])),
                ]), width: 4))
        let tree = try buffer.tree()
        #expect(
            tree
                == .map([
                    .init(key: "a", value: .string("q\"\n")),
                    .init(key: "b", value: .vector([.int(1), .float(0.5), .bool(true), .null])),
                    .init(key: "c", value: .blob([7])),
                ]))
        #expect(tree.json == #"{"a":"q\"\n","b":[1,0.5,true,null],"c":[7]}"#)
    }

    // MARK: - Malformed buffers

    @Test func tooShortOrBadRootWidth() {
        expectFlexError(.bufferTooSmall, "at least 3 bytes") { _ = try FlexBuffer([1, 4]) }
        expectFlexError(.invalidWidth, "byte width 3") { _ = try FlexBuffer([0, 0, 4, 3]) }
        expectFlexError(.bufferTooSmall, "8-byte root slot") { _ = try FlexBuffer([0, 4, 8]) }
        expectFlexError(.invalidType, "type code 30") { _ = try FlexBuffer([0, 30 << 2, 1]) }
    }

    @Test func offsetsMustPointBackwardsInsideTheBuffer() {
        // Root: a string whose offset (200) points before the start.
        expectFlexError(.invalidOffset, "points before the start") {
            _ = try FlexBuffer([200, 5 << 2, 1]).root.asString()
        }
        // Vector whose length prefix claims more elements than the buffer holds.
        var bytes = FlexBufferWriter.encode(.vector([.int(1), .int(2)]), width: 1)
        bytes[0] = 100
        expectFlexError(.outOfBounds, "exceeds") { _ = try FlexBuffer(bytes).root.asVector() }
        bytes[0] = 5
        expectFlexError(.outOfBounds, "run past the end") { _ = try FlexBuffer(bytes).root.asVector() }
    }

    @Test func stringWithoutNulAndBadTypeBytes() {
        var bytes = FlexBufferWriter.encode(.string("abc"), width: 1)
        // Layout: [len=3][a][b][c][0][slot][type][width]
        bytes[4] = UInt8(ascii: "!")
        expectFlexError(.missingTerminator, "not followed by a NUL") { _ = try FlexBuffer(bytes).root.asString() }

        var vector = FlexBufferWriter.encode(.vector([.int(1)]), width: 1)
        // Layout: [count=1][1][type byte][slot][type][width]: corrupt the element type byte.
        vector[2] = 31 << 2
        expectFlexError(.invalidType, "root[0]: type code 31") { _ = try FlexBuffer(vector).root.asVector() }
    }

    @Test func mapKeysMustMatchValues() throws {
        var bytes = FlexBufferWriter.encode(.map([("a", .int(1)), ("b", .int(2))]), width: 1)
        // Layout: "a\0" "b\0" [2][ka][kb] [keysOff][keysWidth][count=2][1][2][t][t] [slot][type][w]
        #expect(Array(bytes[0 ..< 4]) == [97, 0, 98, 0])
        #expect(bytes[4] == 2 && bytes[8] == 1 && bytes[9] == 2)
        bytes[8] = 3
        expectFlexError(.invalidWidth, "keys byte width 3") { _ = try FlexBuffer(bytes).root.asMap() }
        bytes[8] = 1
        bytes[4] = 5
        expectFlexError(.invalidMap, "has 2 values but its keys vector at offset 5 has 5 keys") {
            _ = try FlexBuffer(bytes).root.asMap()
        }
        bytes[4] = 2
        #expect(try FlexBuffer(bytes).root.asMap()["b"]?.asInt() == 2)
        // Without any NUL byte the keys cannot terminate.
        let noNul = bytes.map { $0 == 0 ? 1 : $0 }
        expectFlexError(.missingTerminator) { _ = try FlexBuffer(noNul).root.asMap() }
    }

    @Test func depthLimit() throws {
        func nested(_ n: Int) -> FlexInput {
            var v: FlexInput = .int(1)
            for _ in 0 ..< n { v = .vector([v]) }
            return v
        }
        func descend(_ buffer: FlexBuffer) throws -> Int {
            var value = buffer.root
            var depth = 0
            while value.type == .vector {
                guard let next = try value.asVector()[0] else { break }
                value = next
                depth += 1
            }
            return depth
        }
        #expect(try descend(FlexBuffer(FlexBufferWriter.encode(nested(64), width: 2))) == 64)
        expectFlexError(.depthLimitExceeded, "deeper than 64") {
            _ = try descend(FlexBuffer(FlexBufferWriter.encode(nested(65), width: 2)))
        }
        expectFlexError(.depthLimitExceeded) {
            _ = try FlexBuffer(FlexBufferWriter.encode(nested(80), width: 2)).tree()
        }
    }

    @Test func treeNodeBudget() throws {
        let buffer = try FlexBuffer(FlexBufferWriter.encode(.vector(Array(repeating: .int(1), count: 50)), width: 1))
        #expect(try buffer.tree(maxNodes: 51) == .vector(Array(repeating: .int(1), count: 50)))
        expectFlexError(.sizeLimitExceeded, "too many nodes") { _ = try buffer.tree(maxNodes: 10) }
        #expect(buffer.defaultMaxNodes == 1_024 + 8 * buffer.bytes.count)
    }

    /// A vector whose elements all point at one shared vector, `levels` deep: 8 bytes
    /// per level, 7^levels nodes. The default node budget scales with the buffer, so the
    /// tree is refused after a few thousand nodes instead of a million.
    @Test func sharedOffsetsCannotAmplifyTheWork() throws {
        // Each level: count (1), 7 one-byte offsets to the previous vector, 7 type bytes.
        var bytes: [UInt8] = [0, 0] // a leaf: vector count 0, at position 1
        var previous = 1
        for _ in 0 ..< 8 {
            bytes.append(7) // count
            let start = bytes.count
            for i in 0 ..< 7 { bytes.append(UInt8(start + i - previous)) }
            bytes += Array(repeating: 10 << 2, count: 7) // untyped vector, 1-byte children
            previous = start
        }
        bytes += [UInt8(bytes.count - previous), 10 << 2, 1] // root: offset, type, width
        let buffer = try FlexBuffer(bytes)
        expectFlexError(.sizeLimitExceeded, "too many nodes") { _ = try buffer.tree() }
    }

    /// Prefixes and random corruptions of a buffer either decode to a tree or throw a
    /// structural `FlexBufferError`: never a conversion error (`tree()` converts nothing)
    /// and never a limit (the buffer is small). Prefixes under 3 bytes are too small.
    @Test func randomCorruptionIsAStructuralErrorNotACrash() throws {
        let original = FlexBufferWriter.encode(
            .vector([
                detectionOptions, .ints([1, 2, 3]), .blob([1, 2]), .indirectFloat(2), .float3(1, 2, 3), .string("s"),
            ]), width: 4)
        let structural: Set<FlexBufferError.Kind> = [
            .bufferTooSmall, .invalidWidth, .invalidType, .outOfBounds, .invalidOffset, .missingTerminator, .invalidMap,
        ]
        func treeError(_ bytes: [UInt8]) -> FlexBufferError.Kind? {
            do {
                _ = try FlexBuffer(bytes).tree().json
                return nil
            } catch {
                return error.kind
            }
        }
        #expect(treeError(original) == nil)
        for n in 0 ..< 3 { #expect(treeError(Array(original[..<n])) == .bufferTooSmall) }
        var refused = 0
        for n in 3 ..< original.count {
            guard let kind = treeError(Array(original[..<n])) else { continue }
            refused += 1
            #expect(structural.contains(kind), "prefix of \(n) bytes: \(kind)")
        }
        // The root trailer moves with the end, so some prefixes are other valid buffers.
        #expect(refused > 0)
        var rng = SeededGenerator(seed: 42)
        refused = 0
        for _ in 0 ..< 4000 {
            var copy = original
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &rng) {
                copy[Int.random(in: 0 ..< copy.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
            }
            guard let kind = treeError(copy) else { continue }
            refused += 1
            #expect(structural.contains(kind), "\(kind)")
        }
        #expect(refused > 0 && refused < 4000)
    }
}
