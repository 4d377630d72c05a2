/// A parsed JSON document for comparing `inspect --json` output with expectations.
/// Numbers compare as float32 (the precision `inspect` writes), so `0.0012` in an
/// expected file equals the float32 nearest to it however it was printed.
indirect enum TestJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TestJSON])
    case object([String: TestJSON])

    static func == (a: TestJSON, b: TestJSON) -> Bool { firstDifference(a, b) == nil }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .number(let n): return "\(n)"
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { "\"\($0)\": \(o[$0, default: .null])" }.joined(separator: ", ") + "}"
        }
    }

    /// The path of the first difference (`operators[2].op: ...`), or nil when equal.
    static func firstDifference(_ a: TestJSON, _ b: TestJSON, path: String = "$") -> String? {
        switch (a, b) {
        case (.null, .null): return nil
        case (.bool(let x), .bool(let y)) where x == y: return nil
        case (.number(let x), .number(let y)) where Float(x) == Float(y) || (x.isNaN && y.isNaN): return nil
        case (.string(let x), .string(let y)) where x == y: return nil
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return "\(path): \(x.count) elements vs \(y.count)" }
            for (i, (p, q)) in zip(x, y).enumerated() {
                if let d = firstDifference(p, q, path: "\(path)[\(i)]") { return d }
            }
            return nil
        case (.object(let x), .object(let y)):
            for key in Set(x.keys).union(y.keys).sorted() {
                guard let p = x[key], let q = y[key] else { return "\(path).\(key): present in only one" }
                if let d = firstDifference(p, q, path: "\(path).\(key)") { return d }
            }
            return nil
        default: return "\(path): \(a) vs \(b)"
        }
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses strict JSON (RFC 8259).
    static func parse(_ text: String) throws -> TestJSON {
        var p = Parser(bytes: Array(text.utf8))
        let value = try p.value()
        p.skipSpace()
        guard p.i == p.bytes.count else { throw ParseError(description: "trailing text at \(p.i)") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        }

        func fail(_ what: String) -> ParseError { ParseError(description: "\(what) at byte \(i)") }

        mutating func literal(_ word: String, _ value: TestJSON) throws -> TestJSON {
            let w = Array(word.utf8)
            guard bytes.count - i >= w.count, Array(bytes[i ..< i + w.count]) == w else { throw fail("bad literal") }
            i += w.count
            return value
        }

        mutating func value() throws -> TestJSON {
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                i += 1
                var items: [TestJSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    i += 1
                    if bytes[i - 1] == UInt8(ascii: "]") { return .array(items) }
                    guard bytes[i - 1] == UInt8(ascii: ",") else { throw fail("expected , or ]") }
                }
            case UInt8(ascii: "{"):
                i += 1
                var members: [String: TestJSON] = [:]
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected key") }
                    let key = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected :") }
                    i += 1
                    guard members.updateValue(try value(), forKey: key) == nil else {
                        throw fail("duplicate key \(key)")
                    }
                    skipSpace()
                    guard i < bytes.count else { throw fail("unterminated object") }
                    i += 1
                    if bytes[i - 1] == UInt8(ascii: "}") { return .object(members) }
                    guard bytes[i - 1] == UInt8(ascii: ",") else { throw fail("expected , or }") }
                }
            default:
                let start = i
                while i < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[i]) { i += 1 }
                guard let n = Double(String(decoding: bytes[start ..< i], as: UTF8.self)) else {
                    throw fail("bad number")
                }
                return .number(n)
            }
        }

        mutating func string() throws -> String {
            i += 1
            var scalars = String.UnicodeScalarView()
            var pending: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars); pending = []
            }
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard i < bytes.count else { throw fail("unterminated escape") }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "u"):
                        guard bytes.count - i >= 4,
                            let v = UInt32(String(decoding: bytes[i ..< i + 4], as: UTF8.self), radix: 16),
                            let s = Unicode.Scalar(v)
                        else { throw fail("bad \\u escape") }
                        i += 4
                        scalars.append(s)
                    default: scalars.append(Unicode.Scalar(e))
                    }
                case 0 ..< 0x20: throw fail("control character in string")
                default: pending.append(b)
                }
            }
            throw fail("unterminated string")
        }
    }
}
