import TFLiteModel

/// MATRIX_DIAG: input `[..., n]` becomes `[..., n, n]`, each row of the input placed on the
/// main diagonal of a matrix whose other elements are zero.
///
/// Zero means the bit pattern 0 of the element type, whatever the quantization (TFLite
/// writes the code 0, not the zero point); the diagonal's codes are copied unchanged, so
/// quantized tensors keep their input's codes. Types: float32, int8, uint8, int16, int32,
/// int64 (TFLite's kernel reads any other type as float32, out of bounds for bool).
enum MatrixDiagKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        // TFLite gives the output the input's type at prepare.
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        let size = try MatrixDiagKernel.elementSize(input, context)
        guard input.rank >= 1 else { throw .invalid("the input is a scalar; MATRIX_DIAG needs rank 1 or more") }
        let n = input.shape[input.rank - 1]
        let shape = input.shape + [n]
        try ShapeSupport.requireRank(shape, role: "the output")
        try context.setOutputShape(0, shape)
        let batches = try ShapeSupport.product(input.shape.dropLast(), role: "the batch dimensions")
        return MatrixDiag(
            input: input.index, output: output.index, batches: batches, n: n, elementSize: size)
    }

    /// The element size of the types MATRIX_DIAG and MATRIX_SET_DIAG move.
    static func elementSize(_ tensor: TensorState, _ context: PrepareContext) throws(KernelError) -> Int {
        switch tensor.type {
        case .float32, .int32: return 4
        case .int8, .uint8: return 1
        case .int16: return 2
        case .int64: return 8
        default: throw context.unsupportedTypes()
        }
    }
}

/// Zeroes each `n × n` output matrix and copies the `n` input elements onto its diagonal.
struct MatrixDiag: PreparedKernel {
    let input: Int
    let output: Int
    let batches: Int
    let n: Int
    let elementSize: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(input))
        let y = context.raw(output)
        let n = self.n, size = elementSize
        let matrixBytes = n * n * size
        context.parallel.forEachChunk(batches, cost: matrixBytes) { range in
            for b in range {
                let matrix = y + b * matrixBytes
                matrix.initializeMemory(as: UInt8.self, repeating: 0, count: matrixBytes)
                let row = x + b * n * size
                for i in 0 ..< n {
                    (matrix + (i * n + i) * size).copyMemory(from: row + i * size, byteCount: size)
                }
            }
        }
    }
}
