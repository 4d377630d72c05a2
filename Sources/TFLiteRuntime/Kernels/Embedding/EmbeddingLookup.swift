import TFLiteModel

/// EMBEDDING_LOOKUP: `out[i] = table[ids[i]]`, the rows of `table` (input 1, rank ≥ 2)
/// named by `ids` (input 0, INT32, rank 1); the output is `[ids.count] + table.shape[1...]`.
/// Each id must lie in `0 ..< table.shape[0]`, checked at invoke.
///
/// - Same table and output type: rows are copied as bytes (any fixed-size type;
///   quantized codes are kept).
/// - Hybrid: an 8-bit table (int8 or uint8) and a float32 or float16 output:
///   `out = Float(Int8(bitPattern: code)) · scale`, the scale per tensor or per row
///   (quantized dimension 0, one scale per row). The zero point must be 0 and is never
///   applied; a uint8 code is read as a signed byte, as TFLite does (its hybrid tables
///   hold int8 data), so the uint8 code 200 means -56. A float16 output rounds each
///   float32 product to half precision.
enum EmbeddingLookupKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let ids = try context.input(0)
        let table = try context.input(1)
        let output = try context.output(0)
        guard ids.type == .int32 else { throw context.unsupportedTypes() }
        guard ids.rank == 1 else { throw .invalid("ids have shape \(ids.shape); EMBEDDING_LOOKUP takes 1-D ids") }
        guard table.rank >= 2 else {
            throw .invalid("the table has shape \(table.shape); EMBEDDING_LOOKUP needs rank 2 or more")
        }
        let shape = [ids.shape[0]] + Array(table.shape.dropFirst())
        try context.setOutputShape(0, shape)
        let rows = table.shape[0]
        let width = try ShapeSupport.product(table.shape.dropFirst(), role: "a table row")
        if table.type == output.type {
            let size = try ShapeSupport.elementSize(table, context)
            return EmbeddingRows(
                ids: ids.index, table: table.index, output: output.index, count: ids.shape[0], rows: rows,
                rowBytes: width * size)
        }
        guard table.type == .int8 || table.type == .uint8, output.type == .float32 || output.type == .float16 else {
            throw context.unsupportedTypes()
        }
        guard let q = table.quantization, let first = q.scales.first, let zero = q.zeroPoints.first else {
            throw .invalid("the \(table.type) table of a \(output.type) lookup has no quantization scale")
        }
        guard zero == 0 else { throw .invalid("the table's zero point is \(zero); a hybrid lookup requires 0") }
        if q.scales.count > 1 {
            guard q.quantizedDimension == 0, q.scales.count == rows,
                q.zeroPoints.count == rows || q.zeroPoints.count == 1
            else {
                throw .invalid(
                    "the table has \(q.scales.count) scales on dimension \(q.quantizedDimension); per-row scales need one per row (\(rows)) on dimension 0"
                )
            }
        }
        return EmbeddingRowsHybrid(
            ids: ids.index, table: table.index, output: output.index, count: ids.shape[0], rows: rows, width: width,
            scales: q.scales.count > 1 ? q.scales : [first], halfOutput: output.type == .float16)
    }

    /// The row of id `k`, or an error when it is outside the table.
    @inline(__always)
    static func row(_ ids: UnsafePointer<Int32>, _ k: Int, rows: Int) throws(KernelError) -> Int {
        let id = Int(ids[k])
        guard id >= 0, id < rows else {
            throw .invalid("id \(id) (at position \(k) of the ids) is out of range 0..<\(rows)")
        }
        return id
    }
}

/// Rows copied as bytes.
struct EmbeddingRows: PreparedKernel {
    let ids: Int
    let table: Int
    let output: Int
    let count: Int
    let rows: Int
    let rowBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(ids, as: Int32.self))
        for k in 0 ..< count { _ = try EmbeddingLookupKernel.row(x, k, rows: rows) }
        let t = UnsafeRawPointer(context.raw(table))
        let y = context.raw(output)
        let rowBytes = self.rowBytes
        context.parallel.forEachChunk(count, cost: rowBytes) { range in
            for k in range { (y + k * rowBytes).copyMemory(from: t + Int(x[k]) * rowBytes, byteCount: rowBytes) }
        }
    }
}

/// Rows of an 8-bit table scaled to float32 or float16.
struct EmbeddingRowsHybrid: PreparedKernel {
    let ids: Int
    let table: Int
    let output: Int
    let count: Int
    let rows: Int
    let width: Int
    /// One scale, or one per row.
    let scales: [Float]
    let halfOutput: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(ids, as: Int32.self))
        for k in 0 ..< count { _ = try EmbeddingLookupKernel.row(x, k, rows: rows) }
        let t = UnsafePointer(context.pointer(table, as: Int8.self))
        let width = self.width, perRow = scales.count > 1
        let y = context.raw(output)
        scales.withUnsafeBufferPointer { scales in
            context.parallel.forEachChunk(count, cost: 4 * width) { range in
                for k in range {
                    let r = Int(x[k])
                    let scale = scales[perRow ? r : 0]
                    let source = t + r * width
                    if halfOutput {
                        let out = (y + 2 * k * width).assumingMemoryBound(to: UInt16.self)
                        for j in 0 ..< width { out[j] = HalfPrecision.bits(from: Float(source[j]) * scale) }
                    } else {
                        let out = (y + 4 * k * width).assumingMemoryBound(to: Float.self)
                        for j in 0 ..< width { out[j] = Float(source[j]) * scale }
                    }
                }
            }
        }
    }
}
