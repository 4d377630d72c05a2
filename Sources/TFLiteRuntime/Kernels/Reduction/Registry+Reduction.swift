import TFLiteModel

extension KernelRegistry {
    static var reductionKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.mean, Reduce.prepare(.mean)),
            (.sum, Reduce.prepare(.sum)),
            (.reduceMax, ReduceFold.prepare(.max)),
            (.reduceMin, ReduceFold.prepare(.min)),
            (.reduceProd, ReduceFold.prepare(.product)),
            (.reduceAny, ReduceFold.prepare(.any)),
            (.reduceAll, ReduceFold.prepare(.all)),
        ]
    }
}
