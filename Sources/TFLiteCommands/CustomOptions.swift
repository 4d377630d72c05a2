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
    case let .int(v): return .int(Int(clamping: v))
    case let .uint(v): return .int(Int(clamping: v))
    case let .float(v): return .float(Float(v))
    case let .bool(v): return .bool(v)
    case let .string(s), let .key(s): return .string(s)
    case let .blob(bytes): return .array(bytes.map { .int(Int($0)) })
    case let .vector(items): return .array(items.map(json))
    case let .map(entries):
        var object: [String: JSONValue] = [:]
        for e in entries { object[e.key] = json(e.value) }
        return .object(object)
    }
}
