import TFLiteModel

extension KernelRegistry {
    static var resizeKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.resizeBilinear, ResizeBilinear.prepare),
            (.resizeNearestNeighbor, ResizeNearestNeighbor.prepare),
        ]
    }
}
