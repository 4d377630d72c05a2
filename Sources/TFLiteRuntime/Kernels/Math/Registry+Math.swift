import TFLiteModel

extension KernelRegistry {
    static var mathKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.abs, UnaryMath.prepare(.abs)),
            (.neg, UnaryMath.prepare(.neg)),
            (.log, UnaryMath.prepare(.log)),
            (.sin, UnaryMath.prepare(.sin)),
            (.cos, UnaryMath.prepare(.cos)),
            (.floor, UnaryMath.prepare(.floor)),
            (.ceil, UnaryMath.prepare(.ceil)),
            (.round, UnaryMath.prepare(.round)),
            (.sign, UnaryMath.prepare(.sign)),
            (.square, UnaryMath.prepare(.square)),
            (.elu, UnaryMath.prepare(.elu)),
            (.gelu, UnaryMath.prepare(.gelu)),
            (.logicalNot, UnaryMath.prepare(.logicalNot)),
            (.pow, BinaryMath.prepare(.pow)),
            (.floorDiv, BinaryMath.prepare(.floorDiv)),
            (.floorMod, BinaryMath.prepare(.floorMod)),
            (.logicalAnd, BinaryMath.prepare(.logicalAnd)),
            (.logicalOr, BinaryMath.prepare(.logicalOr)),
            (.atan2, Atan2.prepare),
        ]
    }
}
