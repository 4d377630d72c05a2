import TFLiteModel

/// A prepared kernel with outputs whose shapes depend on its input *values*, so they are
/// known only at invoke (WHERE: one row per true element).
///
/// A prepare function returns one only when such an input is computed at run time; when
/// the input is constant it sets the output shape itself and returns an ordinary kernel
/// (which the engine then folds). The engine prepares and plans the operators up to and
/// including this one at allocate, and those after it at invoke, once
/// ``outputShapes(_:)`` has given the shapes (spec/runtime.md, "Shapes known only at
/// invoke").
package protocol DynamicShapeKernel: PreparedKernel {
    /// The shape of each of the operator's outputs, in output order, for the input values
    /// now in `context`. Called before the outputs have memory: read only the inputs.
    /// `eval` follows with the same inputs and must write outputs of exactly these shapes.
    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]]
}
