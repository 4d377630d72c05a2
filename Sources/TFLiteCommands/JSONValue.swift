/// A JSON document, written by ``JSONValue/serialized()`` with sorted keys.
///
/// `Float` values are kept as `Float` and printed with Swift's shortest round-trip
/// representation, so a reader parsing the number as float32 gets the exact value back.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// Printed as `null` when not finite (JSON has no NaN or infinity).
    case float(Float)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// `null` for nil, else the wrapped value.
    static func optional<T>(_ value: T?, _ wrap: (T) -> JSONValue) -> JSONValue {
        value.map(wrap) ?? .null
    }

    /// Indented JSON text with sorted keys and a trailing newline. Arrays of scalars
    /// stay on one line (`[1, 224, 224, 3]`) so shapes read naturally.
    public func serialized() -> String {
        var out = ""
        write(to: &out, indent: "")
        return out + "\n"
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(to out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .float(let f): out += f.isFinite ? "\(f)" : "null"
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy(\.isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(to: &out, indent: indent)
                }
                out += "]"
                return
            }
            let inner = indent + "  "
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.write(to: &out, indent: inner)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            let inner = indent + "  "
            out += "{\n"
            let keys = members.keys.sorted()
            for (i, key) in keys.enumerated() {
                out += inner
                Self.writeString(key, to: &out)
                out += ": "
                members[key, default: .null].write(to: &out, indent: inner)
                out += i + 1 < keys.count ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
