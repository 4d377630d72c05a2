import TFLiteModel

/// BITCAST: the input's bytes reinterpreted as the output's element type.
///
/// With input element size `si` and output element size `so` (TFLite's rule):
/// - `si == so`: the shape is unchanged;
/// - `si > so`: a last dimension of `si / so` is appended (`so` must divide `si`);
/// - `si < so`: the last dimension must equal `so / si` and is dropped.
///
/// Every fixed-size type is accepted; the bytes are copied unchanged.
enum Bitcast {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard let si = input.type.byteSize, let so = output.type.byteSize else { throw context.unsupportedTypes() }
        var shape = input.shape
        if si > so {
            guard si % so == 0 else {
                throw .invalid(
                    "\(input.type) elements (\(si) bytes) do not split into \(output.type) elements (\(so) bytes)")
            }
            shape.append(si / so)
        } else if si < so {
            guard so % si == 0, let last = shape.last, last == so / si else {
                throw .invalid(
                    "bitcasting \(input.type) to \(output.type) needs a last dimension of \(so / Swift.max(si, 1)) "
                        + "\(input.type) elements, but the input has shape \(input.shape)")
            }
            shape.removeLast()
        }
        try context.setOutputShape(0, shape)
        guard let bytes = input.byteCount else { throw .invalid("input shape \(input.shape) is too large") }
        return ByteCopyKernel(input: input.index, output: output.index, byteCount: bytes)
    }
}
