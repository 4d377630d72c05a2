import TFLiteModel

/// MATRIX_SET_DIAG: the input `[..., r, c]` with the main diagonal of each matrix replaced
/// by the diagonal input, `[..., min(r, c)]`; every other element is copied.
///
/// Codes are copied unchanged (no requantization, as in TFLite). TFLite reads the
/// diagonal's elements in order without checking its shape; here it must hold exactly
/// `batches · min(r, c)` elements. Types as for MATRIX_DIAG.
enum MatrixSetDiagKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let input = try context.input(0)
        let diagonal = try context.input(1)
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        let size = try MatrixDiagKernel.elementSize(input, context)
        guard diagonal.type == input.type else { throw context.unsupportedTypes() }
        guard input.rank >= 2 else {
            throw .invalid("the input has rank \(input.rank); MATRIX_SET_DIAG needs rank 2 or more")
        }
        let rows = input.shape[input.rank - 2], columns = input.shape[input.rank - 1]
        let batches = try ShapeSupport.product(input.shape.dropLast(2), role: "the batch dimensions")
        let length = Swift.min(rows, columns)
        guard Shape.elementCount(diagonal.shape) == batches * length else {
            throw .invalid(
                "the diagonal has shape \(diagonal.shape); it must hold \(batches * length) elements (\(Array(input.shape.dropLast(2)) + [length]))"
            )
        }
        try context.setOutputShape(0, input.shape)
        return MatrixSetDiag(
            input: input.index, diagonal: diagonal.index, output: output.index, batches: batches, rows: rows,
            columns: columns, elementSize: size)
    }
}

/// Copies each matrix, then writes its diagonal.
struct MatrixSetDiag: PreparedKernel {
    let input: Int
    let diagonal: Int
    let output: Int
    let batches: Int
    let rows: Int
    let columns: Int
    let elementSize: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(input))
        let d = UnsafeRawPointer(context.raw(diagonal))
        let y = context.raw(output)
        let size = elementSize, columns = self.columns
        let length = Swift.min(rows, columns)
        let matrixBytes = rows * columns * size
        context.parallel.forEachChunk(batches, cost: matrixBytes) { range in
            for b in range {
                let matrix = y + b * matrixBytes
                matrix.copyMemory(from: x + b * matrixBytes, byteCount: matrixBytes)
                let diagonal = d + b * length * size
                for i in 0 ..< length {
                    (matrix + (i * columns + i) * size).copyMemory(from: diagonal + i * size, byteCount: size)
                }
            }
        }
    }
}
