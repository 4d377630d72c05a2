import TFLiteModel

extension KernelRegistry {
    /// Resource variables: state an interpreter keeps between invokes.
    static var variableKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.varHandle, VarHandleKernel.prepare),
            (.readVariable, ReadVariableKernel.prepare),
            (.assignVariable, AssignVariableKernel.prepare),
        ]
    }
}
