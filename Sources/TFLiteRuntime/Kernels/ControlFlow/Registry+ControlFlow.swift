import TFLiteModel

extension KernelRegistry {
    /// Operators that run other subgraphs of the model.
    static var controlFlowKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.if, IfKernel.prepare),
            (.while, WhileKernel.prepare),
            (.callOnce, CallOnceKernel.prepare),
            (.stablehloCase, StableHLOCaseKernel.prepare),
            (.stablehloComposite, StableHLOCompositeKernel.prepare),
        ]
    }
}
