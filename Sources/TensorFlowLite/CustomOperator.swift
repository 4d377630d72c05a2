import TFLiteRuntime

/// A kernel for a custom operator (an operator whose code is `CUSTOM` and whose
/// `custom_code` names it), written in Swift and registered on ``Interpreter/Options``
/// with ``Interpreter/Options/registerCustomOperator(_:_:)``.
///
/// Like the runtime's own kernels it has two steps. ``prepare(_:)`` runs when the
/// interpreter is created and at every ``Interpreter/allocateTensors()``: it checks the
/// input types and shapes, reads the custom options, sets the output shapes and returns
/// the prepared ``CustomOperatorKernel``, whose ``CustomOperatorKernel/eval(_:)`` runs at
/// every ``Interpreter/invoke()`` and only computes.
///
///     struct Square: CustomOperator {
///         func prepare(_ context: inout CustomOperatorPrepareContext) throws -> any CustomOperatorKernel {
///             guard context.inputCount == 1, context.outputCount == 1,
///                   try context.inputType(0) == .float32 else { throw SquareError.unsupported }
///             try context.setOutputShape(0, try context.inputShape(0))
///             return SquareKernel()
///         }
///     }
///     struct SquareKernel: CustomOperatorKernel {
///         func eval(_ context: CustomOperatorEvalContext) throws {
///             let x = try context.input(0, as: Float.self)
///             let y = try context.output(0, as: Float.self)
///             for i in 0 ..< x.count { y[i] = x[i] * x[i] }
///         }
///     }
///
///     var options = Interpreter.Options()
///     options.registerCustomOperator("Square", Square())
///
/// An error thrown by either step reaches the caller as
/// ``InterpreterError/customOperatorFailed(name:operatorIndex:reason:)``, naming the
/// operator.
public protocol CustomOperator: Sendable {
    /// Validates the operator and sets its output shapes; returns the kernel `invoke` runs.
    /// Input values are not available here, except through the shapes and types.
    func prepare(_ context: inout CustomOperatorPrepareContext) throws -> any CustomOperatorKernel
}

/// The prepared form of a ``CustomOperator``: computes the outputs from the inputs.
///
/// The tensor views of ``CustomOperatorEvalContext`` are valid only during the call:
/// the interpreter reuses the memory for other tensors afterwards.
public protocol CustomOperatorKernel {
    /// Computes the outputs. Throw for faults that depend on the input values.
    func eval(_ context: CustomOperatorEvalContext) throws
}

extension Interpreter.Options {
    /// Registers `kernel` for the custom operators named `name` (their `custom_code`).
    ///
    /// A registration replaces an earlier one for the same name, including the
    /// runtime's own kernel for that name (such as `TFLite_Detection_PostProcess` or
    /// MediaPipe's operators). A model whose custom operator has no kernel is refused
    /// when the interpreter is created, with an error naming the operator.
    public mutating func registerCustomOperator(_ name: String, _ kernel: some CustomOperator) {
        customKernels.register(name, prepare: CustomOperatorAdapter.prepare(name: name, kernel: kernel))
    }

    /// The names registered with ``registerCustomOperator(_:_:)``, sorted.
    public var customOperatorNames: [String] { customKernels.names }
}
