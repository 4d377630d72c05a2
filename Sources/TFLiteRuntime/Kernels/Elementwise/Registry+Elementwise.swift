import TFLiteModel

extension KernelRegistry {
    static var elementwiseKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.add, BinaryElementwise.prepare(.add)),
            (.sub, BinaryElementwise.prepare(.sub)),
            (.mul, BinaryElementwise.prepare(.mul)),
            (.div, BinaryElementwise.prepare(.div)),
            (.squaredDifference, BinaryElementwise.prepare(.squaredDifference)),
            (.maximum, BinaryElementwise.prepare(.maximum)),
            (.minimum, BinaryElementwise.prepare(.minimum)),
            (.addN, AddNKernel.prepare),
        ]
    }
}
