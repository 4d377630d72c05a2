import TFLiteModel

/// DENSIFY: expands a sparse constant (its `Sparsity` metadata plus the stored values) into
/// the dense tensor of the same shape and type, zeros elsewhere. The input must be a
/// constant, so constant folding runs this once at prepare. The destination of every
/// stored value is computed and validated at prepare (`SparseScatterMap`); eval zero-fills
/// and scatters. Any type of 1, 2, 4 or 8 bytes is accepted (TFLite: float32, float16, int8).
enum Densify {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        // TFLite's DENSIFY gives the output the input's type at prepare.
        try context.deriveOutputType(0, input.type)
        let output = try context.output(0)
        guard input.type == output.type, let size = input.type.byteSize, [1, 2, 4, 8].contains(size) else {
            throw context.unsupportedTypes()
        }
        guard let constant = input.constant else { throw .invalid("input must be a constant tensor") }
        guard let sparsity = input.sparsity else { throw .invalid("input has no sparsity parameters") }
        guard constant.bytes.count % size == 0 else {
            throw .invalid(
                "sparse values take \(constant.bytes.count) bytes, not a multiple of the element size \(size)")
        }
        try context.setOutputShape(0, input.shape)
        let destinations = try SparseScatterMap.build(
            shape: input.shape, sparsity: sparsity,
            valueCount: constant.bytes.count / size)
        let count = input.elementCount
        return DensifyScatter(
            elementSize: size, input: input.index, output: output.index, count: count,
            destinations: destinations)
    }
}

/// Moves elements as raw bit patterns of their size (zero bits are zero in every type).
/// The size is stored, not a generic parameter: the witness of a generic kernel's `eval`
/// is the unspecialized body, which copied each element through value witnesses; `eval`
/// picks the specialization of `scatter` instead.
struct DensifyScatter: PreparedKernel {
    /// 1, 2, 4 or 8 bytes (checked at prepare).
    let elementSize: Int
    let input: Int
    let output: Int
    let count: Int
    let destinations: [Int]

    func eval(_ context: EvalContext) throws(KernelError) {
        switch elementSize {
        case 1: scatter(context, UInt8.self)
        case 2: scatter(context, UInt16.self)
        case 4: scatter(context, UInt32.self)
        default: scatter(context, UInt64.self)
        }
    }

    private func scatter<Element: FixedWidthInteger>(_ context: EvalContext, _: Element.Type) {
        let x = context.pointer(input, as: Element.self)
        let y = context.pointer(output, as: Element.self)
        y.update(repeating: 0, count: count)
        destinations.withUnsafeBufferPointer { destinations in
            for (k, d) in destinations.enumerated() { y[d] = x[k] }
        }
    }
}
