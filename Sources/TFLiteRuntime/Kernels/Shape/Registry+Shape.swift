import TFLiteModel

extension KernelRegistry {
    static var shapeKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.reshape, ReshapeKernels.reshape),
            (.squeeze, ReshapeKernels.squeeze),
            (.expandDims, ReshapeKernels.expandDims),
            (.concatenation, ConcatenationKernels.concatenation),
            (.pack, ConcatenationKernels.pack),
            (.unpack, SplitKernels.unpack),
            (.split, SplitKernels.split),
            (.splitV, SplitKernels.splitV),
            (.slice, SliceKernel.prepare),
            (.stridedSlice, StridedSliceKernel.prepare),
            (.transpose, TransposeKernels.transpose),
            (.depthToSpace, TransposeKernels.depthToSpace),
            (.spaceToDepth, TransposeKernels.spaceToDepth),
            (.gather, GatherKernel.prepare),
            (.shape, ShapeKernel.prepare),
            (.rank, RankKernel.prepare),
            (.dynamicUpdateSlice, DynamicUpdateSliceKernel.prepare),
            (.pad, PadKernels.pad),
            (.padv2, PadKernels.padV2),
            (.mirrorPad, PadKernels.mirrorPad),
        ]
    }
}
