import TFLiteModel

extension KernelRegistry {
    static var convolutionKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.conv2D, Conv2D.prepare),
            (.depthwiseConv2D, DepthwiseConv2D.prepare),
            (.fullyConnected, FullyConnected.prepare),
            (.transposeConv, TransposeConv.prepare),
            (.batchMatmul, BatchMatMul.prepare),
            (.conv3D, Conv3D.prepare),
            (.conv3DTranspose, Conv3DTranspose.prepare),
        ]
    }
}
