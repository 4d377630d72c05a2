import TFLiteModel

extension KernelRegistry {
    static var comparisonKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.equal, Comparison.prepare(.equal)),
            (.notEqual, Comparison.prepare(.notEqual)),
            (.less, Comparison.prepare(.less)),
            (.lessEqual, Comparison.prepare(.lessEqual)),
            (.greater, Comparison.prepare(.greater)),
            (.greaterEqual, Comparison.prepare(.greaterEqual)),
            (.select, Select.prepare(broadcasting: false)),
            (.selectV2, Select.prepare(broadcasting: true)),
            (.`where`, WhereKernel.prepare),
        ]
    }
}
