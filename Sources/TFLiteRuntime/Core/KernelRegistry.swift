import TFLiteModel

/// Maps operator codes to kernels' prepare functions.
///
/// Each kernel family registers itself in its own `Kernels/<Family>/Registry+<Family>.swift`
/// file; this table only concatenates them, so adding a kernel touches one family file.
package enum KernelRegistry {
    static let builtins: [BuiltinOperator: KernelPrepare] = {
        var table: [BuiltinOperator: KernelPrepare] = [:]
        for group in builtinGroups {
            for (code, prepare) in group { table[code] = prepare }
        }
        return table
    }()

    static let customs: [String: KernelPrepare] = {
        var table: [String: KernelPrepare] = [:]
        for group in customGroups {
            for (name, prepare) in group { table[name] = prepare }
        }
        return table
    }()

    /// The prepare function for `code`, or nil if the runtime has no kernel for it.
    /// Custom operators are looked up in `extra` first, then among the runtime's own.
    package static func prepare(for code: OperatorCode, extra: CustomKernelTable = CustomKernelTable())
        -> KernelPrepare?
    {
        if code.builtin == .custom {
            guard let name = code.customName else { return nil }
            return extra.prepare(for: name) ?? customs[name]
        }
        return builtins[code.builtin]
    }

    /// True if the runtime (or `extra`) has a kernel for `code` (types are checked at prepare).
    package static func supports(_ code: OperatorCode, extra: CustomKernelTable = CustomKernelTable()) -> Bool {
        prepare(for: code, extra: extra) != nil
    }

    /// The custom operator names the runtime itself has kernels for, sorted.
    package static var supportedCustoms: [String] { customs.keys.sorted() }

    /// Every builtin operator with a kernel, for documentation and `inspect`.
    package static var supportedBuiltins: [BuiltinOperator] {
        builtins.keys.sorted { $0.rawValue < $1.rawValue }
    }

    package static var supportedCustomOps: [String] { customs.keys.sorted() }
}
