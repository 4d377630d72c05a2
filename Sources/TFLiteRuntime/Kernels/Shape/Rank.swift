import TFLiteModel

/// RANK: the number of dimensions of the input, as a scalar INT32.
///
/// Only the input's shape matters, never its values or type (string and resource tensors
/// have a rank too), so the output is a constant from prepare on, as TFLite makes it
/// (its kernel writes the value at prepare and does nothing at invoke).
enum RankKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        // TFLite gives the output type INT32 at prepare, whatever the file says.
        try context.deriveOutputType(0, .int32)
        let output = try context.output(0)
        try context.setOutputShape(0, [])
        let bytes = withUnsafeBytes(of: Int32(input.rank).littleEndian) { Array($0) }
        if try context.setOutputConstant(0, bytes: bytes) { return NoWorkKernel() }
        return ConstantBytesKernel(output: output.index, bytes: bytes)
    }
}
