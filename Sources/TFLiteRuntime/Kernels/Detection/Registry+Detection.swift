import TFLiteModel

extension KernelRegistry {
    static var detectionKernels: [(String, KernelPrepare)] {
        [
            (DetectionPostProcess.customName, DetectionPostProcess.prepare)
        ]
    }
}
