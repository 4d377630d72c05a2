/// RNN's options (`RNNOptions`).
public struct RNNOptions: Hashable, Sendable {
    /// The activation of the new hidden state (TFLite's `fused_activation_function`).
    public var activation: FusedActivation
    /// Hybrid kernels quantize each float row with a zero point instead of symmetrically.
    public var asymmetricQuantizeInputs: Bool
    public init(activation: FusedActivation, asymmetricQuantizeInputs: Bool = false) {
        self.activation = activation; self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
    }
}

/// UNIDIRECTIONAL_SEQUENCE_RNN's options (`SequenceRNNOptions`).
public struct SequenceRNNOptions: Hashable, Sendable {
    /// The input is `[time, batch, features]` instead of `[batch, time, features]`.
    public var timeMajor: Bool
    public var activation: FusedActivation
    public var asymmetricQuantizeInputs: Bool
    public init(timeMajor: Bool, activation: FusedActivation, asymmetricQuantizeInputs: Bool = false) {
        self.timeMajor = timeMajor; self.activation = activation
        self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
    }
}

/// BIDIRECTIONAL_SEQUENCE_RNN's options (`BidirectionalSequenceRNNOptions`).
public struct BidirectionalSequenceRNNOptions: Hashable, Sendable {
    public var timeMajor: Bool
    public var activation: FusedActivation
    /// Both directions write the first output, forward units then backward units per step.
    public var mergeOutputs: Bool
    public var asymmetricQuantizeInputs: Bool
    public init(
        timeMajor: Bool, activation: FusedActivation, mergeOutputs: Bool, asymmetricQuantizeInputs: Bool = false
    ) {
        self.timeMajor = timeMajor; self.activation = activation; self.mergeOutputs = mergeOutputs
        self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
    }
}

/// SVDF's options (`SVDFOptions`).
public struct SVDFOptions: Hashable, Sendable {
    /// Filters per output unit (`filters = units · rank`); 0 when the table omits it.
    public var rank: Int
    public var activation: FusedActivation
    public var asymmetricQuantizeInputs: Bool
    public init(rank: Int, activation: FusedActivation, asymmetricQuantizeInputs: Bool = false) {
        self.rank = rank; self.activation = activation; self.asymmetricQuantizeInputs = asymmetricQuantizeInputs
    }
}
