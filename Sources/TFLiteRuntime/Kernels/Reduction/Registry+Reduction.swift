import TFLiteModel

extension KernelRegistry {
    static var reductionKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.mean, Reduce.prepare(.mean)),
            (.sum, Reduce.prepare(.sum)),
            (.reduceMax, Reduce.prepare(.max)),
        ]
    }
}
