/// Views over the TFLite schema (`schema.fbs`, version 3, file identifier `TFL3`).
///
/// Each view wraps a `FlatBufferTable` and reads its fields lazily through the table's
/// bounds-checked accessors; nothing is copied until a property is read. Slot numbers are
/// the fields' declaration indices in the schema (a union takes two slots).
package enum Schema {
    /// The file identifier at bytes 4..<8 of every `.tflite` file.
    package static let fileIdentifier: [UInt8] = Array("TFL3".utf8)
    /// The only schema version this library reads.
    package static let version: UInt32 = 3
}

/// A typed view over one table of a schema.
package protocol FlatBufferTableView {
    init(_ table: FlatBufferTable)
    var table: FlatBufferTable { get }
}

extension Schema {
    /// A vector of tables viewed as `Element`s (a ``FlatBufferTableView``).
    ///
    /// The type itself does not require `Element: FlatBufferTableView`, only `element(_:)`
    /// does: a requirement on the type is checked at run time whenever its metadata is
    /// first made, and each such conformance lookup scans every conformance record of
    /// the process, a cost paid once per element type on every model load.
    package struct TableList<Element> {
        package let tables: FlatBufferTableVector

        package init(_ tables: FlatBufferTableVector) { self.tables = tables }

        package var count: Int { tables.count }
    }
}

extension Schema.TableList where Element: FlatBufferTableView {
    // Inlinable so that callers in other modules get it specialized for their view type:
    // unspecialized, each element's table is copied through value witnesses.
    @inlinable
    package func element(_ index: Int) throws(FlatBufferError) -> Element {
        Element(try tables.table(at: index))
    }
}

extension FlatBufferTable {
    /// A vector of tables viewed as `Element`s, or nil when absent.
    package func list<Element: FlatBufferTableView>(_ slot: Int, _ name: String, of type: Element.Type)
        throws(FlatBufferError) -> Schema.TableList<Element>?
    {
        guard let vector = try tables(slot, name) else { return nil }
        return Schema.TableList<Element>(vector)
    }
}
