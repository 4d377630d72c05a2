import Testing
import FlatBufferTestSupport
import TFLiteFormat

@Suite("FlatBuffers tables, scalars, strings, vectors, unions")
struct FlatBufferTableTests {
    @Test func vtableDefaultsAndAbsentFields() throws {
        // Slot 1 and 3 present; slot 0 and 2 absent (zero entries); slot 9 past the vtable.
        let bytes = FlatBufferWriter.serialize(FBTable([1: .i32(7), 3: .u8(9)]), identifier: nil)
        try withReader(bytes) { reader in
            let t = try reader.rootTable(name: "Root")
            #expect(try t.scalar(0, "a", default: Int32(42)) == 42)
            #expect(try t.scalar(1, "b", default: Int32(42)) == 7)
            #expect(try t.scalar(2, "c", default: UInt16(5)) == 5)
            #expect(try t.scalar(3, "d", default: UInt8(0)) == 9)
            #expect(try t.scalar(9, "far", default: Int64(-3)) == -3)
            #expect(try t.bool(9, "flag", default: true) == true)
            #expect(try t.float(9, "f", default: 1.5) == 1.5)
            #expect(!t.hasField(0) && t.hasField(1) && !t.hasField(2) && t.hasField(3) && !t.hasField(9))
            #expect(try t.string(0, "s") == nil)
            #expect(try t.scalars(2, "v", as: Int32.self) == nil)
            #expect(try t.table(5, "sub") == nil)
        }
    }

    @Test func scalarsOfEveryWidth() throws {
        let table = FBTable([
            0: .u8(200), 1: .i8(-5), 2: .bool(true), 3: .u16(65000), 4: .i32(-123456),
            5: .u32(4_000_000_000), 6: .i64(-9_000_000_000_000), 7: .u64(18_000_000_000_000_000_000),
            8: .f32(3.25), 9: .f64(-1e300),
        ])
        try withReader(FlatBufferWriter.serialize(table)) { reader in
            let t = try reader.rootTable(name: "Root")
            #expect(try t.scalar(0, "u8", default: UInt8(0)) == 200)
            #expect(try t.scalar(1, "i8", default: Int8(0)) == -5)
            #expect(try t.bool(2, "bool") == true)
            #expect(try t.scalar(3, "u16", default: UInt16(0)) == 65000)
            #expect(try t.scalar(4, "i32", default: Int32(0)) == -123456)
            #expect(try t.scalar(5, "u32", default: UInt32(0)) == 4_000_000_000)
            #expect(try t.scalar(6, "i64", default: Int64(0)) == -9_000_000_000_000)
            #expect(try t.scalar(7, "u64", default: UInt64(0)) == 18_000_000_000_000_000_000)
            #expect(try t.float(8, "f32") == 3.25)
            #expect(try t.double(9, "f64") == -1e300)
        }
    }

    @Test func stringsVectorsAndNestedTables() throws {
        let inner = FBTable([0: .string("inner"), 1: .i32(5)])
        let root = FBTable([
            0: .string("héllo"), 1: .i32s([1, -2, 3]), 2: .f32s([0.5, 2]), 3: .i64s([Int64.min, 7]),
            4: .bytes([9, 8, 7]), 5: .tables([inner, FBTable([1: .i32(6)])]), 6: .strings(["a", "", "ccc"]),
            7: .table(inner), 8: .bools([true, false]), 9: .i32s([]),
        ])
        try withReader(FlatBufferWriter.serialize(root)) { reader in
            let t = try reader.rootTable(name: "Root")
            #expect(try t.string(0, "s") == "héllo")
            #expect(try t.scalars(1, "ints", as: Int32.self) == [1, -2, 3])
            #expect(try t.floats(2, "floats") == [0.5, 2])
            #expect(try t.scalars(3, "longs", as: Int64.self) == [Int64.min, 7])
            let range = try #require(try t.byteRange(4, "bytes"))
            #expect(Array(reader.bytes[range]) == [9, 8, 7])
            #expect(range.lowerBound % 16 == 0)
            let list = try #require(try t.tables(5, "list"))
            #expect(list.count == 2)
            let first = try list.table(at: 0)
            #expect(first.path == "Root.list[0]")
            #expect(first.depth == 2)
            #expect(try first.string(0, "name") == "inner")
            #expect(try list.table(at: 1).scalar(1, "x", default: Int32(0)) == 6)
            expectFlatBufferError(.outOfBounds, "index outside") { _ = try list.table(at: 2) }
            #expect(try t.strings(6, "names") == ["a", "", "ccc"])
            let sub = try #require(try t.table(7, "sub"))
            #expect(sub.path == "Root.sub")
            #expect(try sub.scalar(1, "x", default: Int32(0)) == 5)
            #expect(try t.bools(8, "flags") == [true, false])
            #expect(try t.scalars(9, "empty", as: Int32.self) == [])
        }
    }

    @Test func unionsGiveTypeAndValue() throws {
        let root = FBTable([0: .u8(3), 1: .table(FBTable([0: .i32(11)])), 2: .u8(0), 4: .u8(200), 5: .table(FBTable())])
        try withReader(FlatBufferWriter.serialize(root)) { reader in
            let t = try reader.rootTable(name: "Root")
            let (type, value) = try t.union(0, "options")
            #expect(type == 3)
            #expect(try value?.scalar(0, "x", default: Int32(0)) == 11)
            let none = try t.union(2, "none")
            #expect(none.type == 0 && none.table == nil)
            // An unknown type id is returned as-is with its table.
            let unknown = try t.union(4, "future")
            #expect(unknown.type == 200 && unknown.table != nil)
            // A type without a value table.
            let missing = try t.union(6, "missing")
            #expect(missing.type == 0 && missing.table == nil)
        }
    }

    @Test func misalignedDataIsReadCorrectly() throws {
        // Hand-made buffer: the table starts at an odd offset, so its i32, i64 and f32
        // fields and the vector elements are all misaligned.
        var w = ByteWriter()
        w.u32(0) // root offset, patched below
        w.u32(0) // identifier
        w.u8(0) // pad so the vtable starts at offset 9
        let vtable = w.bytes.count
        w.u16(4 + 2 * 3); w.u16(4 + 4 + 8 + 4)
        w.u16(4); w.u16(8); w.u16(16)
        let table = w.bytes.count // 19: odd
        w.i32(Int32(table - vtable))
        w.i32(-77)
        w.bytes += withUnsafeBytes(of: Int64(1 << 40).littleEndian) { Array($0) }
        w.u32(0) // offset to vector, patched
        let vectorSlot = table + 16
        let vector = w.bytes.count
        w.u32(2); w.i32(123); w.i32(-456)
        w.patchU32(UInt32(table), at: 0)
        w.patchU32(UInt32(vector - vectorSlot), at: vectorSlot)
        #expect(table % 2 == 1)
        try withReader(w.bytes) { reader in
            let t = try reader.rootTable(name: "Odd")
            #expect(try t.scalar(0, "a", default: Int32(0)) == -77)
            #expect(try t.scalar(1, "b", default: Int64(0)) == 1 << 40)
            #expect(try t.scalars(2, "v", as: Int32.self) == [123, -456])
        }
    }
}
