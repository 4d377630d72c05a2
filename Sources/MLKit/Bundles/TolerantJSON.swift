/// A JSON value read by ``TolerantJSON``.
enum JSONNode: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])
}

/// A small JSON reader for model bundle files (`manifest.json`, `tflite_metadata.json`).
///
/// Strict JSON (RFC 8259) plus one tolerance real bundles need: a trailing comma before
/// `}` or `]` (Google's own AutoML sample manifest has one). It also accepts a UTF-8 BOM.
/// Nesting is limited to 64 levels and errors give the byte offset.
struct TolerantJSON {
    struct ParseError: Error, Equatable { var offset: Int; var reason: String }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONNode {
        var reader = TolerantJSON(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        let value = try reader.value()
        reader.skipSpace()
        guard reader.i == bytes.count else { throw reader.fail("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func fail(_ reason: String) -> ParseError { ParseError(offset: i, reason: reason) }

    private mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    private mutating func value() throws(ParseError) -> JSONNode {
        skipSpace()
        guard i < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try container(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): return try container(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws(ParseError) {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, Array(bytes[i ..< i + w.count]) == w else { throw fail("invalid literal") }
        i += w.count
    }

    private mutating func container(close: UInt8, isObject: Bool) throws(ParseError) -> JSONNode {
        depth += 1
        guard depth <= 64 else { throw fail("nesting deeper than 64 levels") }
        defer { depth -= 1 }
        i += 1
        var items: [JSONNode] = []
        var members: [String: JSONNode] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == close { i += 1; return isObject ? .object(members) : .array(items) }
        while true {
            skipSpace()
            if isObject {
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                guard members[key] == nil else { throw fail("duplicate key \"\(key)\"") }
                members[key] = try value()
            } else {
                items.append(try value())
            }
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input") }
            if bytes[i] == close { i += 1; break }
            guard bytes[i] == UInt8(ascii: ",") else {
                throw fail("expected ',' or '\(Character(Unicode.Scalar(close)))'")
            }
            i += 1
            skipSpace()
            // The tolerance: a comma directly before the closing bracket.
            if i < bytes.count, bytes[i] == close { i += 1; break }
        }
        return isObject ? .object(members) : .array(items)
    }

    private mutating func string() throws(ParseError) -> String {
        i += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll()
        }
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            guard b >= 0x20 else { throw fail("control character in string") }
            if b != UInt8(ascii: "\\") { run.append(b); i += 1; continue }
            flush()
            i += 1
            guard i < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800 ..< 0xDC00).contains(code), bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"),
                    bytes[i + 1] == UInt8(ascii: "u")
                {
                    i += 2
                    let low = try hex4()
                    guard (0xDC00 ..< 0xE000).contains(low) else { throw fail("invalid surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                scalars.append(scalar)
            default: throw fail("invalid escape")
            }
        }
        flush()
        return String(scalars)
    }

    private mutating func hex4() throws(ParseError) -> UInt32 {
        guard bytes.count - i >= 4, let v = UInt32(String(decoding: bytes[i ..< i + 4], as: UTF8.self), radix: 16)
        else {
            throw fail("invalid \\u escape")
        }
        i += 4
        return v
    }

    private mutating func number() throws(ParseError) -> Double {
        let start = i
        let allowed = Set("+-0123456789.eE".utf8)
        while i < bytes.count, allowed.contains(bytes[i]) { i += 1 }
        let text = String(decoding: bytes[start ..< i], as: UTF8.self)
        // Double(_:) is laxer than JSON about a few forms; reject those it would accept.
        guard !text.isEmpty, let v = Double(text), v.isFinite, text.first != "+", text.first != "." else {
            i = start
            throw fail(text.isEmpty ? "unexpected character" : "invalid number '\(text)'")
        }
        return v
    }
}
