import TFLiteFormat
import TFLiteModel

/// The decoded FlexBuffers `custom_options` of a custom operator, as JSON; nil when the
/// bytes are not a valid FlexBuffer (then `inspect` shows only the byte count).
///
/// Floats are shown at Float32 precision, the width TFLite's custom ops read them with.
func customOptionsJSON(_ options: ByteView) -> JSONValue? {
    guard let buffer = try? FlexBuffer(copying: options.bytes), let tree = try? buffer.tree() else { return nil }
    return json(tree)
}

private func json(_ tree: FlexTree) -> JSONValue {
    switch tree {
    case .null: return .null
    case .int(let v): return .int(Int(clamping: v))
    case .uint(let v): return .int(Int(clamping: v))
    case .float(let v): return .float(Float(v))
    case .bool(let v): return .bool(v)
    case .string(let s), .key(let s): return .string(s)
    case .blob(let bytes): return .array(bytes.map { .int(Int($0)) })
    case .vector(let items): return .array(items.map(json))
    case .map(let entries):
        var object: [String: JSONValue] = [:]
        for e in entries { object[e.key] = json(e.value) }
        return .object(object)
    }
}
