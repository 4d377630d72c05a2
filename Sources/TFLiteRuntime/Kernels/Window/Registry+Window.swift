import TFLiteModel

extension KernelRegistry {
    /// Window and interior-padding operators (shapes from per-dimension windows).
    static var windowKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.dilate, Dilate.prepare),
            (.reduceWindow, ReduceWindow.prepare),
        ]
    }
}
