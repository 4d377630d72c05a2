import TFLiteModel

extension KernelRegistry {
    /// Key → value lookups: the interpreter's hash tables and the sorted-key HASHTABLE_LOOKUP.
    static var lookupKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.hashtable, HashtableKernel.prepare),
            (.hashtableFind, HashtableFindKernel.prepare),
            (.hashtableImport, HashtableImportKernel.prepare),
            (.hashtableSize, HashtableSizeKernel.prepare),
            (.hashtableLookup, HashtableLookupKernel.prepare),
        ]
    }
}
