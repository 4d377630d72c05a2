import TFLiteModel

extension KernelRegistry {
    /// TFLite's own custom operators of the Smart Reply model
    /// (`tensorflow/lite/models/smartreply/ops/`).
    static var smartReplyKernels: [(String, KernelPrepare)] {
        [
            (NormalizeKernel.customName, NormalizeKernel.prepare),
            (ExtractFeaturesKernel.customName, ExtractFeaturesKernel.prepare),
            (PredictKernel.customName, PredictKernel.prepare),
        ]
    }
}
