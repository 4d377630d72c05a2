import TFLiteModel

extension KernelRegistry {
    /// Operators on the bits of integers (and on raw bytes: BITCAST).
    static var bitwiseKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.bitwiseXor, BitwiseXor.prepare),
            (.rightShift, RightShift.prepare),
            (.bitcast, Bitcast.prepare),
        ]
    }
}
