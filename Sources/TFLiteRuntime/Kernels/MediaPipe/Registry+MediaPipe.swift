import TFLiteModel

extension KernelRegistry {
    /// MediaPipe's custom operators (`mediapipe/util/tflite/operations/`), float32 only.
    static var mediaPipeKernels: [(String, KernelPrepare)] {
        [
            (Convolution2DTransposeBias.customName, Convolution2DTransposeBias.prepare),
            (Landmarks2TransformMatrix.customName, Landmarks2TransformMatrix.prepare),
            (TransformTensorBilinear.customName, TransformTensorBilinear.prepare),
            (TransformTensorBilinear.customNameV1, TransformTensorBilinear.prepareV1),
            (TransformLandmarks.customName, TransformLandmarks.prepare),
            (MaxPoolingWithArgmax2D.customName, MaxPoolingWithArgmax2D.prepare),
            (MaxUnpooling2D.customName, MaxUnpooling2D.prepare),
        ]
    }
}
