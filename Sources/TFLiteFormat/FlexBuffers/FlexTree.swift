/// A fully decoded FlexBuffer value, for display (e.g. custom options printed as JSON).
package indirect enum FlexTree: Hashable, Sendable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    case key(String)
    case blob([UInt8])
    case vector([FlexTree])
    /// Entries in stored order.
    case map([MapEntry])

    package struct MapEntry: Hashable, Sendable {
        package var key: String
        package var value: FlexTree
        package init(key: String, value: FlexTree) { self.key = key; self.value = value }
    }

    static func build(_ value: FlexValue, budget: inout Int) throws(FlexBufferError) -> FlexTree {
        budget -= 1
        guard budget >= 0 else {
            throw FlexBufferError(.sizeLimitExceeded, "\(value.path): the value tree has too many nodes")
        }
        switch value.type {
        case .null: return .null
        case .int, .indirectInt: return .int(try value.asInt64())
        case .uint, .indirectUInt: return .uint(try value.asUInt64())
        case .float, .indirectFloat: return .float(try value.asDouble())
        case .bool: return .bool(try value.asBool())
        case .string: return .string(try value.asString())
        case .key: return .key(try value.asString())
        case .blob: return .blob(try value.asBlob())
        case .map:
            let map = try value.asMap()
            var entries: [MapEntry] = []
            entries.reserveCapacity(map.count)
            for (key, child) in map.entries {
                entries.append(MapEntry(key: key, value: try build(child, budget: &budget)))
            }
            return .map(entries)
        default:
            let vector = try value.asVector()
            var items: [FlexTree] = []
            items.reserveCapacity(vector.count)
            for child in vector.elements { items.append(try build(child, budget: &budget)) }
            return .vector(items)
        }
    }

    /// JSON text. Blobs become arrays of byte values; non-finite floats become `null`
    /// (JSON has no representation for them).
    package var json: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .int(let v): out += String(v)
        case .uint(let v): out += String(v)
        case .float(let v):
            // Values that are exactly a Float (4-byte floats) print in Float's shortest form.
            if !v.isFinite {
                out += "null"
            } else if Double(Float(v)) == v {
                out += String(Float(v))
            } else {
                out += String(v)
            }
        case .bool(let v): out += v ? "true" : "false"
        case .string(let s), .key(let s): FlexTree.writeString(s, to: &out)
        case .blob(let b): out += "[" + b.map { String($0) }.joined(separator: ",") + "]"
        case .vector(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .map(let entries):
            out += "{"
            for (i, entry) in entries.enumerated() {
                if i > 0 { out += "," }
                FlexTree.writeString(entry.key, to: &out)
                out += ":"
                entry.value.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
