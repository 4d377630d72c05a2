import TFLiteModel

extension KernelRegistry {
    /// The StableHLO operators LiteRT's builtin resolver has kernels for, except those whose
    /// body is a subgraph (scripts/fixtures/probe_stablehlo_kernels.py lists them).
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
            (.stablehloRngBitGenerator, StableHLORngBitGenerator.prepare),
        ]
    }
}
