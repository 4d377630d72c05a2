import TFLiteModel

extension KernelRegistry {
    /// Builtin detection operators.
    static var detectionBuiltinKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.nonMaxSuppressionV4, NonMaxSuppressionV5Kernel.prepare),
            (.nonMaxSuppressionV5, NonMaxSuppressionV5Kernel.prepare),
        ]
    }

    static var detectionKernels: [(String, KernelPrepare)] {
        [
            (DetectionPostProcess.customName, DetectionPostProcess.prepare)
        ]
    }
}
