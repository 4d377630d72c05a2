/// Per-axis source tables of the resize kernels (neighbours and weights for every output
/// row and column), built at the start of each `eval` in scratch memory.
///
/// They used to be arrays built at prepare, sized by the output height and width a size
/// tensor declares: a 952-byte model with a `[1, 2^27, 1, 0]`-style output made prepare
/// allocate and fill gigabytes before the memory budget was checked (fuzz target
/// `model-invoke`, RELIABILITY.md finding 11). As scratch they are part of the planned
/// arena, so the budget covers them; an empty output is never evaluated, so its tables are
/// never built. Filling them costs `O(height + width)` per invoke, against the
/// `O(height · width · depth)` of the resize itself.
struct ResizeAxisTables {
    /// Scratch slot and the byte offset of the column tables after the row tables.
    let slot: Int
    let columnsOffset: Int

    /// Requests scratch for `rows + columns` entries of `entryBytes` each (64-byte aligned
    /// parts), with overflow-checked sizes.
    static func request(
        _ context: inout PrepareContext, rows: Int, columns: Int,
        entryBytes: Int
    ) throws(KernelError) -> ResizeAxisTables {
        let rowBytes = try ConvCheck.product([rows, entryBytes], "RESIZE tables")
        let columnBytes = try ConvCheck.product([columns, entryBytes], "RESIZE tables")
        let (aligned, overflow) = rowBytes.addingReportingOverflow(63)
        guard !overflow else { throw .invalid("RESIZE tables: size overflows") }
        let offset = aligned / 64 * 64
        let (total, overflow2) = offset.addingReportingOverflow(columnBytes)
        guard !overflow2 else { throw .invalid("RESIZE tables: size overflows") }
        return ResizeAxisTables(slot: context.requestScratch(bytes: total), columnsOffset: offset)
    }

    /// The start of the row tables and of the column tables in this invoke's scratch.
    private func bases(_ context: EvalContext) -> (rows: UnsafeMutableRawPointer, columns: UnsafeMutableRawPointer) {
        let base = UnsafeMutableRawPointer(context.scratch(slot, as: UInt8.self))
        return (base, base + columnsOffset)
    }

    /// The row and column tables of `geometry`'s output as arrays of `T`.
    func views<T>(_ context: EvalContext, _ g: ResizeGeometry, as _: T.Type) -> (
        rows: UnsafeMutablePointer<T>, columns: UnsafeMutablePointer<T>
    ) {
        let (r, c) = bases(context)
        return (r.bindMemory(to: T.self, capacity: g.outputHeight), c.bindMemory(to: T.self, capacity: g.outputWidth))
    }

    /// The row and column neighbour tables of `geometry`'s output.
    func axes<W>(_ context: EvalContext, _ g: ResizeGeometry, weight _: W.Type) -> (
        rows: AxisTable<W>, columns: AxisTable<W>
    ) {
        let (r, c) = bases(context)
        return (AxisTable<W>(r, count: g.outputHeight), AxisTable<W>(c, count: g.outputWidth))
    }
}

/// Neighbours `lower`, `upper` and the weight of `upper`, for `count` output positions,
/// laid out as three consecutive arrays in scratch memory.
struct AxisTable<Weight> {
    let lower: UnsafeMutablePointer<Int>
    let upper: UnsafeMutablePointer<Int>
    let fraction: UnsafeMutablePointer<Weight>

    /// Bytes per output position.
    static var entryBytes: Int { 2 * MemoryLayout<Int>.stride + MemoryLayout<Weight>.stride }

    init(_ base: UnsafeMutableRawPointer, count: Int) {
        lower = base.bindMemory(to: Int.self, capacity: count)
        upper = (base + count * MemoryLayout<Int>.stride).bindMemory(to: Int.self, capacity: count)
        fraction = (base + 2 * count * MemoryLayout<Int>.stride).bindMemory(to: Weight.self, capacity: count)
    }
}
