import TFLiteModel

extension KernelRegistry {
    /// Operators on text and hashed features: word grams and locality-sensitive hashing.
    static var textKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.skipGram, SkipGramKernel.prepare),
            (.lshProjection, LSHProjectionKernel.prepare),
        ]
    }
}
