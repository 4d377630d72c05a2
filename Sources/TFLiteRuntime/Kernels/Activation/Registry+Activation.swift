import TFLiteModel

extension KernelRegistry {
    static var activationKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.relu, ClampActivation.prepare(lower: 0, upper: .infinity)),
            (.relu6, ClampActivation.prepare(lower: 0, upper: 6)),
            (.reluN1To1, ClampActivation.prepare(lower: -1, upper: 1)),
        ]
    }
}
