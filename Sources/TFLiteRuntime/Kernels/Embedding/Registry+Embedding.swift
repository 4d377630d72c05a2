import TFLiteModel

extension KernelRegistry {
    /// Rows of an embedding table looked up by id.
    static var embeddingKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.embeddingLookup, EmbeddingLookupKernel.prepare),
            (.embeddingLookupSparse, EmbeddingLookupSparseKernel.prepare),
        ]
    }
}
