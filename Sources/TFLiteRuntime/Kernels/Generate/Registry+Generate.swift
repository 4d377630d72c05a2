import TFLiteModel

extension KernelRegistry {
    /// Operators that make tensors from shapes and scalars.
    static var generateKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.fill, FillKernel.prepare),
            (.zerosLike, ZerosLikeKernel.prepare),
            (.range, RangeKernel.prepare),
            (.broadcastArgs, BroadcastArgsKernel.prepare),
        ]
    }
}
