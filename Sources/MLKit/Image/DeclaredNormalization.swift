import TensorFlowLite

extension InputNormalization {
    /// The normalization input `index` of `model` declares in its TFLite metadata: the first
    /// `NormalizationOptions` process unit of that input in the main subgraph's metadata.
    ///
    /// `nil` when the model has no `TFLITE_METADATA`, when that metadata cannot be read
    /// (`ModelMetadataError`: it is then ignored as a whole), when the input has no
    /// normalization unit, or when its values are not usable (mean and std must each hold
    /// 1 or 3 finite values, std no zero — see ``init(mean:std:)``).
    public init?(declaredBy model: Model, input index: Int = 0) {
        guard let metadata = try? model.tfliteMetadata, let declared = metadata.input(index)?.normalization else {
            return nil
        }
        self.init(mean: declared.mean, std: declared.std)
    }

    /// The normalization a vision model's image input gets, first match wins:
    /// 1. `override` (the caller's `inputNormalization` option);
    /// 2. what input 0 declares in the model's TFLite metadata (``init(declaredBy:input:)``);
    /// 3. `convention`, the bundle's convention (`[-1, 1]` for SSD detectors and BlazeFace);
    /// 4. ``unitRange`` (`[0, 1]`).
    static func resolved(override: InputNormalization?, model: Model, convention: InputNormalization?)
        -> InputNormalization
    {
        override ?? InputNormalization(declaredBy: model) ?? convention ?? .unitRange
    }
}
