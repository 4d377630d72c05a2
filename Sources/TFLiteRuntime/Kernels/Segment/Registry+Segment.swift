import TFLiteModel

extension KernelRegistry {
    /// Reductions of the rows of a tensor into segments named by an id per row.
    static var segmentKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.segmentSum, SegmentSumKernel.prepare),
            (.unsortedSegmentSum, UnsortedSegmentKernel.prepare(.sum)),
            (.unsortedSegmentProd, UnsortedSegmentKernel.prepare(.product)),
            (.unsortedSegmentMax, UnsortedSegmentKernel.prepare(.max)),
            (.unsortedSegmentMin, UnsortedSegmentKernel.prepare(.min)),
        ]
    }
}
