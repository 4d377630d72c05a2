/// The subset of Python literal syntax that `.npy` headers use: a dict of strings,
/// booleans, integers, tuples and lists (what `ast.literal_eval` accepts there).
enum PythonLiteral: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case none
    case tuple([PythonLiteral])
    case list([PythonLiteral])
    case dict([(key: PythonLiteral, value: PythonLiteral)])

    /// Parses `text`, which must hold exactly one literal (surrounding whitespace allowed).
    static func parse(_ text: String) throws(NPYError) -> PythonLiteral {
        var parser = PythonLiteralParser(scalars: Array(text.unicodeScalars))
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.scalars.count else {
            throw .malformedHeader("unexpected text after the dict at offset \(parser.position)")
        }
        return value
    }
}

/// A recursive-descent parser over Unicode scalars with a nesting limit, so that a
/// hostile header cannot exhaust the stack.
private struct PythonLiteralParser {
    let scalars: [Unicode.Scalar]
    var position = 0
    static let maxDepth = 16

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    mutating func skipWhitespace() {
        while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { position += 1 }
    }

    mutating func parseValue(depth: Int) throws(NPYError) -> PythonLiteral {
        guard depth < Self.maxDepth else { throw .malformedHeader("nesting deeper than \(Self.maxDepth)") }
        skipWhitespace()
        guard let c = current else { throw .malformedHeader("unexpected end of header") }
        switch c {
        case "'", "\"": return .string(try parseString(quote: c))
        case "(": return .tuple(try parseSequence(close: ")", depth: depth))
        case "[": return .list(try parseSequence(close: "]", depth: depth))
        case "{": return try parseDict(depth: depth)
        case "-", "+", "0" ... "9": return .int(try parseInt())
        default:
            let word = parseWord()
            switch word {
            case "True": return .bool(true)
            case "False": return .bool(false)
            case "None": return .none
            default: throw .malformedHeader("unexpected '\(word.isEmpty ? String(c) : word)' at offset \(position)")
            }
        }
    }

    mutating func parseWord() -> String {
        var word = String.UnicodeScalarView()
        while let c = current, c.properties.isAlphabetic || c == "_" {
            word.append(c)
            position += 1
        }
        return String(word)
    }

    mutating func parseString(quote: Unicode.Scalar) throws(NPYError) -> String {
        position += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw .malformedHeader("unterminated string") }
            position += 1
            if c == quote { return String(out) }
            if c == "\n" { throw .malformedHeader("newline inside a string") }
            if c == "\\" {
                guard let e = current else { throw .malformedHeader("unterminated string") }
                position += 1
                switch e {
                case "\\", "'", "\"": out.append(e)
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: throw .malformedHeader("unsupported escape '\\\(e)' in a string")
                }
            } else {
                out.append(c)
            }
        }
    }

    mutating func parseInt() throws(NPYError) -> Int {
        var negative = false
        if current == "-" || current == "+" {
            negative = current == "-"
            position += 1
        }
        var value = 0
        var digits = 0
        while let c = current, c.value >= 0x30, c.value <= 0x39 {
            let d = Int(c.value - 0x30)
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            guard !o1, !o2 else { throw .malformedHeader("integer out of range at offset \(position)") }
            value = s
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw .malformedHeader("expected digits at offset \(position)") }
        // Python 2 wrote long integers with an `L` suffix; old files still carry it.
        if current == "L" || current == "l" { position += 1 }
        return value
    }

    /// Parses `item, item, ...` up to `close`; a trailing comma is allowed.
    mutating func parseSequence(close: Unicode.Scalar, depth: Int) throws(NPYError) -> [PythonLiteral] {
        position += 1
        var items: [PythonLiteral] = []
        while true {
            skipWhitespace()
            if current == close { position += 1; return items }
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if current == "," { position += 1; continue }
            guard current == close else { throw .malformedHeader("expected ',' or '\(close)' at offset \(position)") }
        }
    }

    mutating func parseDict(depth: Int) throws(NPYError) -> PythonLiteral {
        position += 1
        var pairs: [(key: PythonLiteral, value: PythonLiteral)] = []
        while true {
            skipWhitespace()
            if current == "}" { position += 1; return .dict(pairs) }
            let key = try parseValue(depth: depth + 1)
            skipWhitespace()
            guard current == ":" else { throw .malformedHeader("expected ':' at offset \(position)") }
            position += 1
            let value = try parseValue(depth: depth + 1)
            pairs.append((key, value))
            skipWhitespace()
            if current == "," { position += 1; continue }
            guard current == "}" else { throw .malformedHeader("expected ',' or '}' at offset \(position)") }
        }
    }
}
