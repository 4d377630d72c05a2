import TFLiteModel

extension KernelRegistry {
    static var detectionKernels: [(String, KernelPrepare)] {
        [
        ]
    }
}
