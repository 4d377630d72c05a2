/// Kernels for custom operators supplied by the embedding application, looked up by
/// the operator's `custom_code` name before the runtime's own custom kernels.
///
/// The runtime's built-in custom kernels (`TFLite_Detection_PostProcess`, MediaPipe's
/// operators) are registered the same way, as a name and a ``KernelPrepare``, in
/// `KernelRegistry.customGroups`; this table only adds names, or replaces built-in ones,
/// for one engine.
///
/// Two tables are equal when they hold the same registrations (each ``register(_:prepare:)``
/// call is a distinct registration, since closures cannot be compared).
package struct CustomKernelTable: Hashable, Sendable {
    private final class Entry: Sendable {
        let prepare: KernelPrepare
        init(_ prepare: @escaping KernelPrepare) { self.prepare = prepare }
    }

    private var entries: [String: Entry] = [:]

    package init() {}

    /// Registers `prepare` for custom operators named `name`, replacing an earlier one.
    package mutating func register(_ name: String, prepare: @escaping KernelPrepare) {
        entries[name] = Entry(prepare)
    }

    /// The registered prepare function for `name`, if any.
    package func prepare(for name: String) -> KernelPrepare? { entries[name]?.prepare }

    /// The registered names, sorted.
    package var names: [String] { entries.keys.sorted() }

    package var isEmpty: Bool { entries.isEmpty }

    package static func == (a: CustomKernelTable, b: CustomKernelTable) -> Bool {
        a.entries.count == b.entries.count
            && a.entries.allSatisfy { name, entry in
                b.entries[name].map { $0 === entry } ?? false
            }
    }

    package func hash(into hasher: inout Hasher) {
        for name in names {
            hasher.combine(name)
            if let entry = entries[name] { hasher.combine(ObjectIdentifier(entry)) }
        }
    }
}
