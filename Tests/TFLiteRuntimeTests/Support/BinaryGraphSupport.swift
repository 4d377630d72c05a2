import TFLiteModel
@testable import TFLiteRuntime

/// Runs one option-less binary `op` on graph inputs `a` and `b` (element type `type`)
/// into an output of type `output`, and returns it read as `Out` with its shape.
func runBinary<T, Out>(
    _ op: BuiltinOperator, _ a: [T], _ aShape: [Int], _ b: [T], _ bShape: [Int], _ type: ElementType,
    output: ElementType, quantization: (Quantization?, Quantization?) = (nil, nil),
    as _: Out.Type
) throws -> (values: [Out], shape: [Int]) {
    var g = GraphBuilder()
    let x = g.input(aShape, type, quantization: quantization.0)
    let y = g.input(bShape, type, quantization: quantization.1)
    let z = g.tensor([], output)
    g.op(op, inputs: [x, y], outputs: [z])
    g.output(z)
    let engine = try g.engine()
    try engine.allocate()
    try engine.setInput(0, a)
    try engine.setInput(1, b)
    try engine.invoke()
    return (try engine.output(0, as: Out.self), engine.outputShape(0))
}
