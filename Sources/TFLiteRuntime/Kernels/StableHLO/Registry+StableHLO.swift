import TFLiteModel

extension KernelRegistry {
    /// The StableHLO operators LiteRT's builtin resolver has kernels for
    /// (scripts/fixtures/probe_stablehlo_kernels.py lists them); COMPOSITE and CASE, which
    /// run subgraphs, are with the control-flow kernels.
    static var stableHLOKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.stablehloAdd, StableHLOElementwise.prepare(.add)),
            (.stablehloMultiply, StableHLOElementwise.prepare(.multiply)),
            (.stablehloMaximum, StableHLOElementwise.prepare(.maximum)),
            (.stablehloMinimum, StableHLOElementwise.prepare(.minimum)),
            (.stablehloAnd, StableHLOElementwise.prepare(.and)),
            (.stablehloShiftLeft, StableHLOShiftLeft.prepare),
            (.stablehloPad, StableHLOPad.prepare),
            (.stablehloGather, StableHLOGather.prepare),
            (.stablehloReduceWindow, StableHLOReduceWindow.prepare),
            (.stablehloScatter, StableHLOScatter.prepare),
            (.stablehloRngBitGenerator, StableHLORngBitGenerator.prepare),
        ]
    }
}
