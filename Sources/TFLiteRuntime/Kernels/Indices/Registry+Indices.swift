import TFLiteModel

extension KernelRegistry {
    /// Operators that compute or consume element indices.
    static var indexKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.argMax, ArgMinMaxKernel.prepare(max: true)),
            (.argMin, ArgMinMaxKernel.prepare(max: false)),
            (.topkV2, TopKV2Kernel.prepare),
            (.cumsum, CumsumKernel.prepare),
            (.gatherND, GatherNDKernel.prepare),
            (.scatterND, ScatterNDKernel.prepare),
            (.oneHot, OneHotKernel.prepare),
            (.unique, UniqueKernel.prepare),
            (.bucketize, BucketizeKernel.prepare),
            (.sparseToDense, SparseToDenseKernel.prepare),
        ]
    }
}
