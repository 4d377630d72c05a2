import TFLiteModel

/// READ_VARIABLE: a copy of the value of the resource variable whose id input 0 holds.
///
/// Reading a variable no ASSIGN_VARIABLE has set fails at invoke, as in LiteRT. When the
/// file declares the output's whole shape (the usual case: a `tf.Variable` has a fixed
/// shape) the output keeps it, and a value of another element count or type is an error;
/// otherwise the output takes the value's shape at invoke (a ``DynamicShapeKernel``).
enum ReadVariableKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let handle = try context.resourceHandle(0)
        let output = try context.output(0)
        guard let size = output.type.byteSize, output.type != .resource else { throw context.unsupportedTypes() }
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        let read = ReadVariable(
            interpreterState: interpreterState, handle: handle, output: try context.outputIndex(0), type: output.type,
            elementSize: size, declared: output.hasStaticShape ? output.shape : nil)
        if read.declared == nil { return ReadVariableDynamic(read: read) }
        try context.setOutputShape(0, output.shape)
        return read
    }
}

struct ReadVariable: StatefulKernel {
    let interpreterState: InterpreterState
    let handle: Int
    let output: Int
    let type: ElementType
    let elementSize: Int
    /// The output's shape when the file fixes it.
    let declared: [Int]?

    /// The variable's current value, checked against the output's type.
    func value(_ context: EvalContext) throws(KernelError) -> ResourceVariable {
        let id = context.pointer(handle, as: Int32.self).pointee
        guard let variable = interpreterState.variables[id] else {
            throw .invalid("variable \(interpreterState.variableName(id)) is read before any value was assigned to it")
        }
        guard variable.type == type else {
            throw .invalid(
                "variable \(interpreterState.variableName(id)) holds \(variable.type), the output is \(type)")
        }
        return variable
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let variable = try value(context)
        if let declared, let expected = Shape.byteCount(declared, elementSize: elementSize),
            expected != variable.bytes.count
        {
            throw .invalid("the variable holds shape \(variable.shape); the model declares \(declared)")
        }
        if variable.bytes.count > 0 {
            context.raw(output).copyMemory(from: variable.bytes.pointer, byteCount: variable.bytes.count)
        }
    }
}

struct ReadVariableDynamic: DynamicShapeKernel, StatefulKernel {
    let read: ReadVariable

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [try read.value(context).shape]
    }

    func eval(_ context: EvalContext) throws(KernelError) { try read.eval(context) }
}
